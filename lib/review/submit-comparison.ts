import { z } from 'zod';
import { parseCriteria } from '../formats/criteria';
import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { attentionOf, earnedOf, tooFastRefusal, withEarned } from './attention';
import { coverageRefusal, coverageReport, measureCoverage, measureOf } from './coverage';
import { VIDEO_FPS } from '../video/schema';
import { checkEvidence, evidenceList } from './evidence';
import type { ComparisonColumns, SubmitRow, SubmitTarget } from './queries/label-submits';
import { screenOrder, submitLabel, type Measure, type Submitter, type SubmitResult } from './submit-steps';

const verdicts = z.record(z.string(), z.enum(['pass', 'fail']));

/** What the compare page sends: everything in SCREEN terms (left/right); the server un-randomises. */
export const submitComparisonInput = z.object({
  assignmentId: z.string().min(1),
  idempotencyKey: z.string().min(8).max(100),
  /** -2 left much better, -1 left better, 0 equal, 1 right better, 2 right much better */
  preference: z.number().int().min(-2).max(2),
  bothBad: z.boolean().default(false),
  rationale: z.string().trim().min(10, 'explain your preference in a sentence or two (10+ characters)').max(5000),
  criteria: z.object({ left: verdicts, right: verdicts }),
  evidence: evidenceList.default([]),
  coverage: z.object({ left: coverageReport, right: coverageReport }),
});
export type SubmitComparisonInput = z.input<typeof submitComparisonInput>;

/** Maps screen sides to the item's A/B: when `swapSides`, B was shown on the left. */
export function unrandomise(
  input: { preference: number; criteria: { left: Record<string, string>; right: Record<string, string> } },
  swapSides: boolean,
) {
  return swapSides
    ? { preference: -input.preference, criteria: { a: input.criteria.right, b: input.criteria.left } }
    : { preference: input.preference, criteria: { a: input.criteria.left, b: input.criteria.right } };
}

type ComparisonInput = z.infer<typeof submitComparisonInput>;

/**
 * The comparison's own checks, against its target and what the two videos are covered against
 * (screen order): a pass/fail for every criterion of the task on both sides and no other, both
 * runs covered to the campaign's minimum on its basis, evidence notes inside the videos and their
 * steps. Answers the row's columns in the item's A/B terms (un-randomised).
 */
function comparisonColumns(input: ComparisonInput, target: SubmitTarget, [left = 0, right = 0]: Measure[], now: Date): ComparisonColumns {
  const basis = target.item.campaign.coverageBasis;
  // screen order: B on the left when swapSides; what the page saved as it went counts too (lib/review/attention.ts)
  const ids = screenOrder(target);
  const earned = (i: number) => (ids[i] ? earnedOf(target.progress, ids[i]) : null);
  const measured = {
    left: measureCoverage(withEarned(input.coverage.left, earned(0)), left, basis),
    right: measureCoverage(withEarned(input.coverage.right, earned(1)), right, basis),
  };
  const keys = parseCriteria(target.item.trajectory.task.acceptanceCriteria).map((c) => c.key);
  for (const side of ['left', 'right'] as const) {
    const missing = keys.filter((k) => !input.criteria[side][k]);
    if (missing.length) throw new AppError('BAD_INPUT', `criteria.${side}: give a pass/fail for ${missing.join(', ')}`);
    const unknown = Object.keys(input.criteria[side]).filter((k) => !keys.includes(k));
    if (unknown.length) throw new AppError('BAD_INPUT', `criteria.${side}: unknown criteria ${unknown.join(', ')}`);
    const refusal = coverageRefusal(measured[side], target.item.campaign.minCoverage, `the ${side} run`);
    if (refusal !== null) throw new AppError('BAD_INPUT', refusal);
  }
  const { campaign } = target.item;
  const attention = attentionOf(
    [
      { coverage: measured.left, measure: measureOf(left) },
      { coverage: measured.right, measure: measureOf(right) },
    ],
    campaign.readingWpm,
    VIDEO_FPS,
    (now.getTime() - target.claimedAt.getTime()) / 1000,
  );
  if (attention.tooFast && campaign.tooFast === 'refuse') throw new AppError('BAD_INPUT', tooFastRefusal(attention));
  const swap = target.swapSides;
  const steps = { a: target.item.trajectory.steps, b: target.item.trajectoryBSteps ?? 0 };
  checkEvidence(input.evidence, [
    { frames: measureOf(left).totalFrames, steps: swap ? steps.b : steps.a },
    { frames: measureOf(right).totalFrames, steps: swap ? steps.a : steps.b },
  ]);
  const mapped = unrandomise(input, swap);
  const coverage = { ...(swap ? { a: measured.right, b: measured.left } : { a: measured.left, b: measured.right }), attention };
  const evidence = input.evidence.map((e) => (e.side && swap ? { ...e, side: e.side === 'a' ? 'b' : 'a' } : e));
  return {
    preference: mapped.preference,
    bothBad: input.bothBad,
    rationale: input.rationale,
    criteria: { ...mapped.criteria, evidence },
    coverage,
  };
}

/** The row a comparison writes, from its own checks against the two videos' measures (submitLabel takes the other steps, the review's too). */
function comparisonRow(input: ComparisonInput, target: SubmitTarget, measures: Measure[], now: Date): SubmitRow {
  return { kind: 'comparison', data: comparisonColumns(input, target, measures, now) };
}

/** The body of POST /api/v1/assignments/ID/comparisons (the assignment is the path's). */
export const comparisonBody = submitComparisonInput.omit({ assignmentId: true });
const assignmentOf = submitComparisonInput.pick({ assignmentId: true });

/**
 * Submits (or revises) a pairwise comparison (idempotent by key; a later submit is a kept
 * revision). Every criterion of the task needs a verdict on both sides; both runs need the
 * campaign's minimum coverage, on its basis. `frames` (what the two videos are covered against,
 * screen order) are looked up unless given (seeds and tests that know them).
 */
export function submitComparison(submitter: Submitter, raw: SubmitComparisonInput, now: Date): Promise<SubmitResult>;
export function submitComparison(
  submitter: Submitter,
  raw: SubmitComparisonInput,
  frames: { left: Measure; right: Measure },
  now: Date,
): Promise<SubmitResult>;
export function submitComparison(
  submitter: Submitter,
  raw: SubmitComparisonInput,
  framesOrNow: { left: Measure; right: Measure } | Date,
  now?: Date,
): Promise<SubmitResult> {
  const { assignmentId } = parseInput(assignmentOf, raw, '');
  const parse = (r: unknown) => parseInput(submitComparisonInput, r, '');
  return framesOrNow instanceof Date
    ? submitLabel('comparison', comparisonRow, submitter, assignmentId, raw, parse, undefined, framesOrNow)
    : submitLabel('comparison', comparisonRow, submitter, assignmentId, raw, parse, [framesOrNow.left, framesOrNow.right], now!);
}

/**
 * The API's submit (POST /api/v1/assignments/ID/comparisons): `body` is the request's JSON, its
 * shape checked (422 naming `body …`) only once the assignment is known to be the caller's in a
 * project they review in (else 404, whatever the body).
 */
export function submitComparisonBody(submitter: Submitter, assignmentId: string, body: unknown, now: Date): Promise<SubmitResult> {
  const parse = (r: unknown) => ({ ...parseInput(comparisonBody, r, 'body'), assignmentId });
  return submitLabel('comparison', comparisonRow, submitter, assignmentId, body, parse, undefined, now);
}
