import type { Prisma } from '@prisma/client';
import { parseCriteria } from '../../formats/criteria';
import type { Criterion } from '../../formats/trajectory';
import { stableStringify } from '../../ingest/stable-json';
import { rubricDefinition, type RubricDefinition } from '../../review/rubric';
import { recordLabelEvent } from '../../review/queries/label-events';
import { db } from '../../db/client';
import { prismaRun } from '../../db/sql';
import { nextRevision } from '../../review/queries/revisions';
import type { AuditStep } from '../../auth/queries/audit';

/** The item a lead settles, with what its final label is checked against (mode, rubric, criteria). */
export async function findAdjudicationTarget(campaignId: string, itemId: string) {
  return db().campaignItem.findFirst({
    where: { id: itemId, campaignId },
    select: {
      id: true,
      campaign: { select: { projectId: true, mode: true, rubricVersion: { select: { definition: true } } } },
      trajectory: { select: { task: { select: { acceptanceCriteria: true } } } },
    },
  });
}

type AdjudicationLabel = { answers: Record<string, unknown>; preference: number | null; bothBad: boolean; rationale: string };

const sameDecision = (a: AdjudicationLabel, b: AdjudicationLabel) =>
  stableStringify(a.answers) === stableStringify(b.answers) &&
  a.preference === b.preference &&
  a.bothBad === b.bothBad &&
  a.rationale === b.rationale;

/**
 * Writes a lead's final label (the use-case: lib/agreement/record-adjudication.ts) as the item's
 * next revision (lib/review/queries/revisions.ts), with the training stream's label event and what
 * `audit` writes (the use-case's audit row), in one transaction. The item's row is locked
 * first, so concurrent decisions on one item take turns (never two rows claiming one revision
 * number): the same decision by the same lead as the current one answers that row (`duplicate`);
 * with `basedOnRevision` given, a current revision other than it writes nothing and answers
 * `{ conflict: <the current revision, null: none> }`.
 */
export async function writeAdjudication(
  by: { adjudicatorId: string; campaignItemId: string; projectId: string },
  label: AdjudicationLabel,
  basedOnRevision: number | null | undefined,
  audit: AuditStep<{ revision: number }>,
): Promise<{ id: string; revision: number; duplicate: boolean } | { conflict: number | null }> {
  return db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM campaign_item WHERE id = ${by.campaignItemId} FOR UPDATE`;
    const current = await tx.adjudication.findFirst({
      where: { campaignItemId: by.campaignItemId, isCurrent: true },
      select: { id: true, revision: true, adjudicatorId: true, answers: true, preference: true, bothBad: true, rationale: true },
    });
    if (
      current &&
      current.adjudicatorId === by.adjudicatorId &&
      sameDecision({ ...current, answers: current.answers as Record<string, unknown> }, label)
    ) {
      return { id: current.id, revision: current.revision, duplicate: true };
    }
    if (basedOnRevision !== undefined && (current?.revision ?? null) !== basedOnRevision) return { conflict: current?.revision ?? null };
    const row = await tx.adjudication.create({
      data: {
        campaignItemId: by.campaignItemId,
        adjudicatorId: by.adjudicatorId,
        revision: await nextRevision(prismaRun(tx), 'adjudication', by.campaignItemId),
        answers: label.answers as Prisma.InputJsonValue,
        preference: label.preference,
        bothBad: label.bothBad,
        rationale: label.rationale,
      },
      select: { id: true, revision: true },
    });
    await audit(tx, { revision: row.revision });
    // training sinks deliver the adjudicated label (it outranks the raw reviews in consensus)
    await recordLabelEvent(prismaRun(tx), { projectId: by.projectId, campaignItemId: by.campaignItemId, kind: 'adjudicated' });
    return { ...row, duplicate: false };
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
    /** the reviewer uploaded this trajectory (the project allows self-review) */
    selfReview: boolean;
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
    revision: number;
    /** the reviewer uploaded one of the two trajectories (the project allows self-review) */
    selfReview: boolean;
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
    /** a reviewer revised their label after this decision, which then stopped being current */
    supersededAt: Date | null;
  }[];
}

/** One item with everything a lead needs to settle it: all current answers with names and evidence, and past decisions; null when the campaign has no such item. */
export async function getAdjudicationView(campaignId: string, itemId: string): Promise<AdjudicationView | null> {
  const item = await db().campaignItem.findFirst({
    where: { id: itemId, campaignId },
    select: {
      id: true,
      trajectoryId: true,
      trajectoryBId: true,
      isGold: true,
      campaign: { select: { id: true, name: true, mode: true, pacing: true, rubricVersion: { select: { definition: true } } } },
      trajectory: { select: { importedById: true, task: { select: { name: true, instruction: true, acceptanceCriteria: true } } } },
      trajectoryB: { select: { importedById: true } },
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
          revision: true,
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
          supersededAt: true,
          adjudicator: { select: { name: true } },
        },
      },
    },
  });
  if (!item) return null;
  const task = item.trajectory.task;
  const uploaders = new Set([item.trajectory.importedById, item.trajectoryB?.importedById].filter((id): id is string => !!id));
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
      criteria: parseCriteria(task.acceptanceCriteria),
    },
    reviews: item.reviews.map((r) => ({
      reviewerId: r.reviewerId,
      reviewerName: r.reviewer.name,
      answers: (r.answers ?? {}) as Record<string, unknown>,
      evidence: Array.isArray(r.evidence) ? (r.evidence as AdjudicationView['reviews'][number]['evidence']) : [],
      submittedAt: r.submittedAt,
      revision: r.revision,
      selfReview: uploaders.has(r.reviewerId),
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
        revision: c.revision,
        selfReview: uploaders.has(c.reviewerId),
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
      supersededAt: a.supersededAt,
    })),
  };
}

/**
 * A campaign's items back in the lead's queue: a reviewer revised their label after the lead's
 * decision, which stopped being current (lib/review/queries/label-submits.ts), and no decision was
 * made since. Newest first, with the time of the revision that reopened each.
 */
export async function reopenedItems(
  campaignId: string,
): Promise<{ itemId: string; taskName: string; supersededAt: Date; revision: number }[]> {
  const rows = await db().adjudication.findMany({
    where: { supersededAt: { not: null }, item: { campaignId, adjudications: { none: { isCurrent: true } } } },
    orderBy: [{ supersededAt: 'desc' }],
    distinct: ['campaignItemId'],
    select: {
      campaignItemId: true,
      supersededAt: true,
      revision: true,
      item: { select: { trajectory: { select: { task: { select: { name: true } } } } } },
    },
    take: 200,
  });
  return rows.map((r) => ({
    itemId: r.campaignItemId,
    taskName: r.item.trajectory.task.name,
    supersededAt: r.supersededAt!,
    revision: r.revision,
  }));
}

/** A campaign's stored decisions and how many of them lack their `adjudicated` label event (the soak checks both). */
export async function adjudicationsOf(campaignId: string): Promise<{ ids: Set<string>; missingEvents: number }> {
  const [rows, events] = await Promise.all([
    db().adjudication.findMany({ where: { item: { campaignId } }, select: { id: true } }),
    db().labelEvent.count({ where: { kind: 'adjudicated', item: { campaignId } } }),
  ]);
  return { ids: new Set(rows.map((r) => r.id)), missingEvents: Math.abs(rows.length - events) };
}
