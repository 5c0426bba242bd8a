import 'server-only';
import { assignmentView, type AssignmentView } from '@/lib/db/review/assignment-view';
import { orNotFound } from './or-not-found';

/** For review pages: the reviewer's own assignment (blind view); anyone else's is a 404. */
export async function ownAssignmentView(assignmentId: string, reviewerId: string): Promise<AssignmentView> {
  return orNotFound(assignmentView(assignmentId, reviewerId));
}
