import { z } from 'zod';
import { parseCriteria } from '../formats/criteria';
import { parseInput } from '../parse-input';
import { coverageReport, mergeRanges } from './coverage';
import { evidenceList } from './evidence';
import { goldScore } from './gold';
import { answersSchema, rubricDefinition } from './rubric';
import { requireCoverage, submitLabel, type LabelSpec, type SubmitResult } from './submit-label';

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

const review: LabelSpec<z.infer<typeof submitReviewInput>> = {
  kind: 'review',
  mode: 'single',
  wrongMode: 'This is a pairwise campaign: submit a comparison',
  row(input, target, [totalFrames = 0]) {
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
    const share = requireCoverage(input.coverage.ranges, totalFrames, item.campaign.minCoverage, 'the video');
    const coverage = {
      ranges: mergeRanges(input.coverage.ranges, totalFrames),
      share,
      totalFrames,
      speeds: input.coverage.speeds,
      seeks: input.coverage.seeks,
    };
    const gold = item.isGold && item.goldAnswers ? goldScore(item.goldAnswers as Record<string, unknown>, answers) : null;
    return {
      kind: 'review',
      data: {
        rubricVersionId: item.campaign.rubricVersionId,
        answers,
        evidence: input.evidence,
        coverage,
        durationSec: input.durationSec,
        goldScore: gold,
      },
    };
  },
};

/**
 * Submits (or revises) a review (the skeleton: lib/review/submit-label.ts). Refused when the
 * campaign is not open, the answers do not fit the rubric, or the watch coverage (recomputed
 * here from the played ranges over the video's length in frames) is below the campaign's
 * minimum. A revision keeps every earlier one (isCurrent=false). `totalFrames` is looked up
 * unless given (seeds and tests that know the length).
 */
export function submitReview(reviewerId: string, raw: SubmitReviewInput, now: Date): Promise<SubmitResult>;
export function submitReview(reviewerId: string, raw: SubmitReviewInput, totalFrames: number, now: Date): Promise<SubmitResult>;
export function submitReview(reviewerId: string, raw: SubmitReviewInput, framesOrNow: number | Date, now?: Date): Promise<SubmitResult> {
  const input = parseInput(submitReviewInput, raw, '');
  return typeof framesOrNow === 'number'
    ? submitLabel(review, reviewerId, input, [framesOrNow], now!)
    : submitLabel(review, reviewerId, input, undefined, framesOrNow);
}
