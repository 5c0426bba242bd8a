import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '../../_server/current-user';

export const metadata = { title: 'My queue' };

export default async function ReviewerHome() {
  const user = await requirePageUser('review');
  return (
    <>
      <PageHeader title="My queue" description={`Hello ${user.name.split(' ')[0]}. Items to grade appear here, by campaign.`} />
      <EmptyState title="Nothing to review yet">
        When a lead opens a campaign
        {user.expertise.length ? ` that needs ${user.expertise.join(' or ')} expertise (or none)` : ''}, its items appear here. You will
        watch each agent&apos;s proof-of-work video and grade it with the campaign&apos;s rubric.
      </EmptyState>
    </>
  );
}
