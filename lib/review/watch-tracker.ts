import { coverageShare, mergeRanges, type CoverageReport } from './coverage';

/**
 * Collects what a reviewer played of one video (from the player's callbacks): frame ranges,
 * the speeds used and how often they jumped. Ranges are merged as they come so the report
 * stays small however long the session. Pure: the page owns one per video.
 */
export class WatchTracker {
  private ranges: [number, number][] = [];
  private speeds = new Set<number>();
  private seekCount = 0;

  /** `earned`: ranges played before (kept by the server across a reload) */
  constructor(
    readonly totalFrames: number,
    earned: readonly [number, number][] = [],
  ) {
    this.ranges = mergeRanges([...earned], totalFrames);
  }

  /** a stretch played at `rate`: frames [from, to) */
  played(from: number, to: number, rate: number): void {
    if (!(to > from)) return;
    this.ranges = mergeRanges([...this.ranges, [Math.floor(from), Math.ceil(to)]], this.totalFrames);
    if (rate > 0 && rate <= 16) this.speeds.add(rate);
  }

  seeked(): void {
    this.seekCount++;
  }

  /** 0..1 of the video played */
  share(): number {
    return coverageShare(this.ranges, this.totalFrames);
  }

  /** what the submit sends (the server recomputes the share from the ranges) */
  report(): CoverageReport {
    return {
      ranges: this.ranges.map(([a, b]) => [a, b] as [number, number]),
      speeds: [...this.speeds].slice(0, 100),
      seeks: this.seekCount,
      transcriptSteps: [],
    };
  }
}

/** What the submit button says: null when enough is watched, else how much more (whole percent, rounded up). */
export function coverageShortfall(share: number, minCoverage: number): number | null {
  if (share + 1e-9 >= minCoverage) return null;
  return Math.max(1, Math.ceil((minCoverage - share) * 100 - 1e-9));
}
