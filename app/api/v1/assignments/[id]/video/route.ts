import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { assignmentTrajectoryIds } from '@/lib/db/review/assignment-view';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { storedVideoPart, trajectoryVideo } from '@/lib/video-renders/video-props-for';
import { z } from 'zod';
import { apiRoute } from '../../../../../_server/api-route';
import { videoPartQuery, videoPartResponse } from '../../../../../_server/video-part';

export const dynamic = 'force-dynamic';

const query = videoPartQuery.extend({ side: z.coerce.number().int().min(0).max(1).default(0) });

/**
 * GET /api/v1/assignments/ID/video?side=0|1&part=N&rev=R: a video of the caller's own
 * assignment as the review page's Player loads it (see /api/v1/trajectories/ID/video), side =
 * its place on screen (pairwise: 0 left, 1 right). Always the campaign's blind mask and pacing,
 * the props the blind view stores (on first sight, as the blind view does): a hidden
 * field is never in it. 404 for anyone else's assignment.
 */
export const GET = apiRoute('review', async (request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  await requireProjectRoleFor(user, 'assignment', id, 'reviewer');
  const q = parseInput(query, Object.fromEntries(new URL(request.url).searchParams), 'query');
  const { ids, pacing, blind } = await assignmentTrajectoryIds(id, user.id);
  const trajectoryId = ids[q.side];
  if (!trajectoryId) throw new AppError('NOT_FOUND', `This assignment has no video on side ${q.side}.`);
  const options = { pacing, blind };
  let body = await storedVideoPart(trajectoryId, options, q.part, q.rev);
  if (body === null && q.part === 0) {
    // first sight of this blind view (a claim through the queue stores it; one made elsewhere may not): as the blind view does
    await trajectoryVideo(trajectoryId, options);
    body = await storedVideoPart(trajectoryId, options, 0);
  }
  if (body === null) throw new AppError('NOT_FOUND', 'The video was prepared again since this page loaded: reload it.');
  return videoPartResponse(body, q.part);
});
