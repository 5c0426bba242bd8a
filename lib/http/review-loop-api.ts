import { claimNextItem } from '@/lib/review/claim-next-item';
import { submitComparisonBody } from '@/lib/review/submit-comparison';
import { submitReviewBody } from '@/lib/review/submit-review';
import { viewAssignment } from '@/lib/review/view-assignment';
import { claimAnswer, comparisonWrittenAnswer, reviewWrittenAnswer } from '@/lib/review/review-api-schemas';
import { shaped } from './openapi/contract-answer';
import { apiHandler, emptyAnswer, jsonAnswerOf } from './api-edge';
import { JSON_BODY_MAX_BYTES, parseJsonBytes } from './read-body';

/**
 * The review loop's public API handlers, the routes a reviewer calls on every review. Each is
 * served by its route.ts through Next (`nextRoute`, app/_server/api-route.ts) and, under `witness start`, by the start
 * server itself before Next's request layer (lib/http/fast-lane.ts): one implementation,
 * framework-free (api-edge.ts), so both answer alike.
 */

/**
 * POST /api/v1/campaigns/ID/assignments: claim the caller's next item of the campaign.
 * 201 with `{ assignment: <blind view>, resumed }` (a live claim of the caller comes back,
 * resumed), or 204 when nothing is left for them. 403 without the campaign's expertise, 409
 * when the campaign is not open; 404 for a campaign of a project the caller does not review in.
 */
export const claimAssignment = apiHandler('review', async (_request, user, { id }: { id: string }) => {
  // the caller's membership is checked in the claim's first statement (it reads the campaign's project anyway); the
  // view's row is read with the claim's COMMIT (one round trip fewer than reading it after)
  const claim = await claimNextItem(id, user, new Date(), { withView: true });
  if (!claim) return emptyAnswer(204);
  return jsonAnswerOf(
    shaped(claimAnswer, { assignment: await viewAssignment(claim.assignmentId, user.id, { preread: claim.view }), resumed: claim.resumed }),
    { status: 201 },
  );
});

/**
 * POST /api/v1/assignments/ID/reviews `{ answers, evidence, coverage, idempotencyKey, durationSec }`:
 * submit (or revise) the caller's review. 201 `{ review: { id, revision } }` when new (with `reopened: true` when the
 * revision superseded the lead's decision on the item: back in the lead's queue), 200 when
 * the key was already used (a retry). 422 when the answers do not fit the rubric or the
 * coverage is below the campaign's minimum; 404 for another reviewer's assignment; 409 closed.
 */
export const submitReview = apiHandler('review', async (request, user, { id }: { id: string }) => {
  // the size limit first (413), then the assignment is the caller's in a project they review in (404), then the body's shape (422)
  const raw = parseJsonBytes(await request.body(JSON_BODY_MAX_BYTES));
  const review = await submitReviewBody(user, id, raw, new Date());
  // reopened: this revision superseded the lead's decision on the item (it is back in the lead's queue)
  const reopened = review.reopened ? { reopened: true as const } : {};
  return jsonAnswerOf(shaped(reviewWrittenAnswer, { review: { id: review.id, revision: review.revision, ...reopened } }), {
    status: review.duplicate ? 200 : 201,
  });
});

/**
 * POST /api/v1/assignments/ID/comparisons `{ preference (-2 left much better … 2 right much
 * better), bothBad, rationale, criteria: {left, right}, evidence, coverage: {left, right},
 * idempotencyKey }` in screen terms (left/right as the assignment view lists the videos).
 * 201 new, 200 replay of the same key; 422 bad input or too little watched; 404 not yours.
 */
export const submitComparison = apiHandler('review', async (request, user, { id }: { id: string }) => {
  const raw = parseJsonBytes(await request.body(JSON_BODY_MAX_BYTES));
  const row = await submitComparisonBody(user, id, raw, new Date());
  const reopened = row.reopened ? { reopened: true as const } : {};
  return jsonAnswerOf(shaped(comparisonWrittenAnswer, { comparison: { id: row.id, revision: row.revision, ...reopened } }), {
    status: row.duplicate ? 200 : 201,
  });
});
