import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { readRenderedVideo } from '@/lib/video/read-video';
import { AppError } from '@/lib/errors';
import { openStore } from '@/lib/storage/open-store';
import { parseRange } from '@/lib/storage/parse-range';
import { apiRoute } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/videos/:id/file: the rendered MP4, with HTTP range requests (206) so players can
 * seek, behind the same sign-in as the pages (session cookie or API token).
 */
export const GET = apiRoute('lead', async (request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  await requireProjectRoleFor(user, 'video', id, 'lead');
  const video = await readRenderedVideo(id);
  const store = openStore();
  const stat = await store.stat(video.storageKey);
  if (!stat) throw new AppError('NOT_FOUND', 'The rendered file is missing from storage');
  const headers = {
    'content-type': 'video/mp4',
    'accept-ranges': 'bytes',
    'cache-control': 'private, max-age=3600',
    'content-disposition': `inline; filename="witness-${video.trajectoryId}.mp4"`,
  };
  const range = parseRange(request.headers.get('range'), stat.size);
  if (range === 'unsatisfiable')
    return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${stat.size}` } });
  if (range === null)
    return new Response(await store.read(video.storageKey), { status: 200, headers: { ...headers, 'content-length': String(stat.size) } });
  return new Response(await store.read(video.storageKey, range), {
    status: 206,
    headers: {
      ...headers,
      'content-length': String(range.end - range.start + 1),
      'content-range': `bytes ${range.start}-${range.end}/${stat.size}`,
    },
  });
});
