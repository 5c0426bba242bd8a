import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { env } from '../../../lib/env';
import {
  ensureVideoChunks,
  failVideo,
  findVideo,
  finishVideo,
  listVideoChunks,
  resumeVideoRender,
  setVideoProgress,
  startVideoRender,
} from '../../../lib/video/queries/videos';
import { sendJob } from '../../../lib/queue/boss';
import { liveWorkers } from '../../../lib/db/worker-heartbeats';
import { openStore } from '../../../lib/storage/open-store';
import { planChunks } from '../../../lib/video/chunks';
import { failureText, videoStorageKey } from '../../../lib/video/video-files';
import { freshVideoPropsFor } from '../../../lib/video/video-props-for';
import { bundleOnce, renderTrajectoryVideo } from '../../../render/server/render-video';
import { chromiumMissing } from '../../../render/server/chromium-launcher';
import { PermanentJobError, type JobHandler } from '../../job-handler';
import { videoRenderChunkJob } from '../../../lib/queue/jobs/video-render-chunk';
import { videoRenderJob } from '../../../lib/queue/jobs/video-render';

/**
 * Idempotent: a done video is left alone; only the worker that moves the row from queued to
 * rendering (or a retry of that same job after a crash) renders. Short videos render here,
 * written to a temp file and then put into storage atomically; long ones fan out into chunks,
 * as many as a multiple of the live chunk workers (lib/video/chunks.ts), planned once.
 */
export const videoRenderHandler: JobHandler<typeof videoRenderJob> = {
  contract: videoRenderJob,
  warmUp: bundleOnce,
  unmet: () => chromiumMissing(env().CHROMIUM_PATH),
  async handle({ videoId }, ctx) {
    const video = await findVideo(videoId);
    if (!video) throw new PermanentJobError(`video ${videoId} does not exist`);
    if (video.status === 'done') return { skipped: 'already rendered' };
    const mine = (await startVideoRender(videoId, ctx.now())) || (ctx.attempt > 0 && (await resumeVideoRender(videoId)));
    if (!mine) return { skipped: 'another worker is rendering it' };

    try {
      const props = await freshVideoPropsFor(video.trajectoryId, video.pacing);
      // a retry keeps the plan it made (chunks may be done); a first run splits for the workers that are up
      const planned = await listVideoChunks(videoId);
      const chunks = planned.length > 0 ? planned : planChunks(props.durationInFrames, { workers: await liveChunkWorkers(ctx.now()) });
      if (chunks.length > 1) {
        if (planned.length === 0) await ensureVideoChunks(videoId, chunks);
        for (const chunk of await listVideoChunks(videoId)) {
          if (chunk.status !== 'done') await sendJob(env().DATABASE_URL!, videoRenderChunkJob, { videoId, index: chunk.index });
        }
        ctx.log(`${props.durationInFrames} frames: ${chunks.length} chunks queued`);
        return { chunks: chunks.length };
      }
      const dir = await mkdtemp(path.join(os.tmpdir(), 'witness-render-'));
      try {
        let last = 0;
        const result = await renderTrajectoryVideo({
          props,
          outPath: path.join(dir, 'video.mp4'),
          cancelSignal: ctx.signal,
          onProgress: (p) => {
            if (p.progress - last >= 0.05) {
              last = p.progress;
              void setVideoProgress(videoId, p.progress * 0.95);
            }
          },
        });
        const stored = await openStore().putFile(videoStorageKey(videoId), result.outPath, 'video/mp4');
        await finishVideo(
          videoId,
          {
            storageKey: videoStorageKey(videoId),
            frames: result.frames,
            fps: result.fps,
            durationSec: result.frames / result.fps,
            sizeBytes: stored.size,
          },
          ctx.now(),
        );
        ctx.log(`rendered ${result.frames} frames (${stored.size} bytes)`);
        return { frames: result.frames };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    } catch (error) {
      const message = failureText(error);
      if (error instanceof PermanentJobError || ctx.attempt >= videoRenderJob.retry.limit) await failVideo(videoId, message, ctx.now());
      throw error instanceof PermanentJobError ? error : new Error(message, { cause: error });
    }
  },
};

/** Live workers that take chunk jobs (this one included). */
async function liveChunkWorkers(now: Date): Promise<number> {
  const workers = await liveWorkers(now);
  return Math.max(1, workers.filter((w) => w.queues.includes(videoRenderChunkJob.name)).length);
}
