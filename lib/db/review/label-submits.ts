import type { Prisma } from '@prisma/client';
import { AppError } from '../../errors';
import { db } from '../infra/client';
import { prismaRun, refreshTrajectoryInsight } from '../insight/insight-summary';
import { settleClaim } from './assignments';
import { recordSubmitLabelEvent } from './label-events';
import { nextRevision } from './revisions';

/** The two labels a reviewer submits on an assignment (the use-cases: lib/review/submit-*.ts). */
export type LabelKind = 'review' | 'comparison';

/** What a submit is checked against: the assignment with its item, campaign, rubric and task criteria. */
export async function findSubmitTarget(assignmentId: string) {
  return db().assignment.findUnique({
    where: { id: assignmentId },
    select: {
      reviewerId: true,
      swapSides: true,
      item: {
        select: {
          id: true,
          isGold: true,
          goldAnswers: true,
          trajectoryId: true,
          trajectoryBId: true,
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
          trajectory: { select: { task: { select: { acceptanceCriteria: true } } } },
        },
      },
    },
  });
}
export type SubmitTarget = NonNullable<Awaited<ReturnType<typeof findSubmitTarget>>>;

/** The label an idempotency key already made, if any. */
export async function findSubmitByKey(kind: LabelKind, idempotencyKey: string) {
  const query = { where: { idempotencyKey }, select: { id: true, assignmentId: true, revision: true } } as const;
  return kind === 'review' ? db().review.findUnique(query) : db().pairwiseComparison.findUnique(query);
}

/** The columns of a new review that its payload step decides (the shared ones are filled here). */
export interface ReviewColumns {
  rubricVersionId: string;
  answers: Record<string, unknown>;
  evidence: unknown[];
  coverage: Record<string, unknown>;
  durationSec: number | null;
  goldScore: number | null;
}
/** The columns of a new comparison that its payload step decides, already in the item's A/B terms. */
export interface ComparisonColumns {
  preference: number;
  bothBad: boolean;
  rationale: string;
  criteria: Record<string, unknown>;
  coverage: Record<string, unknown>;
}
export type SubmitRow = { kind: 'review'; data: ReviewColumns } | { kind: 'comparison'; data: ComparisonColumns };

const json = (value: unknown) => value as Prisma.InputJsonValue;

export interface SubmitWrite {
  assignmentId: string;
  reviewerId: string;
  idempotencyKey: string;
  /** the campaign's overlap k (the claim settles the item's count against it) */
  overlap: number;
  /** whose insight summaries the label changes */
  trajectoryIds: string[];
  now: Date;
}

/**
 * Writes a submit in one transaction: settles the claim, makes the row the assignment's next
 * revision (lib/db/review/revisions.ts), writes the training stream's label event (this submit
 * made the item final, or revised a final item) and refreshes the trajectories' insight
 * summaries. A concurrent submit with the same key (a double click racing itself) loses on the
 * unique key and answers the row the other one made.
 */
export async function writeSubmit(row: SubmitRow, s: SubmitWrite): Promise<{ id: string; revision: number; duplicate: boolean }> {
  try {
    return await db().$transaction(
      async (tx) => {
        const settled = await settleClaim(tx, s.assignmentId, s.reviewerId, s.overlap, s.now);
        const owned = {
          assignmentId: s.assignmentId,
          campaignItemId: settled.campaignItemId,
          reviewerId: s.reviewerId,
          revision: await nextRevision(tx, row.kind, s.assignmentId),
          idempotencyKey: s.idempotencyKey,
          submittedAt: s.now,
        };
        const select = { id: true, revision: true } as const;
        const created =
          row.kind === 'review'
            ? await tx.review.create({
                data: {
                  ...owned,
                  ...row.data,
                  answers: json(row.data.answers),
                  evidence: json(row.data.evidence),
                  coverage: json(row.data.coverage),
                },
                select,
              })
            : await tx.pairwiseComparison.create({
                data: { ...owned, ...row.data, criteria: json(row.data.criteria), coverage: json(row.data.coverage) },
                select,
              });
        await recordSubmitLabelEvent(tx, { campaignItemId: settled.campaignItemId, first: settled.first });
        await refreshTrajectoryInsight(prismaRun(tx), s.trajectoryIds);
        return { ...created, duplicate: false };
      },
      { maxWait: 15_000, timeout: 15_000 },
    );
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') {
      const same = await findSubmitByKey(row.kind, s.idempotencyKey);
      if (same && same.assignmentId === s.assignmentId) return { id: same.id, revision: same.revision, duplicate: true };
      if (same) throw new AppError('CONFLICT', 'This submit key was already used for another submit: send a new one');
    }
    throw error;
  }
}
