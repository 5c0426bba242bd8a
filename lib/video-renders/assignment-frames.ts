import { assignmentTrajectoryIds } from '../db/review/assignment-view';
import { videoFramesFor } from './video-props-for';

/** The length in frames of each video of the reviewer's own assignment, in screen order (what coverage is measured against). */
export async function framesForAssignment(assignmentId: string, reviewerId: string): Promise<number[]> {
  const { ids, pacing } = await assignmentTrajectoryIds(assignmentId, reviewerId);
  return Promise.all(ids.map((id) => videoFramesFor(id, pacing)));
}
