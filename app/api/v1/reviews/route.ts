import { canAccess } from '@/lib/auth/roles';
import { listReviews, listReviewsInput } from '@/lib/db/review/review-list';
import { apiRoute } from '../../../_server/api-route';
import { parseInput } from '@/lib/parse-input';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/reviews?campaignId=ID[&limit=100&cursor=REVIEW_ID]: current reviews of a
 * campaign, newest first. A reviewer sees only their own; leads and admins see everyone's.
 */
export const GET = apiRoute('review', async (request, user) => {
  const query = parseInput(listReviewsInput, Object.fromEntries(new URL(request.url).searchParams), 'query parameter');
  return Response.json(await listReviews(query, canAccess(user.role, 'lead') ? null : user.id));
});
