import { readJsonBody } from '@/lib/http/read-body';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { heartbeatTrainingRun } from '@/lib/training/heartbeat-training-run';
import { heartbeatAnswer } from '@/lib/training/training-run-schemas';
import { apiRoute } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/** POST /api/v1/training-runs/:id/heartbeat {leaseToken, leaseSeconds?}: renews the lease; says whether a cancel was asked for. 409: lease lost. */
export const POST = apiRoute('lead', async (request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const answer = await heartbeatTrainingRun(user, id, await readJsonBody(request));
  return Response.json(shaped(heartbeatAnswer, answer), { headers: { 'cache-control': 'no-store' } });
});
