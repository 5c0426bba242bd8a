import { z } from 'zod';
import { requireProjectRole, type ProjectAccess } from '../auth/project-access';
import { sql } from '../db/sql';
import { earnedOf } from './attention';
import { AppError } from '../errors';
import { parseCriteria } from '../formats/criteria';
import { storedVideoOf, trajectoryVideo } from '../video/video-props-for';
import { blindSettings } from './blind-settings';
import { evidenceList } from './evidence';
import {
  readAssignmentViewRow,
  type AssignmentView,
  type PrereadView,
  type StoredVideoTexts,
  type VideoLookup,
} from './queries/assignment-view';
import { rubricDefinition } from './rubric';

/**
 * The reviewer's blind view of their own assignment (assignmentView below), its videos and
 * transcripts read from the stored props under the campaign's blind mask and pacing
 * (derived and stored on first sight; once stored, read by the view's own statement). NOT_FOUND
 * when the assignment is not theirs, or (with `access`, the caller's) not in a project they review in.
 * `preread`: the view's row as the claim read it with its COMMIT (claimNextItem's `withView`).
 */
export function viewAssignment(
  assignmentId: string,
  reviewerId: string,
  { access, preread }: { access?: ProjectAccess; preread?: PrereadView } = {},
): Promise<AssignmentView> {
  return assignmentView(
    assignmentId,
    reviewerId,
    async (trajectoryId, blind, pacing, stored) => storedVideoOf(stored, blind) ?? (await trajectoryVideo(trajectoryId, { blind, pacing })),
    access,
    true,
    preread,
  );
}

const verdicts = z.record(z.string(), z.string()).catch({});

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
  const earned = ids.map((id) => {
    const run = earnedOf(row!.progress, id);
    return { ranges: run?.ranges ?? [], transcriptSteps: run?.transcriptSteps ?? [] };
  });
  if (campaign.mode === 'pairwise' && a.swapSides) {
    videos.reverse();
    transcripts.reverse();
    earned.reverse();
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
      readingWpm: row!.readingWpm,
    },
    earned,
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
