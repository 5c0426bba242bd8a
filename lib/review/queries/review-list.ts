import { db } from '../../db/client';

/** A page of a campaign's current reviews: after `cursor` (a review id), at most `limit`. */
export interface ReviewsPage {
  campaignId: string;
  cursor?: string;
  limit: number;
}

/**
 * Current reviews of a campaign, newest first, paged by id cursor. `reviewerId` limits the list
 * to one reviewer's own; null: everyone's (the use-case, lib/review/list-reviews.ts, decides which).
 */
export async function currentReviewsPage(input: ReviewsPage, reviewerId: string | null) {
  const rows = await db().review.findMany({
    where: { item: { campaignId: input.campaignId }, isCurrent: true, ...(reviewerId ? { reviewerId } : {}) },
    select: {
      id: true,
      assignmentId: true,
      campaignItemId: true,
      reviewerId: true,
      rubricVersionId: true,
      revision: true,
      answers: true,
      evidence: true,
      coverage: true,
      durationSec: true,
      submittedAt: true,
    },
    orderBy: [{ submittedAt: 'desc' }, { id: 'desc' }],
    take: input.limit + 1,
    ...(input.cursor ? { cursor: { id: input.cursor }, skip: 1 } : {}),
  });
  const page = rows.slice(0, input.limit);
  return { reviews: page, nextCursor: rows.length > input.limit ? page[page.length - 1]!.id : null };
}

/** The reviewer's own submitted items, newest first, for revising while their campaign is open. */
export async function myRecentWork(reviewerId: string, projectIds: string[] | null, limit = 10) {
  const rows = await db().assignment.findMany({
    where: { reviewerId, status: 'submitted', ...(projectIds === null ? {} : { item: { campaign: { projectId: { in: projectIds } } } }) },
    select: {
      id: true,
      finishedAt: true,
      item: {
        select: {
          campaign: { select: { id: true, name: true, mode: true, status: true } },
          trajectory: { select: { task: { select: { name: true } } } },
        },
      },
    },
    orderBy: [{ finishedAt: 'desc' }, { id: 'desc' }],
    take: limit,
  });
  return rows.map((r) => ({
    assignmentId: r.id,
    finishedAt: r.finishedAt,
    campaign: r.item.campaign,
    task: r.item.trajectory.task.name,
  }));
}
