import { redirect } from 'next/navigation';
import { typesetTask } from '@/components/review/task-typeset';
import { CompareWorkspace } from '@/components/review/compare-workspace';
import { requirePageUser } from '../../../../_server/current-user';
import { ownAssignmentPage } from '../../../../_server/own-assignment';
import { saveProgressAction, skipAction, submitComparisonAction } from '../../actions';

export const metadata = { title: 'Compare' };

export default async function CompareItemPage({ params }: { params: Promise<{ assignmentId: string }> }) {
  const user = await requirePageUser('review');
  const { view, heads } = await ownAssignmentPage((await params).assignmentId, user);
  if (view.campaign.mode !== 'pairwise') redirect(`/review/items/${view.assignment.id}`);
  return (
    <CompareWorkspace
      view={view}
      heads={heads}
      // the task's rich text typeset here, on the server: the browser hydrates it as it is (issue 43 §5)
      typeset={typesetTask(view.task, true)}
      actions={{ submit: submitComparisonAction, skip: skipAction, saveProgress: saveProgressAction }}
    />
  );
}
