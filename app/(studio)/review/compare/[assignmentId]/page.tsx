import { redirect } from 'next/navigation';
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
      actions={{ submit: submitComparisonAction, skip: skipAction, saveProgress: saveProgressAction }}
    />
  );
}
