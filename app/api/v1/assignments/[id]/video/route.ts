import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { parseInput } from '@/lib/parse-input';
import { assignmentVideoPart } from '@/lib/video/assignment-video-part';
import { apiRoute } from '../../../../../_server/api-route';
import { assignmentVideoQuery } from '@/lib/video/video-schemas';
import { videoPartResponse } from '../../../../../_server/video-part';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/assignments/ID/video?side=0|1&part=N&rev=R: a video of the caller's own
 * assignment as the review page's Player loads it (see /api/v1/trajectories/ID/video), side =
 * its place on screen (pairwise: 0 left, 1 right), always under the campaign's blind mask and
 * pacing (lib/video/assignment-video-part.ts): a hidden field is never in it. 404 for
 * anyone else's assignment, 409 for a part of an older split (reload the page).
 */
export const GET = apiRoute('review', async (request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  await requireProjectRoleFor(user, 'assignment', id, 'reviewer');
  const q = parseInput(assignmentVideoQuery, Object.fromEntries(new URL(request.url).searchParams), 'query');
  return videoPartResponse(await assignmentVideoPart(id, user.id, q.side, q.part, q.rev), q.part);
});
