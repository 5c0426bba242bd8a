import { readJsonBody } from '@/lib/http/read-body';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { recordTrainingEvents } from '@/lib/training/record-training-events';
import { EVENTS_BODY_MAX_BYTES, trainingEventsAnswer } from '@/lib/training/training-run-schemas';
import { apiRoute } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/**
 * POST /api/v1/training-runs/:id/events {leaseToken, key, logs?, metrics?}: a batch of log lines and
 * metric points (≤ 5,000 lines, ≤ 50,000 points, ≤ 16 MiB), once per key (a repeat: duplicate:true).
 */
export const POST = apiRoute('lead', async (request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const answer = await recordTrainingEvents(user, id, await readJsonBody(request, EVENTS_BODY_MAX_BYTES));
  return Response.json(shaped(trainingEventsAnswer, answer), { headers: { 'cache-control': 'no-store' } });
});
