import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { env } from '../../../lib/env';
import {
  failChunk,
  failVideo,
  findVideo,
  finishChunk,
  listVideoChunks,
  setChunkProgress,
  startChunkRender,
} from '../../../lib/video/queries/videos';
import { sendJob } from '../../../lib/queue/boss';
import { openStore } from '../../../lib/storage/open-store';
import { videoPropsFor } from '../../../lib/video/video-props-for';
import { bundleOnce, renderTrajectoryVideo } from '../../../render/server/render-video';
import { chromiumMissing } from '../../../render/server/chromium-launcher';
import { PermanentJobError, type JobHandler } from '../../job-handler';
import { videoCombineJob } from '../../../lib/queue/jobs/video-combine';
import { failureText } from '../../../lib/video/video-files';
import { videoRenderChunkJob } from '../../../lib/queue/jobs/video-render-chunk';

export function chunkStorageKey(videoId: string, index: number): string {
  return `videos/${videoId}/chunk-${String(index).padStart(4, '0')}.ts`;
}

/** Renders one chunk (MPEG-TS h264, so chunks concatenate seamlessly); the last one queues the combine. */
export const videoRenderChunkHandler: JobHandler<typeof videoRenderChunkJob> = {
  contract: videoRenderChunkJob,
  warmUp: bundleOnce,
  unmet: () => chromiumMissing(env().CHROMIUM_PATH),
  async handle({ videoId, index }, ctx) {
    const video = await findVideo(videoId);
    if (!video) throw new PermanentJobError(`video ${videoId} does not exist`);
    if (video.status === 'done') return { skipped: 'video already rendered' };
    const chunk = (await listVideoChunks(videoId)).find((c) => c.index === index);
    if (!chunk) throw new PermanentJobError(`video ${videoId} has no chunk ${index}`);
    if (chunk.status === 'done') return { skipped: 'chunk already rendered' };
    const mine = (await startChunkRender(videoId, index, ctx.now())) || ctx.attempt > 0;
    if (!mine) return { skipped: 'another worker is rendering this chunk' };

    const dir = await mkdtemp(path.join(os.tmpdir(), 'witness-chunk-'));
    try {
      // the props the video's render derived and stored: every chunk draws the same ones
      const props = await videoPropsFor(video.trajectoryId, undefined, video.pacing);
      let last = 0;
      const result = await renderTrajectoryVideo({
        props,
        outPath: path.join(dir, 'chunk.ts'),
        frameRange: [chunk.fromFrame, chunk.toFrame],
        codec: 'h264-ts',
        cancelSignal: ctx.signal,
        onProgress: (p) => {
          if (p.progress - last >= 0.1) {
            last = p.progress;
            void setChunkProgress(videoId, index, p.progress);
          }
        },
      });
      const key = chunkStorageKey(videoId, index);
      const store = openStore();
      await store.putFile(key, result.outPath, 'video/mp2t');
      // a second run of this chunk (a retry of a killed attempt) can finish after the combine:
      // the combine marks the video done before deleting the chunks, so a chunk stored after
      // that deletion sees the video done here and removes itself (nothing is left in the store)
      if ((await findVideo(videoId))?.status === 'done') {
        await store.delete(key).catch(() => {});
        return { skipped: 'video finished while this chunk rendered' };
      }
      const { allDone } = await finishChunk(videoId, index, key);
      if (allDone) await sendJob(env().DATABASE_URL!, videoCombineJob, { videoId });
      return { frames: result.frames, allDone };
    } catch (error) {
      const message = failureText(error);
      if (error instanceof PermanentJobError || ctx.attempt >= videoRenderChunkJob.retry.limit) {
        await failChunk(videoId, index, message);
        await failVideo(videoId, `chunk ${index}: ${message}`, ctx.now());
      }
      throw error instanceof PermanentJobError ? error : new Error(message, { cause: error });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
