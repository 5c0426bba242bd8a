import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { skipAssignment } from '@/lib/review/skip-assignment';
import { parseInput } from '@/lib/parse-input';
import { skipBody } from '@/lib/review/review-api-schemas';
import { readJsonBody } from '@/lib/http/read-body';
import { apiRoute } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/** POST /api/v1/assignments/ID/skip `{ reason }`: give the item back; 204. 404 when it is not the caller's open claim. */
export const POST = apiRoute('review', async (request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const raw = await readJsonBody(request); // the size limit first (413), then membership (404), then the body's shape (422)
  await requireProjectRoleFor(user, 'assignment', id, 'reviewer');
  const { reason } = parseInput(skipBody, raw, 'body');
  await skipAssignment(id, user.id, reason, new Date());
  return new Response(null, { status: 204 });
});
