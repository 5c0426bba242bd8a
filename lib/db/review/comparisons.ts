import type { Prisma } from '@prisma/client';
import { z } from 'zod';
import { criterionSchema } from '../../formats/trajectory';
import { coverageRefusal, coverageReport, measureCoverage, type CoverageMeasure } from '../../review/coverage';
import { evidenceList } from '../../review/evidence';
import { AppError } from '../../errors';
import { settleClaim } from './assignments';
import { db } from '../infra/client';
import { prismaRun, refreshTrajectoryInsight } from '../insight/insight-summary';
import { recordSubmitLabelEvent } from './label-events';

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

/**
 * Submits a pairwise comparison (idempotent by key; a later submit is a kept revision).
 * Every criterion of the task needs a verdict on both sides; both videos need the
 * campaign's minimum coverage.
 */
export async function submitComparison(
  reviewerId: string,
  raw: SubmitComparisonInput,
  frames: { left: number | CoverageMeasure; right: number | CoverageMeasure },
  now: Date,
) {
  const parsed = submitComparisonInput.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError('BAD_INPUT', `${issue.path.join('.')}: ${issue.message}`);
  }
  const input = parsed.data;
  const done = await db().pairwiseComparison.findUnique({
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
      swapSides: true,
      item: {
        select: {
          trajectoryId: true,
          trajectoryBId: true,
          campaign: { select: { status: true, overlap: true, minCoverage: true, coverageBasis: true, mode: true } },
          trajectory: { select: { task: { select: { acceptanceCriteria: true } } } },
        },
      },
    },
  });
  if (!assignment || assignment.reviewerId !== reviewerId) throw new AppError('NOT_FOUND', 'No such assignment');
  const { campaign } = assignment.item;
  if (campaign.mode !== 'pairwise') throw new AppError('BAD_INPUT', 'This is a single-item campaign: submit a review');
  if (campaign.status !== 'open') throw new AppError('CONFLICT', 'This campaign is closed');
  const keys = z
    .array(criterionSchema)
    .catch([])
    .parse(assignment.item.trajectory.task.acceptanceCriteria)
    .map((c) => c.key);
  const measured = {
    left: measureCoverage(input.coverage.left, frames.left, campaign.coverageBasis),
    right: measureCoverage(input.coverage.right, frames.right, campaign.coverageBasis),
  };
  for (const side of ['left', 'right'] as const) {
    const missing = keys.filter((k) => !input.criteria[side][k]);
    if (missing.length) throw new AppError('BAD_INPUT', `criteria.${side}: give a pass/fail for ${missing.join(', ')}`);
    const unknown = Object.keys(input.criteria[side]).filter((k) => !keys.includes(k));
    if (unknown.length) throw new AppError('BAD_INPUT', `criteria.${side}: unknown criteria ${unknown.join(', ')}`);
    const refusal = coverageRefusal(measured[side], campaign.minCoverage, `the ${side} run`);
    if (refusal !== null) throw new AppError('BAD_INPUT', refusal);
  }
  const mapped = unrandomise(input, assignment.swapSides);
  const coverage = assignment.swapSides ? { a: measured.right, b: measured.left } : { a: measured.left, b: measured.right };
  const evidence = input.evidence.map((e) => (e.side && assignment.swapSides ? { ...e, side: e.side === 'a' ? 'b' : 'a' } : e));
  return db().$transaction(
    async (tx) => {
      const settled = await settleClaim(tx, input.assignmentId, reviewerId, campaign.overlap, now);
      const previous = await tx.pairwiseComparison.findFirst({
        where: { assignmentId: input.assignmentId },
        orderBy: { revision: 'desc' },
        select: { revision: true },
      });
      if (previous)
        await tx.pairwiseComparison.updateMany({
          where: { assignmentId: input.assignmentId, isCurrent: true },
          data: { isCurrent: false },
        });
      const row = await tx.pairwiseComparison.create({
        data: {
          assignmentId: input.assignmentId,
          campaignItemId: settled.campaignItemId,
          reviewerId,
          revision: (previous?.revision ?? 0) + 1,
          preference: mapped.preference,
          bothBad: input.bothBad,
          rationale: input.rationale,
          criteria: { ...mapped.criteria, evidence } as Prisma.InputJsonValue,
          coverage: coverage as Prisma.InputJsonValue,
          idempotencyKey: input.idempotencyKey,
          submittedAt: now,
        },
        select: { id: true, revision: true },
      });
      // the training stream: this submit made the item final (k comparisons) or revised a final item
      await recordSubmitLabelEvent(tx, { campaignItemId: settled.campaignItemId, first: settled.first });
      await refreshTrajectoryInsight(prismaRun(tx), [assignment.item.trajectoryId, assignment.item.trajectoryBId]);
      return { ...row, duplicate: false };
    },
    { maxWait: 15_000, timeout: 15_000 },
  );
}
