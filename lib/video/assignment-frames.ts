import { readAssignmentTrajectories } from '../review/read-assignment-trajectories';
import type { CoverageMeasure } from '../review/coverage';
import { videoMeasureFor } from './video-props-for';

/** The length in frames of each video of the reviewer's own assignment, in screen order. */
export async function framesForAssignment(assignmentId: string, reviewerId: string): Promise<number[]> {
  return (await measuresForAssignment(assignmentId, reviewerId)).map((m) => m.totalFrames);
}

/** What each video of the reviewer's own assignment is covered against (frames, chapters, steps), in screen order, as they saw it. */
export async function measuresForAssignment(assignmentId: string, reviewerId: string): Promise<CoverageMeasure[]> {
  // at the campaign's pacing and blind mask: the chapters the reviewer saw (the row their claim stored)
  const { ids, pacing, blind } = await readAssignmentTrajectories(assignmentId, reviewerId);
  return Promise.all(ids.map((id) => videoMeasureFor(id, pacing, blind)));
}
