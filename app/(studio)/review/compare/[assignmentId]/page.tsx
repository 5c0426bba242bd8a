import { redirect } from 'next/navigation';
import { CompareWorkspace } from '@/components/review/compare-workspace';
import { requirePageUser } from '../../../../_server/current-user';
import { ownAssignmentView } from '../../../../_server/own-assignment';
import { skipAction, submitComparisonAction } from '../../actions';

export const metadata = { title: 'Compare' };

export default async function CompareItemPage({ params }: { params: Promise<{ assignmentId: string }> }) {
  const user = await requirePageUser('review');
  const view = await ownAssignmentView((await params).assignmentId, user);
  if (view.campaign.mode !== 'pairwise') redirect(`/review/items/${view.assignment.id}`);
  return <CompareWorkspace view={view} actions={{ submit: submitComparisonAction, skip: skipAction }} />;
}
