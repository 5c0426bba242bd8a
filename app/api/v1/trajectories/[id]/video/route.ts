import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { env } from '@/lib/env';
import { parseInput } from '@/lib/parse-input';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { requestVideoProps } from '@/lib/video/request-video-props';
import { storedVideoPart } from '@/lib/video/video-props-for';
import { apiRoute } from '../../../../../_server/api-route';
import { trajectoryVideoQuery, videoPreparingAnswer } from '@/lib/video/video-schemas';
import { videoPartResponse } from '../../../../../_server/video-part';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/trajectories/ID/video?pacing=read|skim&part=N&rev=R: the trajectory's video props
 * as the Player loads them (lib/video/video-pieces.ts): part 0 the head (title card,
 * chapters, stub scenes, the list of parts), parts 1.. the scenes it plays next, named by the
 * head's `rev` (409 when the props were derived again since). Read from the store, never derived
 * here: while they are not stored a worker is asked to derive them and the answer is 202
 * `{status: "preparing"}` (ask again). Leads and admins (the open view names the policy and the reward).
 */
export const GET = apiRoute('lead', async (request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  await requireProjectRoleFor(user, 'trajectory', id, 'lead');
  const q = parseInput(trajectoryVideoQuery, Object.fromEntries(new URL(request.url).searchParams), 'query');
  const body = await storedVideoPart(id, { pacing: q.pacing }, q.part, q.rev);
  if (body !== null) return videoPartResponse(body, q.part);
  await requestVideoProps(env().DATABASE_URL!, id, q.pacing);
  return Response.json(shaped(videoPreparingAnswer, { status: 'preparing' }), {
    status: 202,
    headers: { 'cache-control': 'no-store', 'retry-after': '1' },
  });
});
