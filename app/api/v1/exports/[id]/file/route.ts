import { getExport } from '@/lib/datasets/get-export';
import { AppError } from '@/lib/errors';
import { openStore } from '@/lib/storage/open-store';
import { apiRoute } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/** GET /api/v1/exports/:id/file: the dataset (JSONL), immutable (content-addressed), for leads. */
export const GET = apiRoute('lead', async (_request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const row = await getExport(user, id);
  if (!row || row.status !== 'done' || !row.storageKey || !row.sha256) throw new AppError('NOT_FOUND', 'This export is not ready');
  const store = openStore();
  const stat = await store.stat(row.storageKey);
  if (!stat) throw new AppError('NOT_FOUND', 'The export file is missing from storage');
  const evaluation = (row.params as { split?: string } | null)?.split === 'eval';
  return new Response(await store.read(row.storageKey), {
    headers: {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-length': String(stat.size),
      'cache-control': 'private, max-age=31536000, immutable',
      etag: `"${row.sha256}"`,
      'content-disposition': `attachment; filename="witness-${row.format}${evaluation ? '-EVAL' : ''}-${row.sha256.slice(0, 12)}.jsonl"`,
    },
  });
});
