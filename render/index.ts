import { registerRoot } from 'remotion';
import { RemotionRoot } from './root';

/** The Remotion bundle's entry point (render/server/render-video.ts bundles this file). */
registerRoot(RemotionRoot);
