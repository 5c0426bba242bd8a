import { viewAssignment } from '@/lib/review/view-assignment';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { assignmentAnswer } from '@/lib/review/review-api-schemas';
import { apiRoute, jsonAnswer } from '../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/assignments/ID: the caller's own assignment as a reviewer sees it (task,
 * criteria, blind video props, rubric, their current answer). 404 for anyone else's.
 */
export const GET = apiRoute('review', async (_request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  // the membership is checked on the view's own statement (one round trip, no Prisma)
  return jsonAnswer(shaped(assignmentAnswer, { assignment: await viewAssignment(id, user.id, { access: user.access }) }));
});
