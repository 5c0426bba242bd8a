import { readTrainingDataset } from '@/lib/training/read-training-dataset';
import { apiRoute } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/** GET /api/v1/training-runs/:id/dataset: the run's frozen dataset (JSONL), streamed, with its sha256 in x-witness-sha256. */
export const GET = apiRoute('lead', async (_request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const file = await readTrainingDataset(user, id);
  return new Response(file.body, {
    headers: {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-length': String(file.size),
      'x-witness-sha256': file.sha256,
      'x-witness-rows': String(file.rows),
      etag: `"${file.sha256}"`,
      'cache-control': 'private, no-store',
      'content-disposition': `attachment; filename="witness-run-${id}-${file.format}-${file.sha256.slice(0, 12)}.jsonl"`,
    },
  });
});
