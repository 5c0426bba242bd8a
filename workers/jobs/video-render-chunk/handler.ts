import { env } from '../../../lib/env';
import { videoRenderChunkJob } from '../../../lib/queue/jobs/video-render-chunk';
import { renderVideoChunk } from '../../../lib/video/render-video-chunk';
import { chromiumMissing } from '../../../render/server/chromium-launcher';
import { bundleOnce, renderTrajectoryVideo } from '../../../render/server/render-video';
import { goneIsPermanent, type JobHandler } from '../../job-handler';

/** Renders one chunk of a long video (lib/video/render-video-chunk.ts); a video or chunk that is gone is not retried. */
export const videoRenderChunkHandler: JobHandler<typeof videoRenderChunkJob> = {
  contract: videoRenderChunkJob,
  warmUp: bundleOnce,
  unmet: () => chromiumMissing(env().CHROMIUM_PATH),
  async handle({ videoId, index }, ctx) {
    return goneIsPermanent(() => renderVideoChunk(videoId, index, ctx, renderTrajectoryVideo));
  },
};
