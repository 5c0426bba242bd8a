import { exportAnswer, exportView } from '@/lib/datasets/export-view';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { getExport } from '@/lib/datasets/get-export';
import { AppError } from '@/lib/errors';
import { apiRoute } from '../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/** GET /api/v1/exports/:id: status and progress of a dataset export (the datasets page polls it). */
export const GET = apiRoute('lead', async (_request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const row = await getExport(user, id);
  if (!row) throw new AppError('NOT_FOUND', 'No such export');
  return Response.json(shaped(exportAnswer, { export: exportView(row) }), { headers: { 'cache-control': 'no-store' } });
});
