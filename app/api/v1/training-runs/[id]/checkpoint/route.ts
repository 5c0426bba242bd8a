import { readJsonBody } from '@/lib/http/read-body';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { registerCheckpoint } from '@/lib/training/register-checkpoint';
import { checkpointAnswer } from '@/lib/training/training-run-schemas';
import { apiRoute } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/** POST /api/v1/training-runs/:id/checkpoint {leaseToken, key, name?, uri}: registers the checkpoint as a policy (parent: the base), once per key. */
export const POST = apiRoute('lead', async (request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const answer = await registerCheckpoint(user, id, await readJsonBody(request));
  return Response.json(shaped(checkpointAnswer, answer), { headers: { 'cache-control': 'no-store' } });
});
