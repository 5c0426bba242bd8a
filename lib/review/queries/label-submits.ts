import { randomUUID } from 'node:crypto';
import type { CampaignMode, CampaignStatus, CoverageBasis, Prisma, VideoPacing } from '@prisma/client';
import { AppError } from '../../errors';
import { QUEUE_INSIGHT_REFRESH, scheduleInsightRefresh } from '../../insight/queries/insight-refresh';
import { insightIds } from '../../insight/queries/insight-summary';
import { at, inSqlTransaction, isUniqueViolation, sql, type SqlRun } from '../../db/sql';
import { currentInputsAndRow } from '../../video/queries/video-props';
import { VIDEO_PROPS_VERSION } from '../../video/schema';
import { BLIND_MASK_SQL } from './assignment-view';
import { lockAssignment, settleClaim } from './assignments';
import { recordSubmitLabelEvent } from './label-events';
import { revisionRule } from './revisions';

/** The two labels a reviewer submits on an assignment (the use-cases: lib/review/submit-*.ts). */
export type LabelKind = 'review' | 'comparison';

/** What a submit is checked against: the assignment with its item, campaign, rubric and task criteria. */
export interface SubmitTarget {
  reviewerId: string;
  /** the campaign's project (the caller's membership is checked against it) */
  projectId: string;
  swapSides: boolean;
  item: {
    id: string;
    isGold: boolean;
    goldAnswers: Prisma.JsonValue | null;
    trajectoryId: string;
    trajectoryBId: string | null;
    campaign: {
      status: CampaignStatus;
      overlap: number;
      pacing: VideoPacing;
      blind: Prisma.JsonValue;
      minCoverage: number;
      coverageBasis: CoverageBasis;
      mode: CampaignMode;
      rubricVersionId: string;
      rubricVersion: { definition: Prisma.JsonValue };
    };
    /** steps: the trajectory's step count (evidence notes point at its steps) */
    trajectory: { steps: number; task: { acceptanceCriteria: Prisma.JsonValue } };
    /** pairwise: trajectory B's step count */
    trajectoryBSteps: number | null;
    /** who uploaded the item's trajectories through the API (null: the CLI, a seed), item order [A, B] */
    uploaderIds: (string | null)[];
    /** the project's setting: whether someone may review items whose trajectories they uploaded */
    allowSelfReview: boolean;
  };
  /** the label `idempotencyKey` already made (any assignment's), if a key was given */
  done: { id: string; assignmentId: string; revision: number } | null;
  /**
   * Each trajectory's (item order: [trajectoryId, trajectoryBId]) current stored coverage measure
   * under the campaign's pacing and the blind mask `blindMask` names, read by the target's own
   * statement: the caller uses it only when that is its parsed settings' mask; null where none is stored.
   */
  storedMeasures: { blindMask: string; measures: (StoredMeasure | null)[] };
}

/** A stored video_props row's measure columns. */
export interface StoredMeasure {
  durationInFrames: number;
  measure: unknown;
}

/**
 * The submit's target in one statement (the hot path: every submit reads it), or null for an
 * unknown assignment: the assignment, its item, campaign (and project), rubric and criteria,
 * and the label of `kind` that `idempotencyKey` already made (a retry), if any.
 */
export async function findSubmitTarget(
  assignmentId: string,
  kind: LabelKind,
  idempotencyKey: string | null,
  run: SqlRun = sql,
): Promise<SubmitTarget | null> {
  const [row] = await run<{
    reviewerId: string;
    projectId: string;
    swapSides: boolean;
    itemId: string;
    isGold: boolean;
    goldAnswers: Prisma.JsonValue | null;
    trajectoryId: string;
    trajectoryBId: string | null;
    status: CampaignStatus;
    overlap: number;
    pacing: VideoPacing;
    blind: Prisma.JsonValue;
    minCoverage: number;
    coverageBasis: CoverageBasis;
    mode: CampaignMode;
    rubricVersionId: string;
    definition: Prisma.JsonValue;
    acceptanceCriteria: Prisma.JsonValue;
    stepsA: number;
    stepsB: number | null;
    uploaderA: string | null;
    uploaderB: string | null;
    allowSelfReview: boolean;
    doneId: string | null;
    doneAssignmentId: string | null;
    doneRevision: number | null;
    storedMask: string;
    framesA: number | null;
    measureA: unknown;
    framesB: number | null;
    measureB: unknown;
  }>(
    `SELECT a."reviewerId", c."projectId", a."swapSides", ci.id AS "itemId", ci."isGold", ci."goldAnswers", ci."trajectoryId", ci."trajectoryBId",
           c.status::text AS status, c.overlap, c.pacing::text AS pacing, c.blind, c."minCoverage", c."coverageBasis"::text AS "coverageBasis",
           c.mode::text AS mode, c."rubricVersionId", rv.definition, tk."acceptanceCriteria",
           t."stepCount" AS "stepsA", tb."stepCount" AS "stepsB", t."importedById" AS "uploaderA", tb."importedById" AS "uploaderB",
           coalesce((p.settings->>'allowSelfReview')::boolean, false) AS "allowSelfReview",
           k.id AS "doneId", k."assignmentId" AS "doneAssignmentId", k.revision AS "doneRevision",
           bm.mask AS "storedMask", ma."durationInFrames" AS "framesA", ma.measure AS "measureA",
           mb."durationInFrames" AS "framesB", mb.measure AS "measureB"
    FROM assignment a
    JOIN campaign_item ci ON ci.id = a."campaignItemId"
    JOIN campaign c ON c.id = ci."campaignId"
    JOIN rubric_version rv ON rv.id = c."rubricVersionId"
    JOIN trajectory t ON t.id = ci."trajectoryId"
    JOIN task tk ON tk.id = t."taskId"
    JOIN project p ON p.id = c."projectId"
    LEFT JOIN trajectory tb ON tb.id = ci."trajectoryBId"
    LEFT JOIN LATERAL (SELECT id, "assignmentId", revision FROM ${labelTable[kind]} WHERE "idempotencyKey" = $2) k ON true
    -- the measure each trajectory's current stored props hold (the one rule of fresh, lib/video/queries/video-props.ts), so the
    -- coverage check needs no read of its own: a submit's second round trip before its transaction, folded in here
    CROSS JOIN LATERAL (SELECT ${BLIND_MASK_SQL} AS mask) bm
    LEFT JOIN LATERAL (SELECT vp."durationInFrames", vp.measure ${currentInputsAndRow('ci."trajectoryId"', '$3', 'c.pacing', 'bm.mask')}) ma ON true
    LEFT JOIN LATERAL (SELECT vp."durationInFrames", vp.measure ${currentInputsAndRow('ci."trajectoryBId"', '$3', 'c.pacing', 'bm.mask')}) mb ON true
    WHERE a.id = $1`,
    [assignmentId, idempotencyKey, String(VIDEO_PROPS_VERSION)],
  );
  if (!row) return null;
  return {
    reviewerId: row.reviewerId,
    projectId: row.projectId,
    swapSides: row.swapSides,
    item: {
      id: row.itemId,
      isGold: row.isGold,
      goldAnswers: row.goldAnswers,
      trajectoryId: row.trajectoryId,
      trajectoryBId: row.trajectoryBId,
      campaign: {
        status: row.status,
        overlap: row.overlap,
        pacing: row.pacing,
        blind: row.blind,
        minCoverage: row.minCoverage,
        coverageBasis: row.coverageBasis,
        mode: row.mode,
        rubricVersionId: row.rubricVersionId,
        rubricVersion: { definition: row.definition },
      },
      trajectory: { steps: row.stepsA, task: { acceptanceCriteria: row.acceptanceCriteria } },
      trajectoryBSteps: row.stepsB,
      uploaderIds: row.trajectoryBId ? [row.uploaderA, row.uploaderB] : [row.uploaderA],
      allowSelfReview: row.allowSelfReview,
    },
    done: row.doneId === null ? null : { id: row.doneId, assignmentId: row.doneAssignmentId!, revision: row.doneRevision! },
    storedMeasures: {
      blindMask: row.storedMask,
      measures: [
        row.framesA === null ? null : { durationInFrames: row.framesA, measure: row.measureA },
        row.framesB === null ? null : { durationInFrames: row.framesB, measure: row.measureB },
      ],
    },
  };
}

const labelTable: Record<LabelKind, string> = { review: 'review', comparison: 'pairwise_comparison' };

/** The label an idempotency key already made, if any. */
export async function findSubmitByKey(kind: LabelKind, idempotencyKey: string) {
  const [row] = await sql<{ id: string; assignmentId: string; revision: number }>(
    `SELECT id, "assignmentId", revision FROM ${labelTable[kind]} WHERE "idempotencyKey" = $1`,
    [idempotencyKey],
  );
  return row ?? null;
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

export interface SubmitWrite {
  reviewerId: string;
  idempotencyKey: string;
  /** the campaign's overlap k (the claim settles the item's count against it) */
  overlap: number;
  /** whose insight summaries the label changes: the item's trajectory (pairwise: A, then B) */
  trajectoryIds: string[];
  now: Date;
  /** the campaign's project (the audit rows below name it) */
  projectId: string;
  /** the reviewer uploaded one of the item's trajectories (the project allows it): the submit is audited as a self-review */
  selfReview: boolean;
}

/** What a submit decides once it has read its target: a replay of the submit its key already stored, or the row to write. */
export type SubmitPlan = { replay: { id: string; revision: number } } | { row: SubmitRow; write: SubmitWrite };

/**
 * A submit, in one transaction: reads its target (`findSubmitTarget`, with the key as sent),
 * lets `plan` check it and build the row (it throws to refuse: nothing is written), then settles
 * the claim, makes the row the assignment's next revision (lib/review/queries/revisions.ts), writes
 * the training stream's label event (this submit made the item final, or revised a final item)
 * and queues the trajectories' insight summaries for a refresh (lib/insight/queries/insight-refresh.ts),
 * which this process starts once the submit has committed, without waiting for it; every reader
 * of the summaries refreshes what is queued first, so they stay exact. A concurrent submit with
 * the same key (a double click racing itself) loses on the unique key and answers the row the
 * other one made.
 *
 * Round trips (the hot path, issue 17), three (lib/db/sql.ts inSqlTransaction): BEGIN
 * with the target's read and the assignment's row lock (the lock is taken before the plan has
 * checked the target is the caller's: a refused submit holds another's row for the moment its
 * rollback takes); the claim's settling with the one statement that retires the current
 * revision, inserts the new one and queues the refresh (the insert does not wait on the
 * settling's answer); the label event, when there is one, with COMMIT.
 */
export async function writeSubmit(
  assignmentId: string,
  kind: LabelKind,
  sentKey: string | null,
  plan: (target: SubmitTarget | null) => Promise<SubmitPlan>,
): Promise<{ id: string; revision: number; duplicate: boolean; reopened?: boolean }> {
  try {
    const written = await inSqlTransaction(async (run, commitWith) => {
      // the target's read first (before the lock sets the rest of the transaction on generic plans), both written with BEGIN
      const reading = findSubmitTarget(assignmentId, kind, sentKey, run);
      const locked = lockAssignment(run, assignmentId);
      const [target] = await Promise.all([reading, locked]);
      const planned = await plan(target);
      if ('replay' in planned) return { ...planned.replay, duplicate: true };
      const { row, write } = planned;
      if (row.kind !== kind || write.idempotencyKey !== sentKey) throw new Error('writeSubmit: the plan changed the kind or the key');
      const settled = await settleClaim(
        run,
        assignmentId,
        write.reviewerId,
        write.overlap,
        write.now,
        (campaignItemId) => insertLabel(run, row, { assignmentId, campaignItemId, ...write }),
        locked,
      );
      // the label event, when this submit makes one, is the last statement: COMMIT goes with it; a revision that
      // superseded the lead's decision changed what the item delivers: a `revised` event, final or not
      const { reopened, ...written } = settled.written;
      await recordSubmitLabelEvent(commitWith, { ...settled, reopened });
      // `reopened` only when it did: the answer of every other submit keeps its shape
      return { ...written, duplicate: false, ...(reopened ? { reopened } : {}) };
    });
    if (!written.duplicate) scheduleInsightRefresh();
    return written;
  } catch (error) {
    // a concurrent submit with the same key won on its unique index: answer its label (any other violation is thrown)
    if (sentKey !== null && isUniqueViolation(error)) {
      const same = await findSubmitByKey(kind, sentKey);
      if (same && same.assignmentId === assignmentId) return { id: same.id, revision: same.revision, duplicate: true };
      if (same) throw new AppError('CONFLICT', 'This submit key was already used for another submit: send a new one');
    }
    throw error;
  }
}

/**
 * The one statement that retires the assignment's current label, inserts the new one as its next
 * revision (lib/review/queries/revisions.ts) and queues its trajectories' insight summaries. A
 * revision (a current label was retired) on an item a lead has decided supersedes the decision:
 * it stops being current (`supersededAt`), so the item is back in the lead's queue and consensus
 * falls back to the reviews until the lead decides again; audited (`adjudication.superseded`).
 * A self-review the project allows is audited too (`review.self`). `reopened`: a decision was superseded.
 */
async function insertLabel(
  run: SqlRun,
  row: SubmitRow,
  s: SubmitWrite & { assignmentId: string; campaignItemId: string },
): Promise<{ id: string; revision: number; reopened: boolean }> {
  const owned = [
    randomUUID(),
    s.assignmentId,
    s.campaignItemId,
    s.reviewerId,
    s.idempotencyKey,
    at(s.now),
    insightIds(s.trajectoryIds),
    s.projectId,
    s.selfReview,
  ];
  const revision = revisionRule(row.kind, '$2');
  const [created] =
    row.kind === 'review'
      ? await run<{ id: string; revision: number; reopened: boolean }>(
          `WITH retired AS (${revision.retire}), created AS (
             INSERT INTO review (id, "assignmentId", "campaignItemId", "reviewerId", revision, "idempotencyKey", "submittedAt",
               "isCurrent", "rubricVersionId", answers, evidence, coverage, "durationSec", "goldScore")
             SELECT $1, $2, $3, $4, ${revision.next}, $5, $6::timestamp, true, $10, $11::jsonb, $12::jsonb, $13::jsonb, $14, $15
             RETURNING id, revision
           ), queued AS (${QUEUE_INSIGHT_REFRESH('$7')}), ${AFTER_LABEL(row.kind)}
           SELECT created.id, created.revision, EXISTS (SELECT 1 FROM superseded) AS reopened FROM created`,
          [
            ...owned,
            row.data.rubricVersionId,
            JSON.stringify(row.data.answers),
            JSON.stringify(row.data.evidence),
            JSON.stringify(row.data.coverage),
            row.data.durationSec,
            row.data.goldScore,
          ],
        )
      : await run<{ id: string; revision: number; reopened: boolean }>(
          `WITH retired AS (${revision.retire}), created AS (
             INSERT INTO pairwise_comparison (id, "assignmentId", "campaignItemId", "reviewerId", revision, "idempotencyKey", "submittedAt",
               "isCurrent", preference, "bothBad", rationale, criteria, coverage)
             SELECT $1, $2, $3, $4, ${revision.next}, $5, $6::timestamp, true, $10, $11, $12, $13::jsonb, $14::jsonb
             RETURNING id, revision
           ), queued AS (${QUEUE_INSIGHT_REFRESH('$7')}), ${AFTER_LABEL(row.kind)}
           SELECT created.id, created.revision, EXISTS (SELECT 1 FROM superseded) AS reopened FROM created`,
          [
            ...owned,
            row.data.preference,
            row.data.bothBad,
            row.data.rationale,
            JSON.stringify(row.data.criteria),
            JSON.stringify(row.data.coverage),
          ],
        );
  return created!;
}

/**
 * The CTEs a label's statement ends with ($2 assignment, $3 item, $4 reviewer, $6 now, $8 project,
 * $9 self-review; `retired` and `created` before them): a revision supersedes the item's current
 * decision, and the audit rows of that and of a self-review.
 */
const AFTER_LABEL = (kind: LabelKind) => `superseded AS (
     UPDATE adjudication SET "isCurrent" = false, "supersededAt" = $6::timestamp
     WHERE "campaignItemId" = $3 AND "isCurrent" AND EXISTS (SELECT 1 FROM retired) RETURNING id, revision
   ), audited AS (
     INSERT INTO audit_log (at, "actorId", action, "targetType", "targetId", "projectId", data)
     SELECT $6::timestamp, $4, 'adjudication.superseded', 'campaign_item', $3, $8,
            jsonb_build_object('adjudicationRevision', superseded.revision, 'by', '${kind}', 'labelId', created.id, 'labelRevision', created.revision)
     FROM superseded, created
     UNION ALL
     SELECT $6::timestamp, $4, 'review.self', '${kind}', created.id, $8,
            jsonb_build_object('campaignItemId', $3::text, 'assignmentId', $2::text, 'revision', created.revision, 'why', 'the reviewer uploaded a trajectory of this item')
     FROM created WHERE $9::boolean
   )`;
