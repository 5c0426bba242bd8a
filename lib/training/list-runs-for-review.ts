import type { SessionUser } from '../auth/session-user';
import { requireProjectRole } from '../auth/project-access';
import { itemProject, runsForItem } from './queries/hill-climb';

export interface RunOfReview {
  id: string;
  status: string;
  recipe: string;
  basePolicy: string;
  checkpointName: string | null;
  createdAt: string;
  /** the review (or comparison) revisions of the item it trained on, with their reviewers; stale: revised since */
  reviews: { reviewId: string; reviewerId: string; stale: boolean }[];
  stale: number;
}

/**
 * The training runs that trained on an item's reviews (any revision), newest first: the lead's
 * view of a review links to them, and a review revised after a run shows as stale on it. Leads
 * and admins of the item's project; NOT_FOUND otherwise.
 */
export async function listRunsForReview(user: SessionUser, campaignItemId: string): Promise<RunOfReview[]> {
  requireProjectRole(user.access, await itemProject(campaignItemId), 'lead', 'campaign item');
  const runs = new Map<string, RunOfReview>();
  for (const row of await runsForItem(campaignItemId)) {
    const run =
      runs.get(row.runId) ??
      runs
        .set(row.runId, {
          id: row.runId,
          status: row.status,
          recipe: row.recipe,
          basePolicy: row.basePolicy,
          checkpointName: row.checkpointName,
          createdAt: row.createdAt.toISOString(),
          reviews: [],
          stale: 0,
        })
        .get(row.runId)!;
    run.reviews.push({ reviewId: row.reviewId, reviewerId: row.reviewerId, stale: row.stale });
    if (row.stale) run.stale += 1;
  }
  return [...runs.values()];
}
