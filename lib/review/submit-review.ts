import { z } from 'zod';
import { parseCriteria } from '../formats/criteria';
import { parseInput } from '../parse-input';
import { coverageRefusal, coverageReport, measureCoverage } from './coverage';
import { evidenceList } from './evidence';
import { goldScore } from './gold';
import { answersSchema, rubricDefinition } from './rubric';
import { AppError } from '../errors';
import { submitLabel, type LabelSpec, type Measure, type SubmitResult } from './submit-label';

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
  row(input, target, [video = 0]) {
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
    const coverage = measureCoverage(input.coverage, video, item.campaign.coverageBasis);
    const refusal = coverageRefusal(coverage, item.campaign.minCoverage);
    if (refusal !== null) throw new AppError('BAD_INPUT', refusal);
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
 * campaign is not open, the answers do not fit the rubric, or the coverage (recomputed here on
 * the campaign's basis from the played ranges and the transcript steps read, over `video`: the
 * video's length, chapters and steps; a bare frame count measures the video alone) is below the
 * campaign's minimum. The stored coverage keeps its parts. A revision keeps every earlier one
 * (isCurrent=false). `video` is looked up unless given (seeds and tests that know it).
 */
export function submitReview(reviewerId: string, raw: SubmitReviewInput, now: Date): Promise<SubmitResult>;
export function submitReview(reviewerId: string, raw: SubmitReviewInput, video: Measure, now: Date): Promise<SubmitResult>;
export function submitReview(reviewerId: string, raw: SubmitReviewInput, videoOrNow: Measure | Date, now?: Date): Promise<SubmitResult> {
  const input = parseInput(submitReviewInput, raw, '');
  return videoOrNow instanceof Date
    ? submitLabel(review, reviewerId, input, undefined, videoOrNow)
    : submitLabel(review, reviewerId, input, [videoOrNow], now!);
}
