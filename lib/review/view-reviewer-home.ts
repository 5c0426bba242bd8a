import { myRecentWork } from './queries/review-list';
import { reviewerQueues } from './queries/review-queue';

/**
 * The reviewer's home: the open campaigns they may work on, each with how many items are still
 * open to them and how many they did (lib/review/queries/review-queue.ts), and their `recent`
 * latest submitted items, for revising while the campaign is open. `projectIds`: the projects they
 * review in (null: an admin, every project).
 */
export async function viewReviewerHome(
  reviewer: { id: string; expertise: string[]; projectIds: string[] | null },
  now: Date,
  recent: number,
) {
  const [queues, work] = await Promise.all([reviewerQueues(reviewer, now), myRecentWork(reviewer.id, reviewer.projectIds, recent)]);
  return { queues, recent: work };
}
