import { videoCombineJob } from '../../../lib/queue/jobs/video-combine';
import { combineVideo } from '../../../lib/video/combine-video';
import { combineVideoChunks } from '../../../render/server/render-video';
import { goneIsPermanent, type JobHandler } from '../../job-handler';

/** Joins a long video's chunks into its MP4 (lib/video/combine-video.ts); a video that is gone is not retried. */
export const videoCombineHandler: JobHandler<typeof videoCombineJob> = {
  contract: videoCombineJob,
  async handle({ videoId }, ctx) {
    return goneIsPermanent(() => combineVideo(videoId, ctx, combineVideoChunks));
  },
};
