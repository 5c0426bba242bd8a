import type { AssignmentView } from './queries/assignment-view';
import { assignmentView } from './view-assignment';
import type { VideoHead } from '../video/video-pieces';
import { trajectoryVideoHead } from '../video/video-props-for';

/**
 * The reviewer's blind view of their own assignment for the review and compare pages: as
 * viewAssignment (lib/review/view-assignment.ts), but each video is the head of its stored props
 * (lib/video/video-pieces.ts: title card, chapters, stub scenes), which the page's Player
 * completes part by part from GET /api/v1/assignments/ID/video under the same blind mask.
 * `videos[i]` is `heads[i].props`. NOT_FOUND when the assignment is not theirs.
 */
export async function viewAssignmentPage(assignmentId: string, reviewerId: string): Promise<{ view: AssignmentView; heads: VideoHead[] }> {
  const headOf = new Map<object, VideoHead>();
  const view = await assignmentView(assignmentId, reviewerId, async (trajectoryId, blind, pacing) => {
    const { head, transcript } = await trajectoryVideoHead(trajectoryId, { blind, pacing });
    headOf.set(head.props, head);
    return { props: head.props, transcript };
  });
  return { view, heads: view.videos.map((v) => headOf.get(v)!) };
}
