import { z } from 'zod';

/**
 * Watch coverage: which parts of a video a reviewer played, and which steps of its transcript
 * they read. The client reports played frame ranges, speeds, seeks and the steps read; the
 * server recomputes the share itself (never trusting a client-sent share) on the campaign's
 * basis and refuses submit below the campaign's minimum.
 */
export const coverageReport = z.object({
  /** [fromFrame, toFrame) ranges actually played */
  ranges: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])).max(10_000),
  /** playback rates used */
  speeds: z.array(z.number().positive().max(16)).max(100).default([]),
  seeks: z.number().int().nonnegative().default(0),
  /** steps read in the transcript (in view long enough to read, see transcript-reading.ts) */
  transcriptSteps: z.array(z.number().int().nonnegative()).max(100_000).default([]),
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

/** A campaign's reading speed: words a minute a transcript step's prose is counted at (lib/review/transcript-reading.ts). */
export const readingWpmSchema = z
  .number()
  .int()
  .min(60, 'a reading speed of at least 60 words a minute')
  .max(1000, 'a reading speed of at most 1,000 words a minute');
/** What a review submitted faster than reading what it reports takes gets (lib/review/attention.ts): flagged for the lead, or refused. */
export const tooFastSchema = z.enum(['flag', 'refuse']);

/** What meets a campaign's minimum coverage: the video played, the transcript read, or either (their union). */
export const coverageBases = ['video', 'transcript', 'either'] as const;
export const coverageBasisSchema = z.enum(coverageBases);
export type CoverageBasis = z.infer<typeof coverageBasisSchema>;

/** What a video's coverage is measured against: its length and where each step shows (chapters). */
export interface CoverageMeasure {
  totalFrames: number;
  /** step -> [fromFrame, toFrame) */
  chapters: ReadonlyArray<{ step: number; fromFrame: number; toFrame: number }>;
  /** every step index of the trajectory (what transcript reading is measured against) */
  steps: readonly number[];
  /** each step's reading load [words of prose, seconds of maths, code and output] (lib/review/transcript-reading.ts), in `steps` order; absent on measures stored before it */
  reading?: ReadonlyArray<readonly [number, number]>;
}

/** A bare frame count (video basis only) as a measure. */
export function measureOf(m: number | CoverageMeasure): CoverageMeasure {
  return typeof m === 'number' ? { totalFrames: m, chapters: [], steps: [] } : m;
}

/** Coverage as stored with a review: the share that met the basis, and its parts. */
export type StoredCoverage = {
  basis: CoverageBasis;
  /** the share the campaign's minimum was checked against */
  share: number;
  ranges: [number, number][];
  totalFrames: number;
  /** share of the frames played */
  videoShare: number;
  /** steps read in the transcript (sorted, each a step of the trajectory) */
  transcriptSteps: number[];
  totalSteps: number;
  /** share of the steps read */
  transcriptShare: number;
  speeds: number[];
  seeks: number;
  /** the clock check of the submit (lib/review/attention.ts); absent on reviews from before it */
  attention?: { elapsedSeconds: number; minimumSeconds: number; tooFast: boolean };
};

/**
 * Recomputes coverage on the server from what the client reports (never a client-sent share):
 * video = frames played; transcript = steps read; either = the larger of the steps read and
 * the frames played or shown by a step that was read (reading a step covers its moment).
 */
export function measureCoverage(report: CoverageReport, measure: number | CoverageMeasure, basis: CoverageBasis): StoredCoverage {
  const m = measureOf(measure);
  const ranges = mergeRanges(report.ranges, m.totalFrames);
  const known = new Set(m.steps);
  const read = [...new Set(report.transcriptSteps)].filter((s) => known.has(s)).sort((a, b) => a - b);
  const videoShare = coverageShare(ranges, m.totalFrames);
  const transcriptShare = m.steps.length === 0 ? 0 : read.length / m.steps.length;
  let share = videoShare;
  if (basis === 'transcript') share = transcriptShare;
  else if (basis === 'either') {
    const readSet = new Set(read);
    const shown = m.chapters.filter((c) => readSet.has(c.step)).map((c) => [c.fromFrame, c.toFrame] as [number, number]);
    share = Math.max(transcriptShare, coverageShare([...ranges, ...shown], m.totalFrames));
  }
  return {
    basis,
    share,
    ranges,
    totalFrames: m.totalFrames,
    videoShare,
    transcriptSteps: read,
    totalSteps: m.steps.length,
    transcriptShare,
    speeds: report.speeds,
    seeks: report.seeks,
  };
}

/** The refusal for coverage below the minimum, in the basis's words; null when it is met. */
export function coverageRefusal(c: StoredCoverage, minCoverage: number, what = 'the video'): string | null {
  if (c.share + 1e-9 >= minCoverage) return null;
  const need = `${Math.round(minCoverage * 100)}%`;
  const sofar = `so far ${Math.floor(c.share * 100)}%`;
  if (c.basis === 'transcript') return `Read at least ${need} of the steps of ${what}'s transcript before submitting (${sofar})`;
  if (c.basis === 'either') return `Watch or read at least ${need} of ${what} before submitting (${sofar})`;
  return `Watch at least ${need} of ${what} before submitting (${sofar})`;
}

/** How a stored review was covered, for the lead (one run, or a comparison's two): what it watched and read, and the clock check. */
export interface CoverageSummary {
  /** share of the video(s) played (a comparison: the mean of the two) */
  watched: number | null;
  read: { steps: number; of: number } | null;
  elapsedSeconds: number | null;
  minimumSeconds: number | null;
  tooFast: boolean;
}

function runParts(c: unknown): { videoShare: number; read: number; of: number } | null {
  if (typeof c !== 'object' || c === null) return null;
  const r = c as Partial<StoredCoverage>;
  if (typeof r.videoShare !== 'number') return null;
  return { videoShare: r.videoShare, read: r.transcriptSteps?.length ?? 0, of: r.totalSteps ?? 0 };
}

/** Reads a stored coverage (a review's StoredCoverage, or a comparison's {a, b, attention}); anything malformed reads as unknown. */
export function coverageSummary(stored: unknown): CoverageSummary {
  const obj = (typeof stored === 'object' && stored !== null ? stored : {}) as Record<string, unknown>;
  const runs = 'a' in obj || 'b' in obj ? [runParts(obj.a), runParts(obj.b)] : [runParts(obj)];
  const known = runs.filter((r): r is NonNullable<typeof r> => r !== null);
  const attention = obj.attention as { elapsedSeconds?: unknown; minimumSeconds?: unknown; tooFast?: unknown } | undefined;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return {
    watched: known.length === 0 ? null : known.reduce((n, r) => n + r.videoShare, 0) / known.length,
    read: known.length === 0 ? null : { steps: known.reduce((n, r) => n + r.read, 0), of: known.reduce((n, r) => n + r.of, 0) },
    elapsedSeconds: num(attention?.elapsedSeconds),
    minimumSeconds: num(attention?.minimumSeconds),
    tooFast: attention?.tooFast === true,
  };
}
