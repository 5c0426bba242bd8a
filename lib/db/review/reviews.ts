import type { Prisma } from '@prisma/client';
import { z } from 'zod';
import { criterionSchema } from '../../formats/trajectory';
import { coverageRefusal, coverageReport, measureCoverage, type CoverageMeasure } from '../../review/coverage';
import { evidenceList } from '../../review/evidence';
import { goldScore } from '../../review/gold';
import { answersSchema, rubricDefinition } from '../../review/rubric';
import { AppError } from '../../errors';
import { settleClaim } from './assignments';
import { db } from '../infra/client';
import { prismaRun, refreshTrajectoryInsight } from '../insight/insight-summary';
import { recordSubmitLabelEvent } from './label-events';

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

function issueText(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return `${issue.path.join('.') || 'answers'}: ${issue.message}`;
}

/**
 * Submits (or revises) a review. Idempotent by key: the same key returns the review it made.
 * Refused when the campaign is not open, the answers do not fit the rubric, or the coverage
 * (recomputed here on the campaign's basis from the played ranges and the transcript steps
 * read, over `video`: the video's length, chapters and steps; a bare frame count measures the
 * video alone) is below the campaign's minimum. The stored coverage keeps its parts. A revision keeps every earlier one (isCurrent=false).
 */
export async function submitReview(reviewerId: string, raw: SubmitReviewInput, video: number | CoverageMeasure, now: Date) {
  const parsed = submitReviewInput.safeParse(raw);
  if (!parsed.success) throw new AppError('BAD_INPUT', issueText(parsed.error));
  const input = parsed.data;
  const done = await db().review.findUnique({
    where: { idempotencyKey: input.idempotencyKey },
    select: { id: true, reviewerId: true, revision: true },
  });
  if (done) {
    if (done.reviewerId !== reviewerId) throw new AppError('CONFLICT', 'This submit key was used by someone else');
    return { id: done.id, revision: done.revision, duplicate: true };
  }
  const assignment = await db().assignment.findUnique({
    where: { id: input.assignmentId },
    select: {
      reviewerId: true,
      item: {
        select: {
          id: true,
          isGold: true,
          goldAnswers: true,
          campaign: {
            select: {
              status: true,
              overlap: true,
              minCoverage: true,
              coverageBasis: true,
              mode: true,
              rubricVersionId: true,
              rubricVersion: { select: { definition: true } },
            },
          },
          trajectory: { select: { id: true, task: { select: { acceptanceCriteria: true } } } },
        },
      },
    },
  });
  if (!assignment || assignment.reviewerId !== reviewerId) throw new AppError('NOT_FOUND', 'No such assignment');
  const { campaign } = assignment.item;
  if (campaign.mode !== 'single') throw new AppError('BAD_INPUT', 'This is a pairwise campaign: submit a comparison');
  if (campaign.status !== 'open') throw new AppError('CONFLICT', 'This campaign is closed: reviews can no longer be submitted or revised');

  const rubric = rubricDefinition.parse(campaign.rubricVersion.definition);
  const criteria = z.array(criterionSchema).catch([]).parse(assignment.item.trajectory.task.acceptanceCriteria);
  const answers = answersSchema(
    rubric,
    criteria.map((c) => c.key),
  ).safeParse(input.answers);
  if (!answers.success) throw new AppError('BAD_INPUT', issueText(answers.error));

  const coverage = measureCoverage(input.coverage, video, campaign.coverageBasis);
  const refusal = coverageRefusal(coverage, campaign.minCoverage);
  if (refusal !== null) throw new AppError('BAD_INPUT', refusal);
  const gold =
    assignment.item.isGold && assignment.item.goldAnswers
      ? goldScore(assignment.item.goldAnswers as Record<string, unknown>, answers.data)
      : null;

  try {
    return await db().$transaction(
      async (tx) => {
        const settled = await settleClaim(tx, input.assignmentId, reviewerId, campaign.overlap, now);
        const previous = await tx.review.findFirst({
          where: { assignmentId: input.assignmentId },
          orderBy: { revision: 'desc' },
          select: { revision: true },
        });
        if (previous)
          await tx.review.updateMany({ where: { assignmentId: input.assignmentId, isCurrent: true }, data: { isCurrent: false } });
        const review = await tx.review.create({
          data: {
            assignmentId: input.assignmentId,
            campaignItemId: settled.campaignItemId,
            reviewerId,
            rubricVersionId: campaign.rubricVersionId,
            revision: (previous?.revision ?? 0) + 1,
            answers: answers.data as Prisma.InputJsonValue,
            evidence: input.evidence as Prisma.InputJsonValue,
            coverage: coverage as Prisma.InputJsonValue,
            idempotencyKey: input.idempotencyKey,
            durationSec: input.durationSec,
            goldScore: gold,
            submittedAt: now,
          },
          select: { id: true, revision: true },
        });
        // the training stream: this submit made the item final (k reviews) or revised a final item
        await recordSubmitLabelEvent(tx, { campaignItemId: settled.campaignItemId, first: settled.first });
        await refreshTrajectoryInsight(prismaRun(tx), [assignment.item.trajectory.id]);
        return { ...review, duplicate: false };
      },
      { maxWait: 15_000, timeout: 15_000 },
    );
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') {
      const same = await db().review.findUnique({
        where: { idempotencyKey: input.idempotencyKey },
        select: { id: true, revision: true, reviewerId: true },
      });
      if (same && same.reviewerId === reviewerId) return { id: same.id, revision: same.revision, duplicate: true };
    }
    throw error;
  }
}
