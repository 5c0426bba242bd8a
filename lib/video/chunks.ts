/**
 * How a video is split for distributed rendering: videos up to `singleMaxFrames` render in one
 * piece; longer ones in chunks of about `chunkFrames` (never fewer than 5 frames, which seamless
 * concatenation needs), rendered by any workers and then combined.
 */
export const CHUNK_FRAMES = 300;
export const SINGLE_MAX_FRAMES = 450;

export function planChunks(totalFrames: number, chunkFrames = CHUNK_FRAMES, singleMaxFrames = SINGLE_MAX_FRAMES): { fromFrame: number; toFrame: number }[] {
  if (totalFrames <= 0) throw new Error('a video needs at least one frame');
  if (totalFrames <= singleMaxFrames) return [{ fromFrame: 0, toFrame: totalFrames - 1 }];
  const count = Math.ceil(totalFrames / chunkFrames);
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
