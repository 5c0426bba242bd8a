import { registerRoot } from 'remotion';
import { RemotionRoot } from './Root';

/** The Remotion bundle's entry point (render/server/render-video.ts bundles this file). */
registerRoot(RemotionRoot);
