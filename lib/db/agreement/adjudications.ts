import type { Prisma } from '@prisma/client';
import { z } from 'zod';
import { criterionSchema, type Criterion } from '../../formats/trajectory';
import { answersSchema, rubricDefinition, type RubricDefinition } from '../../review/rubric';
import { AppError } from '../../errors';
import { writeAudit } from '../auth/audit';
import { recordLabelEvent } from '../review/label-events';
import { db } from '../infra/client';

/** What a lead sends to settle an item: final answers (single) or a final preference (pairwise), and why. */
export const recordAdjudicationInput = z.object({
  campaignId: z.string().min(1),
  itemId: z.string().min(1),
  answers: z.record(z.string(), z.unknown()).default({}),
  preference: z.number().int().min(-2).max(2).nullable().default(null),
  bothBad: z.boolean().default(false),
  rationale: z.string().trim().min(10, 'give the rationale for the final label in a sentence or two (10+ characters)').max(5000),
});
export type RecordAdjudicationInput = z.input<typeof recordAdjudicationInput>;

/**
 * Records a lead's final label for a campaign item, kept apart from the raw reviews. A changed
 * decision is a new revision; earlier ones stay (isCurrent=false). Single mode: the answers
 * must fit the rubric (any subset of its questions, at least one); pairwise: a preference.
 */
export async function recordAdjudication(adjudicatorId: string, raw: RecordAdjudicationInput) {
  const parsed = recordAdjudicationInput.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError('BAD_INPUT', `${issue.path.join('.') || 'adjudication'}: ${issue.message}`);
  }
  const input = parsed.data;
  const item = await db().campaignItem.findFirst({
    where: { id: input.itemId, campaignId: input.campaignId },
    select: {
      id: true,
      campaign: { select: { projectId: true, mode: true, rubricVersion: { select: { definition: true } } } },
      trajectory: { select: { task: { select: { acceptanceCriteria: true } } } },
    },
  });
  if (!item) throw new AppError('NOT_FOUND', 'No such item in this campaign');
  let answers: Record<string, unknown> = {};
  let preference: number | null = null;
  if (item.campaign.mode === 'pairwise') {
    if (input.preference === null)
      throw new AppError('BAD_INPUT', 'preference: choose the final preference (A much better .. B much better)');
    preference = input.preference;
  } else {
    const rubric = rubricDefinition.parse(item.campaign.rubricVersion.definition);
    const keys = z
      .array(criterionSchema)
      .catch([])
      .parse(item.trajectory.task.acceptanceCriteria)
      .map((c) => c.key);
    const cleaned = Object.fromEntries(Object.entries(input.answers).filter(([, v]) => v !== null && v !== undefined && v !== ''));
    if (Object.keys(cleaned).length === 0) throw new AppError('BAD_INPUT', 'answers: give at least one final answer');
    const checked = answersSchema(rubric, keys).partial().safeParse(cleaned);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      throw new AppError('BAD_INPUT', `answers.${issue.path.join('.')}: ${issue.message}`);
    }
    answers = checked.data as Record<string, unknown>;
  }
  return db().$transaction(async (tx) => {
    const last = await tx.adjudication.findFirst({
      where: { campaignItemId: item.id },
      orderBy: { revision: 'desc' },
      select: { revision: true },
    });
    if (last) await tx.adjudication.updateMany({ where: { campaignItemId: item.id, isCurrent: true }, data: { isCurrent: false } });
    const row = await tx.adjudication.create({
      data: {
        campaignItemId: item.id,
        adjudicatorId,
        revision: (last?.revision ?? 0) + 1,
        answers: answers as Prisma.InputJsonValue,
        preference,
        bothBad: item.campaign.mode === 'pairwise' ? input.bothBad : false,
        rationale: input.rationale,
      },
      select: { id: true, revision: true },
    });
    await writeAudit(tx, {
      actorId: adjudicatorId,
      action: 'item.adjudicate',
      targetType: 'campaign_item',
      targetId: item.id,
      projectId: item.campaign.projectId,
      data: { revision: row.revision },
    });
    // training sinks deliver the adjudicated label (it outranks the raw reviews in consensus)
    await recordLabelEvent(tx, { projectId: item.campaign.projectId, campaignItemId: item.id, kind: 'adjudicated' });
    return row;
  });
}

export interface AdjudicationView {
  /** pacing: the videos the reviewers watched (their evidence frames are on that timeline) */
  campaign: { id: string; name: string; mode: 'single' | 'pairwise'; pacing: 'read' | 'skim' };
  rubric: RubricDefinition;
  item: {
    id: string;
    trajectoryId: string;
    trajectoryBId: string | null;
    taskName: string;
    instruction: string;
    isGold: boolean;
    criteria: Criterion[];
  };
  reviews: {
    reviewerId: string;
    reviewerName: string;
    answers: Record<string, unknown>;
    evidence: { frame: number; stepIndex: number | null; note: string; side?: 'a' | 'b'; wrongStep?: boolean }[];
    submittedAt: Date;
    revision: number;
  }[];
  comparisons: {
    reviewerId: string;
    reviewerName: string;
    preference: number;
    bothBad: boolean;
    rationale: string;
    criteria: { a: Record<string, string>; b: Record<string, string> };
    evidence: { frame: number; stepIndex: number | null; note: string; side?: 'a' | 'b' }[];
    submittedAt: Date;
  }[];
  adjudications: {
    revision: number;
    isCurrent: boolean;
    answers: Record<string, unknown>;
    preference: number | null;
    bothBad: boolean;
    rationale: string;
    adjudicatorName: string | null;
    createdAt: Date;
  }[];
}

/** One item with everything a lead needs to settle it: all current answers with names and evidence, and past decisions. */
export async function getAdjudicationView(campaignId: string, itemId: string): Promise<AdjudicationView> {
  const item = await db().campaignItem.findFirst({
    where: { id: itemId, campaignId },
    select: {
      id: true,
      trajectoryId: true,
      trajectoryBId: true,
      isGold: true,
      campaign: { select: { id: true, name: true, mode: true, pacing: true, rubricVersion: { select: { definition: true } } } },
      trajectory: { select: { task: { select: { name: true, instruction: true, acceptanceCriteria: true } } } },
      reviews: {
        where: { isCurrent: true },
        orderBy: { submittedAt: 'asc' },
        select: {
          reviewerId: true,
          reviewer: { select: { name: true } },
          answers: true,
          evidence: true,
          submittedAt: true,
          revision: true,
        },
      },
      comparisons: {
        where: { isCurrent: true },
        orderBy: { submittedAt: 'asc' },
        select: {
          reviewerId: true,
          assignment: { select: { reviewer: { select: { name: true } } } },
          preference: true,
          bothBad: true,
          rationale: true,
          criteria: true,
          submittedAt: true,
        },
      },
      adjudications: {
        orderBy: { revision: 'desc' },
        select: {
          revision: true,
          isCurrent: true,
          answers: true,
          preference: true,
          bothBad: true,
          rationale: true,
          createdAt: true,
          adjudicator: { select: { name: true } },
        },
      },
    },
  });
  if (!item) throw new AppError('NOT_FOUND', 'No such item in this campaign');
  const task = item.trajectory.task;
  return {
    campaign: { id: item.campaign.id, name: item.campaign.name, mode: item.campaign.mode, pacing: item.campaign.pacing },
    rubric: rubricDefinition.parse(item.campaign.rubricVersion.definition),
    item: {
      id: item.id,
      trajectoryId: item.trajectoryId,
      trajectoryBId: item.trajectoryBId,
      taskName: task.name,
      instruction: task.instruction,
      isGold: item.isGold,
      criteria: z.array(criterionSchema).catch([]).parse(task.acceptanceCriteria),
    },
    reviews: item.reviews.map((r) => ({
      reviewerId: r.reviewerId,
      reviewerName: r.reviewer.name,
      answers: (r.answers ?? {}) as Record<string, unknown>,
      evidence: Array.isArray(r.evidence) ? (r.evidence as AdjudicationView['reviews'][number]['evidence']) : [],
      submittedAt: r.submittedAt,
      revision: r.revision,
    })),
    comparisons: item.comparisons.map((c) => {
      const criteria = (c.criteria ?? {}) as {
        a?: Record<string, string>;
        b?: Record<string, string>;
        evidence?: AdjudicationView['comparisons'][number]['evidence'];
      };
      return {
        reviewerId: c.reviewerId,
        reviewerName: c.assignment.reviewer.name,
        preference: c.preference,
        bothBad: c.bothBad,
        rationale: c.rationale,
        criteria: { a: criteria.a ?? {}, b: criteria.b ?? {} },
        evidence: Array.isArray(criteria.evidence) ? criteria.evidence : [],
        submittedAt: c.submittedAt,
      };
    }),
    adjudications: item.adjudications.map((a) => ({
      revision: a.revision,
      isCurrent: a.isCurrent,
      answers: (a.answers ?? {}) as Record<string, unknown>,
      preference: a.preference,
      bothBad: a.bothBad,
      rationale: a.rationale,
      adjudicatorName: a.adjudicator?.name ?? null,
      createdAt: a.createdAt,
    })),
  };
}
