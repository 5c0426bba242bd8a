import { z } from 'zod';
import { requireProjectRole } from '../auth/project-access';
import type { SessionUser } from '../auth/session-user';
import { AppError } from '../errors';
import { findAgentClaim, type AgentClaimRow } from './queries/agent-reviews';

/**
 * Who an agent reviewer is (lib/review/claim-agent-item.ts and the use-cases beside it): the API
 * token it called with, or its user when there is none (a browser session), and the model it
 * names. An agent is never a human reviewer: its claims and reviews live in agent_claim and
 * agent_review, apart from the human queue.
 */
export const agentModel = z
  .string()
  .trim()
  .min(1, 'name the model reviewing, e.g. claude-sonnet-4')
  .max(100)
  .regex(/^[^\s\p{Cc}]+$/u, 'a model name has no spaces or control characters');

/** The agent's identity: "token:<id>" when the caller used an API token, else "user:<id>". */
export function agentOf(user: SessionUser): { tokenId: string | null; agentKey: string } {
  const tokenId = user.token?.id ?? null;
  return { tokenId, agentKey: tokenId ? `token:${tokenId}` : `user:${user.id}` };
}

/** The rater name an agent model's reviews take beside humans and judges (agreement with agents, the estimates' judge sources). */
export function agentSource(model: string): string {
  return `agent:${model}`;
}

/**
 * The caller's own claim (same agent: token, or user without one), in a project where they
 * review: else NOT_FOUND, whatever else comes with it, so claim ids of others tell nothing.
 * A claim for another model than `model` is BAD_INPUT.
 */
export async function requireOwnAgentClaim(user: SessionUser, claimId: string, model?: string): Promise<AgentClaimRow> {
  const claim = await findAgentClaim(claimId);
  if (!claim || claim.userId !== user.id || claim.agentKey !== agentOf(user).agentKey)
    throw new AppError('NOT_FOUND', 'No such agent claim');
  requireProjectRole(user.access, claim.campaign.projectId, 'reviewer', 'agent claim');
  if (model !== undefined && claim.model !== model)
    throw new AppError('BAD_INPUT', `model: this claim is for model '${claim.model}', not '${model}'`, { details: { field: 'model' } });
  return claim;
}

/** The claim's trajectories in the agent's blind order: [A] or, pairwise, [A, B] or [B, A] when the claim swapped sides. */
export function agentOrder(claim: Pick<AgentClaimRow, 'swapSides' | 'item'>): string[] {
  const { trajectoryId, trajectoryBId } = claim.item;
  if (!trajectoryBId) return [trajectoryId];
  return claim.swapSides ? [trajectoryBId, trajectoryId] : [trajectoryId, trajectoryBId];
}

/** Step counts in the agent's blind order. */
export function agentStepCounts(claim: Pick<AgentClaimRow, 'swapSides' | 'item'>): number[] {
  const a = claim.item.trajectory.stepCount;
  const b = claim.item.trajectoryB?.stepCount;
  if (b === undefined) return [a];
  return claim.swapSides ? [b, a] : [a, b];
}
