import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { submitReviewInput, submitReview } from '@/lib/review/submit-review';
import { parseInput } from '@/lib/parse-input';
import { readJsonBody } from '../../../../../_server/read-body';
import { apiRoute } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

const body = submitReviewInput.omit({ assignmentId: true });

/**
 * POST /api/v1/assignments/ID/reviews `{ answers, evidence, coverage, idempotencyKey, durationSec }`:
 * submit (or revise) the caller's review. 201 `{ review: { id, revision } }` when new, 200 when
 * the key was already used (a retry). 422 when the answers do not fit the rubric or the
 * coverage is below the campaign's minimum; 404 for another reviewer's assignment; 409 closed.
 */
export const POST = apiRoute('review', async (request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const raw = await readJsonBody(request); // the size limit first (413), then membership (404), then the body's shape (422)
  await requireProjectRoleFor(user, 'assignment', id, 'reviewer');
  const input = parseInput(body, raw, 'body');
  const review = await submitReview(user.id, { ...input, assignmentId: id }, new Date());
  return Response.json({ review: { id: review.id, revision: review.revision } }, { status: review.duplicate ? 200 : 201 });
});
