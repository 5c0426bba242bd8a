import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { failVideo, findVideo, finishVideo, listVideoChunks } from '../../../lib/video/queries/videos';
import { openStore } from '../../../lib/storage/open-store';
import { VIDEO_FPS } from '../../../lib/video/schema';
import { combineVideoChunks } from '../../../render/server/render-video';
import { PermanentJobError, type JobHandler } from '../../job-handler';
import { failureText, videoStorageKey } from '../../../lib/video/video-files';
import { videoCombineJob } from '../../../lib/queue/jobs/video-combine';

/** Downloads the chunks, joins them (no re-encode), stores the MP4, marks the video done. */
export const videoCombineHandler: JobHandler<typeof videoCombineJob> = {
  contract: videoCombineJob,
  async handle({ videoId }, ctx) {
    const video = await findVideo(videoId);
    if (!video) throw new PermanentJobError(`video ${videoId} does not exist`);
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
        ctx.now(),
      );
      for (const chunk of chunks) await store.delete(chunk.storageKey!).catch(() => {});
      ctx.log(`combined ${chunks.length} chunks into ${frames} frames`);
      return { frames, chunks: chunks.length };
    } catch (error) {
      if (ctx.attempt >= videoCombineJob.retry.limit) await failVideo(videoId, `combine: ${failureText(error)}`, ctx.now());
      throw error;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
