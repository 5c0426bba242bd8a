import { canAccess } from '@/lib/auth/roles';
import { listReviews, listReviewsInput } from '@/lib/db/review/review-list';
import { AppError } from '@/lib/errors';
import { apiRoute } from '../../../_server/api-route';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/reviews?campaignId=ID[&limit=100&cursor=REVIEW_ID]: current reviews of a
 * campaign, newest first. A reviewer sees only their own; leads and admins see everyone's.
 */
export const GET = apiRoute('review', async (request, user) => {
  const query = listReviewsInput.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) {
    const issue = query.error.issues[0]!;
    throw new AppError('BAD_INPUT', `query parameter ${issue.path.join('.')}: ${issue.message}`);
  }
  return Response.json(await listReviews(query.data, canAccess(user.role, 'lead') ? null : user.id));
});
