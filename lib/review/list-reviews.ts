import { z } from 'zod';
import { currentReviewsPage } from './queries/review-list';

export const listReviewsInput = z.object({
  campaignId: z.string().min(1).max(64),
  cursor: z.string().min(1).max(64).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type ListReviewsInput = z.infer<typeof listReviewsInput>;

/**
 * Current reviews of a campaign, newest first, paged by id cursor. `reviewerId` limits the list
 * to one reviewer's own (what a reviewer may see); leads pass null and see everyone's. The edge
 * parses `input` with listReviewsInput and checks the caller's role in the campaign's project.
 */
export function listReviews(input: ListReviewsInput, reviewerId: string | null) {
  return currentReviewsPage(input, reviewerId);
}
