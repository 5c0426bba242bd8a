/**
 * How a video is split for distributed rendering: videos up to `singleMaxFrames` render in one
 * piece; longer ones in chunks of about `chunkFrames` (never fewer than 5 frames, which seamless
 * concatenation needs), rendered by any workers and then combined.
 *
 * With `workers` live render workers the chunk count is rounded up to a multiple of them, so that
 * they finish together instead of one rendering the last chunk alone (5 chunks on 2 workers take
 * 3 chunk-times, 6 smaller ones take 3 smaller ones), unless that would make chunks shorter than
 * `minChunkFrames` (each chunk pays a fixed start-up cost). Never more than `maxChunks` chunks.
 */
export const CHUNK_FRAMES = 300;
export const SINGLE_MAX_FRAMES = 450;
export const MIN_CHUNK_FRAMES = 150;
/** A video renders in at most this many chunks: a longer one gets longer chunks (each chunk is a job, a browser start and a file to combine). */
export const MAX_CHUNKS = 32;

export interface ChunkPlanOptions {
  chunkFrames?: number;
  singleMaxFrames?: number;
  workers?: number;
  minChunkFrames?: number;
  maxChunks?: number;
}

export function planChunks(totalFrames: number, options: ChunkPlanOptions = {}): { fromFrame: number; toFrame: number }[] {
  const {
    chunkFrames = CHUNK_FRAMES,
    singleMaxFrames = SINGLE_MAX_FRAMES,
    workers = 1,
    minChunkFrames = MIN_CHUNK_FRAMES,
    maxChunks = MAX_CHUNKS,
  } = options;
  if (totalFrames <= 0) throw new Error('a video needs at least one frame');
  if (totalFrames <= singleMaxFrames) return [{ fromFrame: 0, toFrame: totalFrames - 1 }];
  let count = Math.ceil(totalFrames / chunkFrames);
  const even = Math.ceil(count / Math.max(1, workers)) * Math.max(1, workers);
  if (totalFrames / even >= minChunkFrames) count = even;
  count = Math.min(count, maxChunks);
  const size = Math.ceil(totalFrames / count);
  const chunks = [];
  for (let from = 0; from < totalFrames; from += size) chunks.push({ fromFrame: from, toFrame: Math.min(totalFrames, from + size) - 1 });
  // fold a tiny tail into the previous chunk
  const last = chunks[chunks.length - 1]!;
  if (chunks.length > 1 && last.toFrame - last.fromFrame + 1 < 5) {
    chunks.pop();
    chunks[chunks.length - 1]!.toFrame = last.toFrame;
  }
  return chunks;
}
