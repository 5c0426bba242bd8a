import { z } from 'zod';
import { parseCriteria } from '../../formats/criteria';
import type { CoverageBasis } from '../coverage';
import { evidenceList, type EvidenceNote } from '../evidence';
import { rubricDefinition, type RubricDefinition } from '../rubric';
import { requireProjectRole, type ProjectAccess } from '../../auth/project-access';
import { AppError } from '../../errors';
import { VIDEO_PROPS_VERSION, type TrajectoryVideoProps } from '../../video/schema';
import type { TranscriptStep } from '../../video/transcript';
import { db } from '../../db/client';
import { sql, type SqlRun } from '../../db/sql';
import { currentInputsAndRow } from '../../video/queries/video-props';
import type { Pacing } from '../../video/pacing';

export const blindSettings = z
  .object({ hidePolicy: z.boolean().default(true), hideReward: z.boolean().default(true) })
  .catch({ hidePolicy: true, hideReward: true });
export type BlindSettings = z.infer<typeof blindSettings>;

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
  };
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

const verdicts = z.record(z.string(), z.string()).catch({});

interface ViewRow {
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
           c."coverageBasis"::text AS "coverageBasis", c.blind, c.pacing::text AS pacing,
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

/**
 * The blind view of `assignmentId` for `reviewerId`; NOT_FOUND when it is not theirs (never
 * says whose it is), or, with `access` (the caller's), when its campaign's project is not one
 * they review in: checked on the view's own statement. The videos and transcripts come from
 * `videoOf` (the stored props). `preread`: the statement's row, read already (by the claim).
 */
export async function assignmentView(
  assignmentId: string,
  reviewerId: string,
  videoOf: VideoLookup,
  access?: ProjectAccess,
  withStored = false,
  preread?: PrereadView,
): Promise<AssignmentView> {
  if (preread && preread.withStored !== withStored) throw new Error('assignmentView: the preread row was read with another withStored');
  const { row } = preread ?? (await readAssignmentViewRow(sql, assignmentId, withStored));
  const a = row && {
    id: row.id,
    reviewerId: row.reviewerId,
    status: row.status,
    claimedAt: row.claimedAt,
    leaseExpiresAt: row.leaseExpiresAt,
    swapSides: row.swapSides,
    item: {
      trajectoryId: row.trajectoryId,
      trajectoryBId: row.trajectoryBId,
      trajectory: {
        task: {
          name: row.taskName,
          instruction: row.instruction,
          acceptanceCriteria: row.acceptanceCriteria,
          environment: row.environment === null ? null : { name: row.environment },
        },
      },
      campaign: {
        id: row.campaignId,
        name: row.campaignName,
        mode: row.mode,
        status: row.campaignStatus,
        minCoverage: row.minCoverage,
        coverageBasis: row.coverageBasis,
        blind: row.blind,
        pacing: row.pacing,
        rubricVersion: { id: row.rubricVersionId, version: row.rubricVersion, definition: row.definition },
      },
    },
    reviews:
      row.reviewRevision === null
        ? []
        : [{ revision: row.reviewRevision, answers: row.reviewAnswers, evidence: row.reviewEvidence, submittedAt: row.reviewSubmittedAt! }],
    comparisons:
      row.comparisonRevision === null
        ? []
        : [
            {
              revision: row.comparisonRevision,
              preference: row.preference!,
              bothBad: row.bothBad!,
              rationale: row.rationale!,
              criteria: row.comparisonCriteria,
              submittedAt: row.comparisonSubmittedAt!,
            },
          ],
  };
  if (!a || a.reviewerId !== reviewerId) throw new AppError('NOT_FOUND', 'No such assignment');
  if (access) requireProjectRole(access, row!.projectId, 'reviewer', 'assignment');
  const { campaign } = a.item;
  const blind = blindSettings.parse(campaign.blind);

  const ids = campaign.mode === 'pairwise' && a.item.trajectoryBId ? [a.item.trajectoryId, a.item.trajectoryBId] : [a.item.trajectoryId];
  const pacing = campaign.pacing;
  const stored = (props: string | null, transcript: string | null): StoredVideoTexts | null =>
    props !== null && transcript !== null ? { blindMask: row!.storedMask, props, transcript } : null;
  const storedOf = [stored(row!.storedPropsA, row!.storedTranscriptA), stored(row!.storedPropsB, row!.storedTranscriptB)];
  const seen = await Promise.all(ids.map((id, i) => videoOf(id, blind, pacing, storedOf[i] ?? null)));
  const videos = seen.map((v) => v.props);
  const transcripts = seen.map((v) => v.transcript);
  if (campaign.mode === 'pairwise' && a.swapSides) {
    videos.reverse();
    transcripts.reverse();
  }

  const { task } = a.item.trajectory;
  const criteria = parseCriteria(task.acceptanceCriteria);
  const review = a.reviews[0];
  const comparison = a.comparisons[0];
  let myComparison: AssignmentView['myComparison'] = null;
  if (comparison) {
    const stored = z
      .object({ a: verdicts, b: verdicts, evidence: evidenceList.catch([]) })
      .catch({ a: {}, b: {}, evidence: [] })
      .parse(comparison.criteria);
    const evidence = stored.evidence.map((e) =>
      e.side && a.swapSides ? { ...e, side: e.side === 'a' ? ('b' as const) : ('a' as const) } : e,
    );
    myComparison = {
      revision: comparison.revision,
      preference: a.swapSides ? -comparison.preference : comparison.preference,
      bothBad: comparison.bothBad,
      rationale: comparison.rationale,
      criteria: a.swapSides ? { left: stored.b, right: stored.a } : { left: stored.a, right: stored.b },
      evidence,
      submittedAt: comparison.submittedAt.toISOString(),
    };
  }
  return {
    assignment: { id: a.id, status: a.status, claimedAt: a.claimedAt.toISOString(), leaseExpiresAt: a.leaseExpiresAt.toISOString() },
    campaign: {
      id: campaign.id,
      name: campaign.name,
      mode: campaign.mode,
      status: campaign.status,
      minCoverage: campaign.minCoverage,
      coverageBasis: campaign.coverageBasis,
      blind,
      pacing,
    },
    rubric: {
      versionId: campaign.rubricVersion.id,
      version: campaign.rubricVersion.version,
      definition: rubricDefinition.parse(campaign.rubricVersion.definition),
    },
    task: {
      name: task.name,
      instruction: task.instruction,
      environment: task.environment?.name ?? null,
      criteria: criteria.map((c) => ({ key: c.key, text: c.text, verdict: blind.hideReward ? null : c.verdict })),
    },
    videos,
    transcripts,
    myReview: review
      ? {
          revision: review.revision,
          answers: (review.answers ?? {}) as Record<string, unknown>,
          evidence: evidenceList.catch([]).parse(review.evidence),
          submittedAt: review.submittedAt.toISOString(),
        }
      : null,
    myComparison,
  };
}

/**
 * The trajectories of the reviewer's own assignment, in screen order (pairwise: [left, right]),
 * the pacing their videos are shown at and the campaign's blind settings; NOT_FOUND when not theirs.
 */
export async function assignmentTrajectoryIds(
  assignmentId: string,
  reviewerId: string,
): Promise<{ ids: string[]; pacing: Pacing; blind: BlindSettings }> {
  const a = await db().assignment.findUnique({
    where: { id: assignmentId },
    select: {
      reviewerId: true,
      swapSides: true,
      item: { select: { trajectoryId: true, trajectoryBId: true, campaign: { select: { pacing: true, blind: true } } } },
    },
  });
  if (!a || a.reviewerId !== reviewerId) throw new AppError('NOT_FOUND', 'No such assignment');
  const ids = a.item.trajectoryBId ? [a.item.trajectoryId, a.item.trajectoryBId] : [a.item.trajectoryId];
  return { ids: a.swapSides ? ids.reverse() : ids, pacing: a.item.campaign.pacing, blind: blindSettings.parse(a.item.campaign.blind) };
}
