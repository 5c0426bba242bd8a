import { z } from 'zod';

/**
 * Watch coverage: which parts of a video a reviewer played. The client reports played frame
 * ranges, speeds and seeks; the server recomputes the share itself from the ranges (never
 * trusting a client-sent share) and refuses submit below the campaign's minimum.
 */
export const coverageReport = z.object({
  /** [fromFrame, toFrame) ranges actually played */
  ranges: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])).max(10_000),
  /** playback rates used */
  speeds: z.array(z.number().positive().max(16)).max(100).default([]),
  seeks: z.number().int().nonnegative().default(0),
});
export type CoverageReport = z.infer<typeof coverageReport>;

/** Sorted, merged, clipped to [0, totalFrames). */
export function mergeRanges(ranges: [number, number][], totalFrames: number): [number, number][] {
  const clipped = ranges
    .map(([a, b]) => [Math.max(0, Math.min(a, b)), Math.min(totalFrames, Math.max(a, b))] as [number, number])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [a, b] of clipped) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** Share (0..1) of the video's frames covered by the played ranges. */
export function coverageShare(ranges: [number, number][], totalFrames: number): number {
  if (totalFrames <= 0) return 1;
  return mergeRanges(ranges, totalFrames).reduce((n, [a, b]) => n + (b - a), 0) / totalFrames;
}
