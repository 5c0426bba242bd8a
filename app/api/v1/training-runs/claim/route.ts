import { shaped } from '@/lib/http/openapi/contract-answer';
import { claimTrainingRun } from '@/lib/training/claim-training-run';
import { claimTrainingRunRequest, trainingRunClaimAnswer } from '@/lib/training/training-run-schemas';
import { apiRoute } from '../../../../_server/api-route';
import { jsonBody } from '../../../../_server/json-body';

export const dynamic = 'force-dynamic';

/**
 * POST /api/v1/training-runs/claim {agent, labels?, waitSeconds?, leaseSeconds?}: a trainer agent
 * claims the oldest queued run it may serve, with a lease (200), or none came within waitSeconds
 * (long-poll, default 20 s): 204. Scope `training` tokens may call it.
 */
export const POST = apiRoute('lead', async (request, user) => {
  const body = await jsonBody(request, claimTrainingRunRequest);
  const claimed = await claimTrainingRun(user, body, { signal: request.signal });
  if (!claimed) return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  return Response.json(shaped(trainingRunClaimAnswer, claimed), { headers: { 'cache-control': 'no-store' } });
});
