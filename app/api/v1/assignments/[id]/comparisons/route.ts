import { submitComparisonBody } from '@/lib/review/submit-comparison';
import { readJsonBody } from '../../../../../_server/read-body';
import { apiRoute, jsonAnswer } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/**
 * POST /api/v1/assignments/ID/comparisons `{ preference (-2 left much better … 2 right much
 * better), bothBad, rationale, criteria: {left, right}, evidence, coverage: {left, right},
 * idempotencyKey }` in screen terms (left/right as the assignment view lists the videos).
 * 201 new, 200 replay of the same key; 422 bad input or too little watched; 404 not yours.
 */
export const POST = apiRoute('review', async (request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  // the size limit first (413), then the assignment is the caller's in a project they review in (404), then the body's shape (422)
  const raw = await readJsonBody(request);
  const row = await submitComparisonBody(user, id, raw, new Date());
  return jsonAnswer({ comparison: { id: row.id, revision: row.revision } }, { status: row.duplicate ? 200 : 201 });
});
