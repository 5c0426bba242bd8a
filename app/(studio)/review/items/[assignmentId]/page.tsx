import { redirect } from 'next/navigation';
import { typesetTask } from '@/components/review/task-typeset';
import { ReviewWorkspace } from '@/components/review/review-workspace';
import { requirePageUser } from '../../../../_server/current-user';
import { ownAssignmentPage } from '../../../../_server/own-assignment';
import { saveProgressAction, skipAction, submitReviewAction } from '../../actions';

export const metadata = { title: 'Review' };

export default async function ReviewItemPage({ params }: { params: Promise<{ assignmentId: string }> }) {
  const user = await requirePageUser('review');
  const { view, heads } = await ownAssignmentPage((await params).assignmentId, user);
  if (view.campaign.mode === 'pairwise') redirect(`/review/compare/${view.assignment.id}`);
  return (
    <ReviewWorkspace
      view={view}
      heads={heads}
      // the task's rich text typeset here, on the server: the browser hydrates it as it is (issue 43 §5)
      typeset={typesetTask(view.task, true)}
      actions={{ submit: submitReviewAction, skip: skipAction, saveProgress: saveProgressAction }}
    />
  );
}
