import { getExport } from '@/lib/datasets/get-export';
import { AppError } from '@/lib/errors';
import { apiRoute } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/** GET /api/v1/exports/:id/card: the dataset card (Markdown). */
export const GET = apiRoute('lead', async (_request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const row = await getExport(user, id);
  if (!row || row.status !== 'done' || !row.card || !row.sha256) throw new AppError('NOT_FOUND', 'This export is not ready');
  return new Response(row.card, {
    headers: {
      'content-type': 'text/markdown; charset=utf-8',
      'cache-control': 'private, max-age=31536000, immutable',
      'content-disposition': `inline; filename="witness-${row.format}-${row.sha256.slice(0, 12)}.card.md"`,
    },
  });
});
