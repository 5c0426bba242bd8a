import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { env } from '../env';
import { AppError } from '../errors';
import { sendJob } from '../queue/boss';
import { videoCombineJob } from '../queue/jobs/video-combine';
import { videoRenderChunkJob } from '../queue/jobs/video-render-chunk';
import { openStore } from '../storage/open-store';
import { failChunk, failVideo, findVideo, finishChunk, listVideoChunks, setChunkProgress, startChunkRender } from './queries/videos';
import { readVideo } from './read-video';
import { chunkStorageKey, failureText } from './video-files';
import type { RenderTrajectoryVideo, VideoJobRun } from './video-job-run';
import { videoPropsFor } from './video-props-for';

/**
 * Renders one chunk of a long video (the video.render-chunk job; MPEG-TS h264, so chunks
 * concatenate seamlessly); the last one queues the combine. NOT_FOUND when the video or the
 * chunk is gone; any other failure is thrown with its readable text, and the last attempt
 * records it on the chunk and the video.
 */
export async function renderVideoChunk(
  videoId: string,
  index: number,
  run: VideoJobRun,
  renderTrajectoryVideo: RenderTrajectoryVideo,
): Promise<Record<string, unknown>> {
  const video = await readVideo(videoId, `video ${videoId} does not exist`);
  if (video.status === 'done') return { skipped: 'video already rendered' };
  const chunk = (await listVideoChunks(videoId)).find((c) => c.index === index);
  if (!chunk) throw new AppError('NOT_FOUND', `video ${videoId} has no chunk ${index}`);
  if (chunk.status === 'done') return { skipped: 'chunk already rendered' };
  const mine = (await startChunkRender(videoId, index, run.now())) || run.attempt > 0;
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
      cancelSignal: run.signal,
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
    if (run.attempt >= videoRenderChunkJob.retry.limit) {
      await failChunk(videoId, index, message);
      await failVideo(videoId, `chunk ${index}: ${message}`, run.now());
    }
    throw new Error(message, { cause: error });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
