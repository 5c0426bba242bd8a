import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { requireProjectRole } from '../auth/project-access';
import { writeAudit } from '../auth/queries/audit';
import type { SessionUser } from '../auth/session-user';
import { AppError } from '../errors';
import { parseCriteria } from '../formats/criteria';
import { parseInput } from '../parse-input';
import { agentModel, agentOf, agentOrder, agentStepCounts } from './agent-reviewer';
import type { AssignmentView } from './queries/assignment-view';
import { claimAgentSlot, readAgentCampaign, type AgentClaimRow } from './queries/agent-reviews';
import { rubricDefinition } from './rubric';

export const claimAgentItemInput = z.object({ campaignId: z.string().min(1), model: agentModel });
export type ClaimAgentItemInput = z.input<typeof claimAgentItemInput>;

export interface AgentClaimView {
  claimId: string;
  campaignId: string;
  itemId: string;
  kind: 'single' | 'pairwise';
  /** the blind order the agent sees: [A] or [A, B]; ids the transcript/still tools accept with this claimId */
  trajectoryIds: string[];
  /** the campaign's current rubric as the review page shows it (lib/review/view-assignment.ts) */
  rubric: AssignmentView['rubric'];
  /** steps of each trajectory, in `trajectoryIds` order */
  stepCounts: number[];
  /** the task's acceptance criteria: the keys a `criteria` answer (single) or a comparison's `criteria.left`/`right` takes */
  criteria: { key: string; text: string }[];
  /** when the claim lapses (a lapsed claim without a review can be claimed again, renewed) */
  expiresAt: string;
  /** true when this was the agent's open claim, handed back */
  resumed: boolean;
}

/** The agent's view of a claim: blind order, rubric, step counts and criteria (never the policy or the reward). */
export function agentClaimView(row: AgentClaimRow, resumed: boolean): AgentClaimView {
  const version = row.campaign.rubricVersion;
  return {
    claimId: row.id,
    campaignId: row.campaignId,
    itemId: row.campaignItemId,
    kind: row.campaign.mode,
    trajectoryIds: agentOrder(row),
    rubric: { versionId: version.id, version: version.version, definition: rubricDefinition.parse(version.definition) },
    stepCounts: agentStepCounts(row),
    criteria: parseCriteria(row.item.trajectory.task.acceptanceCriteria).map((c) => ({ key: c.key, text: c.text })),
    expiresAt: row.expiresAt.toISOString(),
    resumed,
  };
}

/**
 * Hands an agent reviewer (the caller's API token, or the caller without one, and the model it
 * names) the next item of an open campaign it has not reviewed, or its open claim again; null
 * when nothing is left for it (every selected item reviewed by this agent and model) or the
 * campaign is not open. The caller must review in the campaign's project (reviewers and leads;
 * else NOT_FOUND, as if absent). The human queue is untouched: no assignment, no slot of the
 * overlap k, no change to the item's counts; the campaign's required expertise and the
 * self-review rule are human rules and do not apply. Items come in the campaign's queue-rank
 * order; a pairwise claim draws which side the agent is shown first. Audited `agent.claim`.
 */
export async function claimAgentItem(user: SessionUser, raw: ClaimAgentItemInput, now = new Date()): Promise<AgentClaimView | null> {
  const input = parseInput(claimAgentItemInput, raw, '');
  const campaign = await readAgentCampaign(input.campaignId);
  if (!campaign) throw new AppError('NOT_FOUND', 'No such campaign');
  requireProjectRole(user.access, campaign.projectId, 'reviewer', 'campaign');
  if (campaign.status !== 'open') return null;
  const { tokenId, agentKey } = agentOf(user);
  const claimed = await claimAgentSlot(
    {
      campaignId: campaign.id,
      userId: user.id,
      tokenId,
      agentKey,
      model: input.model,
      now,
      expiresAt: new Date(now.getTime() + campaign.leaseSeconds * 1000),
      swapSides: campaign.mode === 'pairwise' ? randomInt(2) === 1 : false,
    },
    (tx, claim) =>
      writeAudit(tx, {
        actorId: user.id,
        action: 'agent.claim',
        targetType: 'agent_claim',
        targetId: claim.id,
        projectId: campaign.projectId,
        data: { campaignId: campaign.id, campaignItemId: claim.campaignItemId, model: input.model, tokenId },
      }),
  );
  return claimed && agentClaimView(claimed.row, claimed.resumed);
}
