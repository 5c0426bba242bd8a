import { z } from 'zod';
import { hasProjectRole } from '../auth/project-access';
import { requireProjectRoleFor } from '../auth/require-project-role';
import type { SessionUser } from '../auth/session-user';
import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { agentReading, stepsRead } from './agent-reading';
import { agentReviewsPage, isAgentReviewOf } from './queries/agent-reviews';

export const listAgentReviewsInput = z.object({
  campaignId: z.string().min(1),
  cursor: z.string().min(1).optional(),
  limit: z.number().int().min(1).max(200).default(50),
});
export type ListAgentReviewsInput = z.input<typeof listAgentReviewsInput>;

export interface AgentReviewListItem {
  id: string;
  itemId: string;
  /** the item's task (its first trajectory's) */
  task: string;
  model: string;
  /** the API token's name (null: a browser session, or the token was deleted) */
  tokenName: string | null;
  submittedAt: string;
  answers: unknown;
  /** distinct transcript steps the agent fetched on its claim, over the item's trajectories */
  stepsRead: number;
  stillsFetched: number;
}

/**
 * A campaign's current agent reviews (the latest revision of each claim), newest first, paged by
 * an id cursor: for the campaign page's "Agent reviews" section and the MCP tools. A lead of the
 * campaign's project sees every agent's; a reviewer there only their own agents' (as with human
 * reviews: lib/review/list-reviews.ts); anyone else NOT_FOUND. A cursor not of this list is BAD_INPUT.
 */
export async function listAgentReviews(
  user: SessionUser,
  raw: ListAgentReviewsInput,
): Promise<{ reviews: AgentReviewListItem[]; nextCursor: string | null }> {
  const input = parseInput(listAgentReviewsInput, raw, '');
  const projectId = await requireProjectRoleFor(user, 'campaign', input.campaignId, 'reviewer');
  const userId = hasProjectRole(user.access, projectId, 'lead') ? null : user.id;
  if (input.cursor && !(await isAgentReviewOf(input.campaignId, input.cursor, userId)))
    throw new AppError('BAD_INPUT', 'cursor: not a cursor of this list (start again without one)', { details: { field: 'cursor' } });
  const page = await agentReviewsPage({ campaignId: input.campaignId, cursor: input.cursor, limit: input.limit }, userId);
  return {
    reviews: page.rows.map((r) => {
      const reading = agentReading.parse(r.claim.reading);
      return {
        id: r.id,
        itemId: r.campaignItemId,
        task: r.item.trajectory.task.name,
        model: r.model,
        tokenName: r.token?.name ?? null,
        submittedAt: r.submittedAt.toISOString(),
        answers: r.answers,
        stepsRead: stepsRead(reading),
        stillsFetched: reading.stills.length,
      };
    }),
    nextCursor: page.nextCursor,
  };
}
