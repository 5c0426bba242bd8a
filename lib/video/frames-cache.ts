import type { Pacing } from './pacing';

/**
 * A video's length in frames depends only on the trajectory's steps and recording (stored once,
 * never edited) and the pacing, not on criteria, labels or blind settings. Whoever derives a
 * trajectory's video props remembers the length here, so a submit (which measures watch
 * coverage against it) need not derive the whole video again. Bounded; per process.
 */
const framesCache = new Map<string, number>();
const FRAMES_CACHE_MAX = 5000;

const keyOf = (trajectoryId: string, pacing: Pacing) => `${pacing}:${trajectoryId}`;

export function rememberFrames(trajectoryId: string, pacing: Pacing, frames: number): void {
  const key = keyOf(trajectoryId, pacing);
  if (framesCache.size >= FRAMES_CACHE_MAX && !framesCache.has(key)) framesCache.delete(framesCache.keys().next().value!);
  framesCache.set(key, frames);
}

export function knownFrames(trajectoryId: string, pacing: Pacing): number | undefined {
  return framesCache.get(keyOf(trajectoryId, pacing));
}
