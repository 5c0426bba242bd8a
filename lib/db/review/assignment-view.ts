import { z } from 'zod';
import { parseCriteria } from '../../formats/criteria';
import type { CoverageBasis } from '../../review/coverage';
import { evidenceList, type EvidenceNote } from '../../review/evidence';
import { rubricDefinition, type RubricDefinition } from '../../review/rubric';
import { AppError } from '../../errors';
import type { TrajectoryVideoProps } from '../../video/schema';
import type { TranscriptStep } from '../../video/transcript';
import { db } from '../infra/client';
import type { Pacing } from '../../video/pacing';

export const blindSettings = z
  .object({ hidePolicy: z.boolean().default(true), hideReward: z.boolean().default(true) })
  .catch({ hidePolicy: true, hideReward: true });
export type BlindSettings = z.infer<typeof blindSettings>;

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

/** One trajectory's video, blind transcript and coverage measure under a blind setting and pacing (lib/video-renders/video-props-for.ts). */
export type VideoLookup = (
  trajectoryId: string,
  blind: BlindSettings,
  pacing: Pacing,
) => Promise<{ props: TrajectoryVideoProps; transcript: TranscriptStep[] }>;

/**
 * The blind view of `assignmentId` for `reviewerId`; NOT_FOUND when it is not theirs (never
 * says whose it is). The videos and transcripts come from `videoOf` (the stored props).
 */
export async function assignmentView(assignmentId: string, reviewerId: string, videoOf: VideoLookup): Promise<AssignmentView> {
  const a = await db().assignment.findUnique({
    where: { id: assignmentId },
    select: {
      id: true,
      reviewerId: true,
      status: true,
      claimedAt: true,
      leaseExpiresAt: true,
      swapSides: true,
      item: {
        select: {
          trajectoryId: true,
          trajectoryBId: true,
          trajectory: {
            select: {
              task: { select: { name: true, instruction: true, acceptanceCriteria: true, environment: { select: { name: true } } } },
            },
          },
          campaign: {
            select: {
              id: true,
              name: true,
              mode: true,
              status: true,
              minCoverage: true,
              coverageBasis: true,
              blind: true,
              pacing: true,
              rubricVersion: { select: { id: true, version: true, definition: true } },
            },
          },
        },
      },
      // only this assignment's rows: they are the reviewer's own by construction
      reviews: { where: { isCurrent: true }, select: { revision: true, answers: true, evidence: true, submittedAt: true }, take: 1 },
      comparisons: {
        where: { isCurrent: true },
        select: { revision: true, preference: true, bothBad: true, rationale: true, criteria: true, submittedAt: true },
        take: 1,
      },
    },
  });
  if (!a || a.reviewerId !== reviewerId) throw new AppError('NOT_FOUND', 'No such assignment');
  const { campaign } = a.item;
  const blind = blindSettings.parse(campaign.blind);

  const ids = campaign.mode === 'pairwise' && a.item.trajectoryBId ? [a.item.trajectoryId, a.item.trajectoryBId] : [a.item.trajectoryId];
  const pacing = campaign.pacing;
  const seen = await Promise.all(ids.map((id) => videoOf(id, blind, pacing)));
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
