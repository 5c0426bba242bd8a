import 'server-only';
import type { AssignmentView } from '@/lib/db/review/assignment-view';
import { viewAssignment } from '@/lib/review/view-assignment';
import { orNotFound } from './or-not-found';

/** For review pages: the reviewer's own assignment (blind view); anyone else's is a 404. */
export async function ownAssignmentView(assignmentId: string, reviewerId: string): Promise<AssignmentView> {
  return orNotFound(viewAssignment(assignmentId, reviewerId));
}
