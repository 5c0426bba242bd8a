import { readJsonBody } from '@/lib/http/read-body';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { completeTrainingRun } from '@/lib/training/complete-training-run';
import { trainingRunViewSchema } from '@/lib/training/training-run-schemas';
import { apiRoute } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/** POST /api/v1/training-runs/:id/complete {leaseToken, key, outcome, reason?, exitCode?, evalError?}: ends the run, once per key. */
export const POST = apiRoute('lead', async (request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const run = await completeTrainingRun(user, id, await readJsonBody(request));
  return Response.json(shaped(trainingRunViewSchema, run), { headers: { 'cache-control': 'no-store' } });
});
