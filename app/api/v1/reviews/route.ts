import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { roleInProject } from '@/lib/auth/project-access';
import { listReviews, listReviewsInput } from '@/lib/review/list-reviews';
import { apiRoute } from '../../../_server/api-route';
import { parseInput } from '@/lib/parse-input';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/reviews?campaignId=ID[&limit=100&cursor=REVIEW_ID]: current reviews of a
 * campaign, newest first. A reviewer sees only their own; the project's leads and admins see everyone's. 404 for a campaign of another project.
 */
export const GET = apiRoute('review', async (request, user) => {
  const query = parseInput(listReviewsInput, Object.fromEntries(new URL(request.url).searchParams), 'query parameter');
  const projectId = await requireProjectRoleFor(user, 'campaign', query.campaignId, 'reviewer');
  return Response.json(await listReviews(query, roleInProject(user.access, projectId) === 'lead' ? null : user.id));
});
