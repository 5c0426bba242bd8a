import type { ProjectAccess } from '../auth/project-access';
import { assignmentView, type AssignmentView, type PrereadView } from './queries/assignment-view';
import { storedVideoOf, trajectoryVideo } from '../video/video-props-for';

/**
 * The reviewer's blind view of their own assignment (lib/review/queries/assignment-view.ts), its
 * videos and transcripts read from the stored props under the campaign's blind mask and pacing
 * (derived and stored on first sight; once stored, read by the view's own statement). NOT_FOUND
 * when the assignment is not theirs, or (with `access`, the caller's) not in a project they review in.
 * `preread`: the view's row as the claim read it with its COMMIT (claimNextItem's `withView`).
 */
export function viewAssignment(
  assignmentId: string,
  reviewerId: string,
  { access, preread }: { access?: ProjectAccess; preread?: PrereadView } = {},
): Promise<AssignmentView> {
  return assignmentView(
    assignmentId,
    reviewerId,
    async (trajectoryId, blind, pacing, stored) => storedVideoOf(stored, blind) ?? (await trajectoryVideo(trajectoryId, { blind, pacing })),
    access,
    true,
    preread,
  );
}
