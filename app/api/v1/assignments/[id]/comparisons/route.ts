import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { submitComparison, submitComparisonInput } from '@/lib/review/submit-comparison';
import { parseInput } from '@/lib/parse-input';
import { readJsonBody } from '../../../../../_server/read-body';
import { apiRoute } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

const body = submitComparisonInput.omit({ assignmentId: true });

/**
 * POST /api/v1/assignments/ID/comparisons `{ preference (-2 left much better … 2 right much
 * better), bothBad, rationale, criteria: {left, right}, evidence, coverage: {left, right},
 * idempotencyKey }` in screen terms (left/right as the assignment view lists the videos).
 * 201 new, 200 replay of the same key; 422 bad input or too little watched; 404 not yours.
 */
export const POST = apiRoute('review', async (request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const raw = await readJsonBody(request); // the size limit first (413), then membership (404), then the body's shape (422)
  await requireProjectRoleFor(user, 'assignment', id, 'reviewer');
  const input = parseInput(body, raw, 'body');
  const row = await submitComparison(user.id, { ...input, assignmentId: id }, new Date());
  return Response.json({ comparison: { id: row.id, revision: row.revision } }, { status: row.duplicate ? 200 : 201 });
});
