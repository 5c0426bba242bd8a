/**
 * A video's length in frames depends only on the trajectory's steps and recording (stored once,
 * never edited), not on criteria, labels or blind settings. Whoever derives a trajectory's video
 * props remembers the length here, so a submit (which measures watch coverage against it) need
 * not derive the whole video again. Bounded; per process.
 */
const framesCache = new Map<string, number>();
const FRAMES_CACHE_MAX = 5000;

export function rememberFrames(trajectoryId: string, frames: number): void {
  if (framesCache.size >= FRAMES_CACHE_MAX && !framesCache.has(trajectoryId)) framesCache.delete(framesCache.keys().next().value!);
  framesCache.set(trajectoryId, frames);
}

export function knownFrames(trajectoryId: string): number | undefined {
  return framesCache.get(trajectoryId);
}
