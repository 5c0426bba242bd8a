import type { Prisma } from '@prisma/client';
import type { BlindSettings } from '../blind-settings';
import type { CoverageBasis } from '../coverage';
import type { EvidenceNote } from '../evidence';
import type { RubricDefinition } from '../rubric';
import { VIDEO_PROPS_VERSION, type TrajectoryVideoProps } from '../../video/schema';
import type { TranscriptStep } from '../../video/transcript';
import { db } from '../../db/client';
import type { SqlRun } from '../../db/sql';
import { currentInputsAndRow } from '../../video/queries/video-props';
import type { Pacing } from '../../video/pacing';

/**
 * The blind mask (open | policy | reward | both, as video_props keys its rows) of a campaign's
 * `blind` column, in SQL, as `blindSettings` reads it (a missing flag hides, anything malformed
 * hides both). Only used to pick a stored row to read beside the view (and a submit's target): the caller compares the
 * mask it names with the one the parsed settings give before using that row (VideoLookup).
 */
export const BLIND_MASK_SQL = `CASE
    WHEN jsonb_typeof(c.blind) = 'object'
     AND coalesce(jsonb_typeof(c.blind->'hidePolicy'), 'boolean') = 'boolean'
     AND coalesce(jsonb_typeof(c.blind->'hideReward'), 'boolean') = 'boolean'
    THEN CASE WHEN coalesce((c.blind->>'hidePolicy')::boolean, true)
              THEN CASE WHEN coalesce((c.blind->>'hideReward')::boolean, true) THEN 'both' ELSE 'policy' END
              ELSE CASE WHEN coalesce((c.blind->>'hideReward')::boolean, true) THEN 'reward' ELSE 'open' END END
    ELSE 'both' END`;

/**
 * Everything a reviewer may see of their own assignment, and nothing else: the task
 * (instruction, criteria without the verifier's verdicts when the reward is hidden), the
 * video(s) with the campaign's blind settings applied (the chapters are the step list), the
 * rubric version, and their own current answer (for revising). Never the policy when hidden,
 * never another reviewer's answers, never the pairwise A/B order.
 */
export interface AssignmentView {
  assignment: { id: string; status: 'claimed' | 'submitted' | 'skipped' | 'expired'; claimedAt: string; leaseExpiresAt: string };
  campaign: {
    id: string;
    name: string;
    mode: 'single' | 'pairwise';
    status: string;
    minCoverage: number;
    /** the videos' pacing (the props carry it too) */
    pacing: Pacing;
    coverageBasis: CoverageBasis;
    blind: BlindSettings;
    /** words a minute a transcript step's reading time is counted at */
    readingWpm: number;
  };
  /** the coverage the server kept for each video so far (same order as `videos`): the page starts from it after a reload */
  earned: { ranges: [number, number][]; transcriptSteps: number[] }[];
  rubric: { versionId: string; version: number; definition: RubricDefinition };
  task: {
    name: string;
    instruction: string;
    environment: string | null;
    criteria: Array<{ key: string; text: string; verdict: boolean | null }>;
  };
  /** single: one video; pairwise: [left, right] as the screen shows them */
  videos: TrajectoryVideoProps[];
  /** each video's blind transcript (lib/video/transcript.ts), same order as `videos` */
  transcripts: TranscriptStep[][];
  myReview: { revision: number; answers: Record<string, unknown>; evidence: EvidenceNote[]; submittedAt: string } | null;
  /** pairwise, in screen terms (left/right) */
  myComparison: {
    revision: number;
    preference: number;
    bothBad: boolean;
    rationale: string;
    criteria: { left: Record<string, string>; right: Record<string, string> };
    evidence: EvidenceNote[];
    submittedAt: string;
  } | null;
}

/** The view's statement's row (readAssignmentViewRow); the use-case (lib/review/view-assignment.ts) makes the view of it. */
export interface ViewRow {
  id: string;
  reviewerId: string;
  status: AssignmentView['assignment']['status'];
  claimedAt: Date;
  leaseExpiresAt: Date;
  swapSides: boolean;
  trajectoryId: string;
  trajectoryBId: string | null;
  taskName: string;
  instruction: string;
  acceptanceCriteria: unknown;
  environment: string | null;
  campaignId: string;
  projectId: string;
  campaignName: string;
  mode: 'single' | 'pairwise';
  campaignStatus: string;
  minCoverage: number;
  coverageBasis: CoverageBasis;
  blind: unknown;
  pacing: Pacing;
  readingWpm: number;
  progress: unknown;
  rubricVersionId: string;
  rubricVersion: number;
  definition: unknown;
  reviewRevision: number | null;
  reviewAnswers: unknown;
  reviewEvidence: unknown;
  reviewSubmittedAt: Date | null;
  comparisonRevision: number | null;
  preference: number | null;
  bothBad: boolean | null;
  rationale: string | null;
  comparisonCriteria: unknown;
  comparisonSubmittedAt: Date | null;
  storedMask: string;
  storedPropsA: string | null;
  storedTranscriptA: string | null;
  storedPropsB: string | null;
  storedTranscriptB: string | null;
}

/**
 * One trajectory's video, blind transcript and coverage measure under a blind setting and pacing
 * (lib/video/video-props-for.ts). `stored`: the current stored row the view's own
 * statement read for it (with `withStored`), under the blind mask that statement named, to use
 * instead of a lookup when that is the settings' mask (`storedVideoOf`); null when none is stored.
 */
export type VideoLookup = (
  trajectoryId: string,
  blind: BlindSettings,
  pacing: Pacing,
  stored: StoredVideoTexts | null,
) => Promise<{ props: TrajectoryVideoProps; transcript: TranscriptStep[] }>;

/** A stored video_props row's texts as the view's statement read them, and the blind mask it read them under. */
export interface StoredVideoTexts {
  blindMask: string;
  props: string;
  transcript: string;
}

/** The view's row as read beforehand, in another statement's transaction (a claim reads it with its COMMIT); `row` undefined: no such assignment. */
export interface PrereadView {
  row: ViewRow | undefined;
  withStored: boolean;
}

/**
 * The view's one statement (every claim answers this view): the assignment, its item, task,
 * campaign, rubric and the reviewer's current label, and (withStored: the API's view, which
 * answers whole props) each trajectory's current stored props under the campaign's pacing and
 * blind mask (lib/video/queries/video-props.ts's one rule of fresh), so a claim needs no second read.
 * On `run`: the pool, or a transaction's statement runner.
 */
export async function readAssignmentViewRow(run: SqlRun, assignmentId: string, withStored: boolean): Promise<PrereadView> {
  const [row] = await run<ViewRow>(
    `SELECT a.id, a."reviewerId", a.status::text AS status, a."claimedAt", a."leaseExpiresAt", a."swapSides",
           ci."trajectoryId", ci."trajectoryBId",
           tk.name AS "taskName", tk.instruction, tk."acceptanceCriteria", e.name AS "environment",
           c.id AS "campaignId", c."projectId", c.name AS "campaignName", c.mode::text AS mode, c.status::text AS "campaignStatus", c."minCoverage",
           c."coverageBasis"::text AS "coverageBasis", c.blind, c.pacing::text AS pacing, c."readingWpm", a.progress,
           rv.id AS "rubricVersionId", rv.version AS "rubricVersion", rv.definition,
           r.revision AS "reviewRevision", r.answers AS "reviewAnswers", r.evidence AS "reviewEvidence", r."submittedAt" AS "reviewSubmittedAt",
           pc.revision AS "comparisonRevision", pc.preference, pc."bothBad", pc.rationale, pc.criteria AS "comparisonCriteria",
           pc."submittedAt" AS "comparisonSubmittedAt",
           bm.mask AS "storedMask", sa.props AS "storedPropsA", sa.transcript AS "storedTranscriptA",
           sb.props AS "storedPropsB", sb.transcript AS "storedTranscriptB"
    FROM assignment a
    JOIN campaign_item ci ON ci.id = a."campaignItemId"
    JOIN trajectory t ON t.id = ci."trajectoryId"
    JOIN task tk ON tk.id = t."taskId"
    LEFT JOIN environment e ON e.id = tk."environmentId"
    JOIN campaign c ON c.id = ci."campaignId"
    JOIN rubric_version rv ON rv.id = c."rubricVersionId"
    -- only this assignment's rows: they are the reviewer's own by construction
    LEFT JOIN LATERAL (SELECT * FROM review WHERE "assignmentId" = a.id AND "isCurrent" LIMIT 1) r ON true
    LEFT JOIN LATERAL (SELECT * FROM pairwise_comparison WHERE "assignmentId" = a.id AND "isCurrent" LIMIT 1) pc ON true
    CROSS JOIN LATERAL (SELECT ${BLIND_MASK_SQL} AS mask) bm
    LEFT JOIN LATERAL (SELECT vp.props, vp.transcript ${currentInputsAndRow('ci."trajectoryId"', '$2', 'c.pacing', 'bm.mask')} WHERE $3::boolean) sa ON true
    LEFT JOIN LATERAL (SELECT vp.props, vp.transcript ${currentInputsAndRow('ci."trajectoryBId"', '$2', 'c.pacing', 'bm.mask')} WHERE $3::boolean) sb ON true
    WHERE a.id = $1`,
    [assignmentId, String(VIDEO_PROPS_VERSION), withStored],
  );
  return { row, withStored };
}

/** The trajectories of an assignment in item order, its owner, its screen order and its campaign's pacing and blind column; null: no such assignment. */
export async function findAssignmentTrajectories(assignmentId: string): Promise<{
  reviewerId: string;
  swapSides: boolean;
  trajectoryId: string;
  trajectoryBId: string | null;
  pacing: Pacing;
  blind: Prisma.JsonValue;
} | null> {
  const a = await db().assignment.findUnique({
    where: { id: assignmentId },
    select: {
      reviewerId: true,
      swapSides: true,
      item: { select: { trajectoryId: true, trajectoryBId: true, campaign: { select: { pacing: true, blind: true } } } },
    },
  });
  if (!a) return null;
  return {
    reviewerId: a.reviewerId,
    swapSides: a.swapSides,
    trajectoryId: a.item.trajectoryId,
    trajectoryBId: a.item.trajectoryBId,
    pacing: a.item.campaign.pacing,
    blind: a.item.campaign.blind,
  };
}
