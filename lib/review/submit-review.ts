import { z } from 'zod';
import { parseCriteria } from '../formats/criteria';
import { parseInput } from '../parse-input';
import { attentionOf, earnedOf, tooFastRefusal, withEarned } from './attention';
import { coverageRefusal, coverageReport, measureCoverage, measureOf } from './coverage';
import { VIDEO_FPS } from '../video/schema';
import { checkEvidence, evidenceList } from './evidence';
import { goldScore } from './gold';
import { answersSchema, rubricDefinition } from './rubric';
import { AppError } from '../errors';
import type { ReviewColumns, SubmitRow, SubmitTarget } from './queries/label-submits';
import { submitLabel, type Measure, type Submitter, type SubmitResult } from './submit-steps';

export const submitReviewInput = z.object({
  assignmentId: z.string().min(1),
  /** the client's key for this submit (a double-click or a retry sends the same one) */
  idempotencyKey: z.string().min(8).max(100),
  answers: z.record(z.string(), z.unknown()),
  evidence: evidenceList.default([]),
  coverage: coverageReport,
  durationSec: z.number().nonnegative().max(86_400).nullable().default(null),
});
export type SubmitReviewInput = z.input<typeof submitReviewInput>;

type ReviewInput = z.infer<typeof submitReviewInput>;

/**
 * The review's own checks, against its target and `video` (what it is covered against): the
 * answers fit the rubric and the task's criteria, the evidence notes point inside the video and
 * its steps, the coverage (recomputed on the campaign's basis) reaches the campaign's minimum;
 * a gold item's answers are scored. Answers the row's columns.
 */
function reviewColumns(input: ReviewInput, target: SubmitTarget, video: Measure, now: Date): ReviewColumns {
  const { item } = target;
  const rubric = rubricDefinition.parse(item.campaign.rubricVersion.definition);
  const criteria = parseCriteria(item.trajectory.task.acceptanceCriteria);
  const answers = parseInput(
    answersSchema(
      rubric,
      criteria.map((c) => c.key),
    ),
    input.answers,
    '',
  ) as Record<string, unknown>;
  checkEvidence(input.evidence, [{ frames: measureOf(video).totalFrames, steps: item.trajectory.steps }]);
  // what the page saved as it went counts too (a reload costs nothing), then the clock check (lib/review/attention.ts)
  const measured = measureCoverage(
    withEarned(input.coverage, earnedOf(target.progress, item.trajectoryId)),
    video,
    item.campaign.coverageBasis,
  );
  const refusal = coverageRefusal(measured, item.campaign.minCoverage);
  if (refusal !== null) throw new AppError('BAD_INPUT', refusal);
  const attention = attentionOf(
    [{ coverage: measured, measure: measureOf(video) }],
    item.campaign.readingWpm,
    VIDEO_FPS,
    (now.getTime() - target.claimedAt.getTime()) / 1000,
  );
  if (attention.tooFast && item.campaign.tooFast === 'refuse') throw new AppError('BAD_INPUT', tooFastRefusal(attention));
  const coverage = { ...measured, attention };
  const gold = item.isGold && item.goldAnswers ? goldScore(item.goldAnswers as Record<string, unknown>, answers) : null;
  return {
    rubricVersionId: item.campaign.rubricVersionId,
    answers,
    evidence: input.evidence,
    coverage,
    durationSec: input.durationSec,
    goldScore: gold,
  };
}

/** The row a review writes, from its own checks against the one video's measure (submitLabel takes the other steps). */
function reviewRow(input: ReviewInput, target: SubmitTarget, [video = 0]: Measure[], now: Date): SubmitRow {
  return { kind: 'review', data: reviewColumns(input, target, video, now) };
}

/** The body of POST /api/v1/assignments/ID/reviews (the assignment is the path's). */
export const reviewBody = submitReviewInput.omit({ assignmentId: true });
const assignmentOf = submitReviewInput.pick({ assignmentId: true });

/**
 * Submits (or revises) a review. Refused when the campaign is not open, the answers do not fit
 * the rubric, or the coverage (recomputed here on the campaign's basis from the played ranges and
 * the transcript steps read, over `video`: the video's length, chapters and steps; a bare frame
 * count measures the video alone) is below the campaign's minimum. The stored coverage keeps its
 * parts. A revision keeps every earlier one (isCurrent=false). `video` is looked up unless given
 * (seeds and tests that know it).
 */
export function submitReview(submitter: Submitter, raw: SubmitReviewInput, now: Date): Promise<SubmitResult>;
export function submitReview(submitter: Submitter, raw: SubmitReviewInput, video: Measure, now: Date): Promise<SubmitResult>;
export function submitReview(submitter: Submitter, raw: SubmitReviewInput, videoOrNow: Measure | Date, now?: Date): Promise<SubmitResult> {
  const { assignmentId } = parseInput(assignmentOf, raw, '');
  const parse = (r: unknown) => parseInput(submitReviewInput, r, '');
  return videoOrNow instanceof Date
    ? submitLabel('review', reviewRow, submitter, assignmentId, raw, parse, undefined, videoOrNow)
    : submitLabel('review', reviewRow, submitter, assignmentId, raw, parse, [videoOrNow], now!);
}

/**
 * The API's submit (POST /api/v1/assignments/ID/reviews): `body` is the request's JSON, its
 * shape checked (422 naming `body …`) only once the assignment is known to be the caller's in a
 * project they review in (else 404, whatever the body).
 */
export function submitReviewBody(submitter: Submitter, assignmentId: string, body: unknown, now: Date): Promise<SubmitResult> {
  const parse = (r: unknown) => ({ ...parseInput(reviewBody, r, 'body'), assignmentId });
  return submitLabel('review', reviewRow, submitter, assignmentId, body, parse, undefined, now);
}
