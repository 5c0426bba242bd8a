import { shaped } from '@/lib/http/openapi/contract-answer';
import { parseInput } from '@/lib/parse-input';
import { trainingRunViewSchema, viewTrainingRunQuery } from '@/lib/training/training-run-schemas';
import { viewTrainingRun } from '@/lib/training/view-training-run';
import { apiRoute } from '../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/** GET /api/v1/training-runs/:id[?metrics=0]: the run (status, attempts, log tail, checkpoint, label set, metric points). */
export const GET = apiRoute('lead', async (request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const query = parseInput(viewTrainingRunQuery, Object.fromEntries(new URL(request.url).searchParams), 'query parameter');
  const run = await viewTrainingRun(user, id, { metrics: query.metrics !== '0' });
  return Response.json(shaped(trainingRunViewSchema, run), { headers: { 'cache-control': 'no-store' } });
});
