import { shaped } from '@/lib/http/openapi/contract-answer';
import { cancelTrainingRun } from '@/lib/training/cancel-training-run';
import { trainingRunViewSchema } from '@/lib/training/training-run-schemas';
import { apiRoute } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/** POST /api/v1/training-runs/:id/cancel: a queued run is cancelled; a running one is asked to stop (its agent's heartbeat hears it). */
export const POST = apiRoute('lead', async (_request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const run = await cancelTrainingRun(user, id);
  return Response.json(shaped(trainingRunViewSchema, run), { headers: { 'cache-control': 'no-store' } });
});
