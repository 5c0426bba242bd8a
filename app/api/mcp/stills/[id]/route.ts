import { z } from 'zod';
import { parseInput } from '@/lib/parse-input';
import { extractStill } from '@/lib/video/extract-still';
import { pacingSchema } from '@/lib/video/pacing';
import { apiRoute } from '../../../../_server/api-route';

export const dynamic = 'force-dynamic';

const query = z.object({
  frame: z.coerce.number().int().min(0).max(10_000_000).default(0),
  pacing: pacingSchema.optional(),
});

/**
 * GET /api/mcp/stills/:trajectoryId?frame=N[&pacing=read|skim]: one frame of the trajectory's
 * rendered MP4 as a PNG (the MCP get_still tool links here). 409 when no video is rendered yet.
 * Leads and admins of its project, as the video itself.
 */
export const GET = apiRoute('lead', async (request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const q = parseInput(query, Object.fromEntries(new URL(request.url).searchParams), 'query parameter');
  const still = await extractStill(user, { trajectoryId: id, frame: q.frame, ...(q.pacing ? { pacing: q.pacing } : {}) });
  return new Response(new Uint8Array(still.png), {
    status: 200,
    headers: {
      'content-type': 'image/png',
      'cache-control': 'private, max-age=3600',
      'x-witness-frame': String(still.frame),
      'x-witness-time-sec': still.timeSec.toFixed(3),
    },
  });
});
