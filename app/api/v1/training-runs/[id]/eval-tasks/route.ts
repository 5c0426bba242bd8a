import { listEvalTasks } from '@/lib/training/list-eval-tasks';
import { apiRoute } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/** GET /api/v1/training-runs/:id/eval-tasks: the project's eval-split tasks, one {"task","instruction","criteria"} a line (NDJSON). */
export const GET = apiRoute('lead', async (_request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const tasks = await listEvalTasks(user, id);
  return new Response(tasks.map((t) => JSON.stringify(t) + '\n').join(''), {
    headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' },
  });
});
