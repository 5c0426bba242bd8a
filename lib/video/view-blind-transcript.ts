import { requireProjectRoleFor } from '../auth/require-project-role';
import type { SessionUser } from '../auth/session-user';
import { AppError } from '../errors';
import { agentOrder, requireOwnAgentClaim } from '../review/agent-reviewer';
import { blindSettings, type BlindSettings } from '../review/blind-settings';
import { choosePacing } from './choose-pacing';
import type { Pacing } from './pacing';
import { campaignBlindSource } from './queries/blind-source';
import { trajectoryVideo, type TrajectoryVideo } from './video-props-for';

/** Where a blind read comes from: an agent's claim, a campaign a lead names, or (a lead) the trajectory alone. */
export interface BlindReadOf {
  trajectoryId: string;
  /** an agent reviewer's claim (lib/review/claim-agent-item.ts): the trajectory must be one of it */
  claimId?: string;
  /** a campaign of the caller's (lead): its blind settings and pacing */
  campaignId?: string;
}

/**
 * A trajectory's blind transcript and video measure (steps to frames) as a campaign's reviewers
 * see them: the review page's blind view (lib/video/transcript.ts under the campaign's blind
 * settings, the stored props when derived, else derived and stored now). With a claim: the
 * caller's own agent claim (else NOT_FOUND) and one of its trajectories, under its campaign's
 * settings. With a campaign: a lead of it, and one of its items' trajectories. Alone: a lead of
 * the trajectory's project, with policy and reward both hidden. NOT_FOUND as if absent otherwise.
 */
export async function viewBlindTranscript(
  user: SessionUser,
  of: BlindReadOf,
): Promise<TrajectoryVideo & { blind: BlindSettings; pacing: Pacing; campaignId: string | null }> {
  let campaignId = of.campaignId ?? null;
  if (of.claimId !== undefined) {
    const claim = await requireOwnAgentClaim(user, of.claimId);
    if (!agentOrder(claim).includes(of.trajectoryId)) throw new AppError('NOT_FOUND', 'No such trajectory on this claim');
    if (campaignId !== null && campaignId !== claim.campaignId)
      throw new AppError('BAD_INPUT', 'campaignId: this claim is of another campaign (leave it out with a claimId)', {
        details: { field: 'campaignId' },
      });
    campaignId = claim.campaignId;
  } else if (campaignId !== null) {
    await requireProjectRoleFor(user, 'campaign', campaignId, 'lead');
  } else {
    await requireProjectRoleFor(user, 'trajectory', of.trajectoryId, 'lead');
  }
  let blind: BlindSettings = { hidePolicy: true, hideReward: true };
  let pacing: Pacing;
  if (campaignId !== null) {
    const source = await campaignBlindSource(campaignId, of.trajectoryId);
    if (!source) throw new AppError('NOT_FOUND', 'No such campaign');
    if (!source.isItem) throw new AppError('NOT_FOUND', 'No such trajectory in this campaign');
    blind = blindSettings.parse(source.blind);
    pacing = source.pacing;
  } else pacing = await choosePacing(of.trajectoryId);
  const video = await trajectoryVideo(of.trajectoryId, { blind, pacing });
  return { ...video, blind, pacing, campaignId };
}
