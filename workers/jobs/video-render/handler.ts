import { env } from '../../../lib/env';
import { videoRenderJob } from '../../../lib/queue/jobs/video-render';
import { renderVideo } from '../../../lib/video/render-video';
import { chromiumMissing } from '../../../render/server/chromium-launcher';
import { bundleOnce, renderTrajectoryVideo } from '../../../render/server/render-video';
import { goneIsPermanent, type JobHandler } from '../../job-handler';

/** Renders a video, or fans a long one out into chunks (lib/video/render-video.ts); a video that is gone is not retried. */
export const videoRenderHandler: JobHandler<typeof videoRenderJob> = {
  contract: videoRenderJob,
  warmUp: bundleOnce,
  unmet: () => chromiumMissing(env().CHROMIUM_PATH),
  async handle({ videoId }, ctx) {
    return goneIsPermanent(() => renderVideo(videoId, ctx, renderTrajectoryVideo));
  },
};
