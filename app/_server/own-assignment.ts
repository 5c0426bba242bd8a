import 'server-only';
import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import type { SessionUser } from '@/lib/auth/session-user';
import type { AssignmentView } from '@/lib/review/queries/assignment-view';
import { viewAssignment } from '@/lib/review/view-assignment';
import { viewAssignmentPage } from '@/lib/review/view-assignment-page';
import type { VideoHead } from '@/lib/video/video-pieces';
import { orNotFound } from './or-not-found';

/** For review pages: the reviewer's own assignment (blind view) in a project they belong to; anything else is a 404. */
export async function ownAssignmentView(assignmentId: string, user: SessionUser): Promise<AssignmentView> {
  return orNotFound(requireProjectRoleFor(user, 'assignment', assignmentId, 'reviewer').then(() => viewAssignment(assignmentId, user.id)));
}

/** The same for the review and compare pages: each video as the head of its stored props, which the page's Player completes from /api/v1/assignments/ID/video. */
export async function ownAssignmentPage(assignmentId: string, user: SessionUser): Promise<{ view: AssignmentView; heads: VideoHead[] }> {
  return orNotFound(
    requireProjectRoleFor(user, 'assignment', assignmentId, 'reviewer').then(() => viewAssignmentPage(assignmentId, user.id)),
  );
}
