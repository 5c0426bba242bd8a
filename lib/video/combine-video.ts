import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { videoCombineJob } from '../queue/jobs/video-combine';
import { openStore } from '../storage/open-store';
import { failVideo, finishVideo, listVideoChunks } from './queries/videos';
import { VIDEO_FPS } from './schema';
import { readVideo } from './read-video';
import { failureText, videoStorageKey } from './video-files';
import type { CombineVideoChunks, VideoJobRun } from './video-job-run';

/**
 * Joins a long video's chunks (the video.combine job): downloads them, joins them (no
 * re-encode), stores the MP4, marks the video done and deletes the chunks. NOT_FOUND when the
 * video is gone; the last attempt records a failure on the video.
 */
export async function combineVideo(
  videoId: string,
  run: VideoJobRun,
  combineVideoChunks: CombineVideoChunks,
): Promise<Record<string, unknown>> {
  const video = await readVideo(videoId, `video ${videoId} does not exist`);
  if (video.status === 'done') return { skipped: 'already combined' };
  const chunks = await listVideoChunks(videoId);
  if (chunks.length === 0 || chunks.some((c) => c.status !== 'done' || !c.storageKey)) return { skipped: 'chunks still rendering' };
  const store = openStore();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'witness-combine-'));
  try {
    const files: string[] = [];
    for (const chunk of chunks) {
      const file = path.join(dir, path.basename(chunk.storageKey!));
      await pipeline(Readable.fromWeb((await store.read(chunk.storageKey!)) as WebReadableStream<Uint8Array>), createWriteStream(file));
      files.push(file);
    }
    const frames = chunks.at(-1)!.toFrame + 1;
    const out = path.join(dir, 'video.mp4');
    await combineVideoChunks({
      files,
      outPath: out,
      fps: VIDEO_FPS,
      framesPerChunk: chunks[0]!.toFrame - chunks[0]!.fromFrame + 1,
      totalFrames: frames,
    });
    const stored = await store.putFile(videoStorageKey(videoId), out, 'video/mp4');
    await finishVideo(
      videoId,
      { storageKey: videoStorageKey(videoId), frames, fps: VIDEO_FPS, durationSec: frames / VIDEO_FPS, sizeBytes: stored.size },
      run.now(),
    );
    for (const chunk of chunks) await store.delete(chunk.storageKey!).catch(() => {});
    run.log(`combined ${chunks.length} chunks into ${frames} frames`);
    return { frames, chunks: chunks.length };
  } catch (error) {
    if (run.attempt >= videoCombineJob.retry.limit) await failVideo(videoId, `combine: ${failureText(error)}`, run.now());
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
