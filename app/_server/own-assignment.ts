import 'server-only';
import { notFound } from 'next/navigation';
import { assignmentView, type AssignmentView } from '@/lib/db/assignment-view';
import { AppError } from '@/lib/errors';

/** For review pages: the reviewer's own assignment (blind view); anyone else's is a 404. */
export async function ownAssignmentView(assignmentId: string, reviewerId: string): Promise<AssignmentView> {
  try {
    return await assignmentView(assignmentId, reviewerId);
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') notFound();
    throw error;
  }
}
