import { assignmentTrajectoryIds } from '../db/review/assignment-view';
import type { CoverageMeasure } from '../review/coverage';
import { videoFramesFor, videoMeasureFor } from './video-props-for';

/** The length in frames of each video of the reviewer's own assignment, in screen order. */
export async function framesForAssignment(assignmentId: string, reviewerId: string): Promise<number[]> {
  const ids = await assignmentTrajectoryIds(assignmentId, reviewerId);
  return Promise.all(ids.map((id) => videoFramesFor(id)));
}

/** What each video of the reviewer's own assignment is covered against (frames, chapters, steps), in screen order. */
export async function measuresForAssignment(assignmentId: string, reviewerId: string): Promise<CoverageMeasure[]> {
  const ids = await assignmentTrajectoryIds(assignmentId, reviewerId);
  return Promise.all(ids.map((id) => videoMeasureFor(id)));
}
