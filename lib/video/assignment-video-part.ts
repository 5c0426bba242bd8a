import { readAssignmentTrajectories } from '../review/read-assignment-trajectories';
import { AppError } from '../errors';
import { storedVideoPart, trajectoryVideo } from './video-props-for';

/**
 * One part (0: the head) of a video of the reviewer's own assignment, as JSON text, for the
 * review page's Player: `side` is its place on screen (pairwise: 0 left, 1 right), always under
 * the campaign's blind mask and pacing, so a hidden field is never in it. On first sight of that
 * blind view the props are derived and stored, as the blind view does. NOT_FOUND when the
 * assignment is not theirs, or there is no such side or part; CONFLICT when `rev` is not the
 * stored split's (the props were derived again since the page loaded).
 */
export async function assignmentVideoPart(
  assignmentId: string,
  reviewerId: string,
  side: number,
  part: number,
  rev?: string,
): Promise<string> {
  const { ids, pacing, blind } = await readAssignmentTrajectories(assignmentId, reviewerId);
  const trajectoryId = ids[side];
  if (!trajectoryId) throw new AppError('NOT_FOUND', `This assignment has no video on side ${side}.`);
  const options = { pacing, blind };
  let body = await storedVideoPart(trajectoryId, options, part, rev);
  if (body === null && part === 0) {
    await trajectoryVideo(trajectoryId, options);
    body = await storedVideoPart(trajectoryId, options, 0);
  }
  if (body === null) throw new AppError('CONFLICT', 'The video was prepared again since this page loaded: reload it.');
  return body;
}
