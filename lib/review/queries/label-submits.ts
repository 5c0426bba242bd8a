import { randomUUID } from 'node:crypto';
import type { CampaignMode, CampaignStatus, CoverageBasis, Prisma, VideoPacing } from '@prisma/client';
import { QUEUE_INSIGHT_REFRESH } from '../../insight/queries/insight-refresh';
import { insightIds } from '../../insight/queries/insight-summary';
import { at, sql, type SqlRun } from '../../db/sql';
import { currentInputsAndRow } from '../../video/queries/video-props';
import { VIDEO_PROPS_VERSION } from '../../video/schema';
import { BLIND_MASK_SQL } from './assignment-view';
import { revisionRule } from './revisions';

/** The two labels a reviewer submits on an assignment (the use-cases: lib/review/submit-*.ts). */
export type LabelKind = 'review' | 'comparison';

/** The campaign's columns a submit is checked against (the target's statement reads them as they are). */
interface SubmitCampaign {
  status: CampaignStatus;
  overlap: number;
  pacing: VideoPacing;
  blind: Prisma.JsonValue;
  minCoverage: number;
  coverageBasis: CoverageBasis;
  mode: CampaignMode;
  rubricVersionId: string;
  /** reading speed (words a minute) and what a too-fast submit gets (lib/review/attention.ts) */
  readingWpm: number;
  tooFast: string;
}

/** What a submit is checked against: the assignment with its item, campaign, rubric and task criteria. */
export interface SubmitTarget {
  reviewerId: string;
  /** the campaign's project (the caller's membership is checked against it) */
  projectId: string;
  swapSides: boolean;
  claimedAt: Date;
  /** the coverage the server kept for the assignment (assignment.progress) */
  progress: Prisma.JsonValue;
  item: {
    id: string;
    isGold: boolean;
    goldAnswers: Prisma.JsonValue | null;
    trajectoryId: string;
    trajectoryBId: string | null;
    campaign: SubmitCampaign & { rubricVersion: { definition: Prisma.JsonValue } };
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
  const [row] = await run<
    SubmitCampaign & {
      reviewerId: string;
      projectId: string;
      swapSides: boolean;
      claimedAt: Date;
      progress: Prisma.JsonValue;
      itemId: string;
      isGold: boolean;
      goldAnswers: Prisma.JsonValue | null;
      trajectoryId: string;
      trajectoryBId: string | null;
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
    }
  >(
    `SELECT a."reviewerId", c."projectId", a."swapSides", a."claimedAt", a.progress, ci.id AS "itemId", ci."isGold", ci."goldAnswers", ci."trajectoryId", ci."trajectoryBId",
           c.status::text AS status, c.overlap, c.pacing::text AS pacing, c.blind, c."minCoverage", c."coverageBasis"::text AS "coverageBasis",
           c.mode::text AS mode, c."rubricVersionId", c."readingWpm", c."tooFast", rv.definition, tk."acceptanceCriteria",
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
    claimedAt: row.claimedAt,
    progress: row.progress,
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
        readingWpm: row.readingWpm,
        tooFast: row.tooFast,
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

/** Who writes a label where, and whose insight summaries it changes. */
export interface LabelWrite {
  assignmentId: string;
  campaignItemId: string;
  reviewerId: string;
  idempotencyKey: string;
  /** whose insight summaries the label changes: the item's trajectory (pairwise: A, then B) */
  trajectoryIds: string[];
  now: Date;
}

/** What inserting a label did: the new row, and the revisions of the lead's decisions it superseded (none but on a revision of a decided item). */
export interface InsertedLabel {
  id: string;
  revision: number;
  supersededRevisions: number[];
}

/**
 * The one statement that retires the assignment's current label, inserts the new one as its next
 * revision (lib/review/queries/revisions.ts) and queues its trajectories' insight summaries
 * (lib/insight/queries/insight-refresh.ts). A revision (a current label was retired) on an item a
 * lead has decided supersedes the decision: it stops being current (`supersededAt`), so the item
 * is back in the lead's queue and consensus falls back to the reviews until the lead decides
 * again; the superseded decisions' revisions are answered (the caller audits them).
 */
export async function insertLabel(run: SqlRun, row: SubmitRow, s: LabelWrite): Promise<InsertedLabel> {
  const owned = [randomUUID(), s.assignmentId, s.campaignItemId, s.reviewerId, s.idempotencyKey, at(s.now), insightIds(s.trajectoryIds)];
  const revision = revisionRule(row.kind, '$2');
  const tail = `queued AS (${QUEUE_INSIGHT_REFRESH('$7')}), superseded AS (
     UPDATE adjudication SET "isCurrent" = false, "supersededAt" = $6::timestamp
     WHERE "campaignItemId" = $3 AND "isCurrent" AND EXISTS (SELECT 1 FROM retired) RETURNING revision
   )
   SELECT created.id, created.revision, ARRAY(SELECT revision FROM superseded) AS "supersededRevisions" FROM created`;
  const [created] =
    row.kind === 'review'
      ? await run<InsertedLabel>(
          `WITH retired AS (${revision.retire}), created AS (
             INSERT INTO review (id, "assignmentId", "campaignItemId", "reviewerId", revision, "idempotencyKey", "submittedAt",
               "isCurrent", "rubricVersionId", answers, evidence, coverage, "durationSec", "goldScore")
             SELECT $1, $2, $3, $4, ${revision.next}, $5, $6::timestamp, true, $8, $9::jsonb, $10::jsonb, $11::jsonb, $12, $13
             RETURNING id, revision
           ), ${tail}`,
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
      : await run<InsertedLabel>(
          `WITH retired AS (${revision.retire}), created AS (
             INSERT INTO pairwise_comparison (id, "assignmentId", "campaignItemId", "reviewerId", revision, "idempotencyKey", "submittedAt",
               "isCurrent", preference, "bothBad", rationale, criteria, coverage)
             SELECT $1, $2, $3, $4, ${revision.next}, $5, $6::timestamp, true, $8, $9, $10, $11::jsonb, $12::jsonb
             RETURNING id, revision
           ), ${tail}`,
          [
            ...owned,
            row.data.preference,
            row.data.bothBad,
            row.data.rationale,
            JSON.stringify(row.data.criteria),
            JSON.stringify(row.data.coverage),
          ],
        );
  return { id: created!.id, revision: created!.revision, supersededRevisions: created!.supersededRevisions.map(Number) };
}
