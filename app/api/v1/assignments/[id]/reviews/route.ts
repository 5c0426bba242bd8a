import { submitReviewBody } from '@/lib/review/submit-review';
import { readJsonBody } from '../../../../../_server/read-body';
import { apiRoute, jsonAnswer } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/**
 * POST /api/v1/assignments/ID/reviews `{ answers, evidence, coverage, idempotencyKey, durationSec }`:
 * submit (or revise) the caller's review. 201 `{ review: { id, revision } }` when new, 200 when
 * the key was already used (a retry). 422 when the answers do not fit the rubric or the
 * coverage is below the campaign's minimum; 404 for another reviewer's assignment; 409 closed.
 */
export const POST = apiRoute('review', async (request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  // the size limit first (413), then the assignment is the caller's in a project they review in (404), then the body's shape (422)
  const raw = await readJsonBody(request);
  const review = await submitReviewBody(user, id, raw, new Date());
  return jsonAnswer({ review: { id: review.id, revision: review.revision } }, { status: review.duplicate ? 200 : 201 });
});
