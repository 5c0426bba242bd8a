import { VIDEO_PROPS_VERSION } from './schema';

/** Bump VIDEO_PROPS_VERSION (lib/video/schema.ts) when the video's look changes: a new version renders anew. */
export const COMPOSITION_VERSION = `trajectory-video@${VIDEO_PROPS_VERSION}`;
