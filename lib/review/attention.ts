import { z } from 'zod';
import { coverageReport, mergeRanges, type CoverageMeasure, type CoverageReport, type StoredCoverage } from './coverage';
import { readingSecondsOf } from './transcript-reading';

/**
 * What the server can check of a reviewer's attention (issue 43 §1), against the clock:
 *
 * - Progress (the coverage the page saves every few seconds, kept per assignment so a reload or a
 *   crash costs nothing) is admitted only as far as the clock allows: reading the newly read steps
 *   (one after another, at the campaign's reading speed) and playing the newly played frames (at
 *   most 2x) must fit in the seconds not yet charged to earlier saves, with a few seconds of slack.
 *   In all, what is kept never takes longer than the time since the claim (plus the slack).
 * - A submit is measured against the time since the claim: reading what the review reports read
 *   and watching what it reports watched takes at least `minimumSeconds`; a human review submitted
 *   faster is flagged for the lead (the campaign's `tooFast`: "flag", the default) or refused ("refuse").
 *
 * Pure: the clock comes in as seconds.
 */

/** the fastest playback rate the player offers */
export const MAX_PLAYBACK_RATE = 2;
/** seconds of slack on every clock check (a save in flight, a tick that straddled it) */
const SLACK_SECONDS = 5;
/** a submit is too fast below this share of the minimum (clocks and rounding; an honest page never comes near) */
const TOO_FAST_SHARE = 0.9;

/** A run's coverage as the server keeps it between saves. */
export const earnedRun = z.object({
  ranges: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])).default([]),
  transcriptSteps: z.array(z.number().int().nonnegative()).default([]),
  speeds: z.array(z.number()).default([]),
  seeks: z.number().int().nonnegative().default(0),
  /** ISO time of the save that admitted it */
  savedAt: z.string().nullable().default(null),
});
export type EarnedRun = z.infer<typeof earnedRun>;

/** assignment.progress: trajectory id -> its earned run (anything malformed reads as nothing earned) */
export function earnedOf(progress: unknown, trajectoryId: string): EarnedRun | null {
  if (typeof progress !== 'object' || progress === null) return null;
  const found = earnedRun.safeParse((progress as Record<string, unknown>)[trajectoryId]);
  return found.success ? found.data : null;
}

/** Seconds of reading the given steps take (measure.reading at `wpm`; a step without a known load takes the floor). */
export function readingSecondsFor(steps: readonly number[], measure: CoverageMeasure, wpm: number): number {
  const seconds = stepSeconds(measure, wpm);
  return steps.reduce((total, s) => total + seconds(s), 0);
}

/** Each step's reading seconds at `wpm` (0 for a step the trajectory does not have); the index is built once. */
function stepSeconds(measure: CoverageMeasure, wpm: number): (step: number) => number {
  const index = new Map(measure.steps.map((s, i) => [s, i]));
  return (step) => {
    const i = index.get(step);
    if (i === undefined) return 0;
    const load = measure.reading?.[i];
    return readingSecondsOf(load ? { words: load[0], fixedSeconds: load[1] } : { words: 0, fixedSeconds: 0 }, wpm);
  };
}

function framesIn(ranges: readonly [number, number][]): number {
  return ranges.reduce((n, [a, b]) => n + (b - a), 0);
}

/**
 * A save of progress: what `next` adds to `prev` that fits in `elapsedSeconds` (steps in
 * transcript order, while their reading fits; the new frames only if playing them fits).
 * Answers the run to keep and what was dropped.
 */
export function admitProgress(
  prev: EarnedRun | null,
  next: CoverageReport,
  measure: CoverageMeasure,
  options: { wpm: number; fps: number; elapsedSeconds: number; now: string },
): { run: EarnedRun; droppedSteps: number; droppedFrames: number } {
  const before = prev ?? earnedRun.parse({});
  const budget = Math.max(0, options.elapsedSeconds) + SLACK_SECONDS;
  const known = new Set(measure.steps);
  const had = new Set(before.transcriptSteps);
  const fresh = [...new Set(next.transcriptSteps)].filter((s) => known.has(s) && !had.has(s)).sort((a, b) => a - b);
  const steps = [...before.transcriptSteps];
  let spent = 0;
  let droppedSteps = 0;
  const seconds = stepSeconds(measure, options.wpm);
  for (const s of fresh) {
    const need = seconds(s);
    if (spent + need <= budget) {
      spent += need;
      steps.push(s);
    } else droppedSteps++;
  }
  const oldRanges = mergeRanges(before.ranges, measure.totalFrames);
  const merged = mergeRanges([...oldRanges, ...next.ranges], measure.totalFrames);
  const added = framesIn(merged) - framesIn(oldRanges);
  const allowance = budget * options.fps * MAX_PLAYBACK_RATE;
  const ranges = added <= allowance ? merged : oldRanges;
  // The clock is charged only what this save used (reading and watching run side by side: the
  // larger of the two), so time not used yet (a step half read when the save left) stays for the
  // next save instead of being forfeited; the slack is never banked (savedAt is never after now).
  const elapsed = Math.max(0, options.elapsedSeconds);
  const charged = Math.max(spent, (added <= allowance ? added : 0) / (options.fps * MAX_PLAYBACK_RATE));
  const savedAt = new Date(Date.parse(options.now) - Math.max(0, elapsed - charged) * 1000).toISOString();
  return {
    run: {
      ranges,
      transcriptSteps: steps.sort((a, b) => a - b),
      speeds: [...new Set([...before.speeds, ...next.speeds])].slice(0, 100),
      seeks: Math.max(before.seeks, next.seeks),
      savedAt,
    },
    droppedSteps,
    droppedFrames: added <= allowance ? 0 : added,
  };
}

/** A submit's report with what the server kept for the run (a reload's earlier coverage counts). */
export function withEarned(report: CoverageReport, earned: EarnedRun | null): CoverageReport {
  if (!earned) return report;
  return coverageReport.parse({
    ranges: [...earned.ranges, ...report.ranges],
    speeds: [...new Set([...earned.speeds, ...report.speeds])].slice(0, 100),
    seeks: Math.max(earned.seeks, report.seeks),
    transcriptSteps: [...new Set([...earned.transcriptSteps, ...report.transcriptSteps])],
  });
}

/** The least time a review's coverage takes: reading its steps one after another, or playing its frames at 2x (whichever is longer: they may overlap). */
export function minimumSeconds(coverage: StoredCoverage, measure: CoverageMeasure, wpm: number, fps: number): number {
  const reading = readingSecondsFor(coverage.transcriptSteps, measure, wpm);
  const watching = framesIn(coverage.ranges) / fps / MAX_PLAYBACK_RATE;
  return Math.max(reading, watching);
}

export const attentionSchema = z.object({
  /** seconds from the claim to the submit */
  elapsedSeconds: z.number(),
  /** the least time what the review reports takes */
  minimumSeconds: z.number(),
  /** submitted faster than that */
  tooFast: z.boolean(),
});
export type Attention = z.infer<typeof attentionSchema>;

/** The attention check of a submit over its runs (a comparison: both transcripts read, the longer video watched). */
export function attentionOf(
  runs: { coverage: StoredCoverage; measure: CoverageMeasure }[],
  wpm: number,
  fps: number,
  elapsedSeconds: number,
): Attention {
  let reading = 0;
  let watching = 0;
  for (const r of runs) {
    reading += readingSecondsFor(r.coverage.transcriptSteps, r.measure, wpm);
    watching = Math.max(watching, framesIn(r.coverage.ranges) / fps / MAX_PLAYBACK_RATE);
  }
  const minimum = Math.max(reading, watching);
  const elapsed = Math.max(0, elapsedSeconds);
  return {
    elapsedSeconds: Math.round(elapsed * 10) / 10,
    minimumSeconds: Math.round(minimum * 10) / 10,
    tooFast: elapsed + 1e-9 < minimum * TOO_FAST_SHARE,
  };
}

/** The refusal a campaign that refuses too-fast reviews gives. */
export function tooFastRefusal(a: Attention): string {
  return `Submitted ${formatSeconds(a.elapsedSeconds)} after the claim, but reading and watching what this review reports takes at least ${formatSeconds(a.minimumSeconds)}: this campaign refuses reviews faster than that. Read or watch it, then submit.`;
}

/** Seconds as a person reads them: "41 s", "2 min 5 s" (rounded first: never "1 min 60 s"). */
export function formatSeconds(seconds: number): string {
  const r = Math.round(seconds);
  return r < 90 ? `${r} s` : `${Math.floor(r / 60)} min ${r % 60} s`;
}
