import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { liveWorkers } from '../db/worker-heartbeats';
import { env } from '../env';
import { sendJob } from '../queue/boss';
import { videoRenderJob } from '../queue/jobs/video-render';
import { videoRenderChunkJob } from '../queue/jobs/video-render-chunk';
import { openStore } from '../storage/open-store';
import { planChunks } from './chunks';
import {
  ensureVideoChunks,
  failVideo,
  finishVideo,
  listVideoChunks,
  resumeVideoRender,
  setVideoProgress,
  startVideoRender,
} from './queries/videos';
import { readVideo } from './read-video';
import { failureText, videoStorageKey } from './video-files';
import type { RenderTrajectoryVideo, VideoJobRun } from './video-job-run';
import { freshVideoPropsFor } from './video-props-for';

/**
 * Renders a video (the video.render job). Idempotent: a done video is left alone; only the run
 * that moves the row from queued to rendering (or a retry of that same job after a crash)
 * renders. Short videos render here, written to a temp file and then put into storage
 * atomically; long ones fan out into chunks, as many as a multiple of the live chunk workers
 * (lib/video/chunks.ts), planned once. NOT_FOUND when the video is gone (retrying cannot fix
 * it); any other failure is thrown with its readable text, and the last attempt records it on
 * the video.
 */
export async function renderVideo(
  videoId: string,
  run: VideoJobRun,
  renderTrajectoryVideo: RenderTrajectoryVideo,
): Promise<Record<string, unknown>> {
  const video = await readVideo(videoId, `video ${videoId} does not exist`);
  if (video.status === 'done') return { skipped: 'already rendered' };
  const mine = (await startVideoRender(videoId, run.now())) || (run.attempt > 0 && (await resumeVideoRender(videoId)));
  if (!mine) return { skipped: 'another worker is rendering it' };

  try {
    const props = await freshVideoPropsFor(video.trajectoryId, video.pacing);
    // a retry keeps the plan it made (chunks may be done); a first run splits for the workers that are up
    const planned = await listVideoChunks(videoId);
    const chunks = planned.length > 0 ? planned : planChunks(props.durationInFrames, { workers: await liveChunkWorkers(run.now()) });
    if (chunks.length > 1) {
      if (planned.length === 0) await ensureVideoChunks(videoId, chunks);
      for (const chunk of await listVideoChunks(videoId)) {
        if (chunk.status !== 'done') await sendJob(env().DATABASE_URL!, videoRenderChunkJob, { videoId, index: chunk.index });
      }
      run.log(`${props.durationInFrames} frames: ${chunks.length} chunks queued`);
      return { chunks: chunks.length };
    }
    const dir = await mkdtemp(path.join(os.tmpdir(), 'witness-render-'));
    try {
      let last = 0;
      const result = await renderTrajectoryVideo({
        props,
        outPath: path.join(dir, 'video.mp4'),
        cancelSignal: run.signal,
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
        run.now(),
      );
      run.log(`rendered ${result.frames} frames (${stored.size} bytes)`);
      return { frames: result.frames };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  } catch (error) {
    const message = failureText(error);
    if (run.attempt >= videoRenderJob.retry.limit) await failVideo(videoId, message, run.now());
    throw new Error(message, { cause: error });
  }
}

/** Live workers that take chunk jobs (this one included). */
async function liveChunkWorkers(now: Date): Promise<number> {
  const workers = await liveWorkers(now);
  return Math.max(1, workers.filter((w) => w.queues.includes(videoRenderChunkJob.name)).length);
}
