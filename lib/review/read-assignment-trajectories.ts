import { AppError } from '../errors';
import type { Pacing } from '../video/pacing';
import { blindSettings, type BlindSettings } from './blind-settings';
import { findAssignmentTrajectories } from './queries/assignment-view';

/**
 * The trajectories of the reviewer's own assignment, in screen order (pairwise: [left, right]),
 * the pacing their videos are shown at and the campaign's blind settings; NOT_FOUND when not theirs.
 */
export async function readAssignmentTrajectories(
  assignmentId: string,
  reviewerId: string,
): Promise<{ ids: string[]; pacing: Pacing; blind: BlindSettings }> {
  const a = await findAssignmentTrajectories(assignmentId);
  if (!a || a.reviewerId !== reviewerId) throw new AppError('NOT_FOUND', 'No such assignment');
  const ids = a.trajectoryBId ? [a.trajectoryId, a.trajectoryBId] : [a.trajectoryId];
  return { ids: a.swapSides ? ids.reverse() : ids, pacing: a.pacing, blind: blindSettings.parse(a.blind) };
}
