import { NewCampaignLink } from '@/components/campaigns/campaign-bits';
import { CampaignTable } from '@/components/campaigns/campaign-table';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { visibleProjectIds } from '@/lib/auth/project-access';
import { listCampaigns } from '@/lib/db/campaigns/campaign-list';
import { requirePageUser } from '../../../_server/current-user';

export const metadata = { title: 'Review campaigns' };

export default async function CampaignsPage() {
  const user = await requirePageUser('lead');
  const campaigns = await listCampaigns({ projectIds: visibleProjectIds(user.access, 'lead') });
  return (
    <>
      <PageHeader
        title="Review campaigns"
        description="Each campaign hands its items to k independent reviewers with a rubric. Open one to see progress per reviewer."
        actions={<NewCampaignLink />}
      />
      {campaigns.length === 0 ? (
        <EmptyState title="No review campaigns yet" action={<NewCampaignLink />}>
          Import trajectories first (<code className="font-mono">witness import</code>), then create a campaign with a rubric and an overlap
          so several reviewers grade each item.
        </EmptyState>
      ) : (
        <CampaignTable rows={campaigns} />
      )}
    </>
  );
}
