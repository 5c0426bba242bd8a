import Link from 'next/link';
import { ModeBadge, StatusBadge } from '@/components/campaigns/campaign-bits';
import { CampaignDetailView } from '@/components/campaigns/campaign-detail-view';
import { CampaignStatusButton } from '@/components/campaigns/campaign-status-button';
import { PageHeader } from '@/components/ui/page-header';
import { getCampaignDetail } from '@/lib/db/campaigns/campaign-detail';
import { planCampaignReview } from '@/lib/review/plan-campaign-review';
import { orNotFound } from '../../../../_server/or-not-found';
import { requirePageProjectRole, requirePageUser } from '../../../../_server/current-user';
import { setCampaignStatusAction } from '../actions';

export const metadata = { title: 'Campaign' };

export default async function CampaignPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser('lead');
  const { id } = await params;
  await requirePageProjectRole(user, 'campaign', id, 'lead');
  const campaign = await orNotFound(getCampaignDetail(id, new Date()));
  const plan = await planCampaignReview(id);
  return (
    <>
      <nav className="mb-2 text-sm text-zinc-500">
        <Link href="/lead/campaigns" className="hover:text-zinc-800 hover:underline">
          Campaigns
        </Link>{' '}
        / <span className="text-zinc-700">{campaign.project.slug}</span>
      </nav>
      <PageHeader
        title={campaign.name}
        description={
          <span className="inline-flex items-center gap-2">
            <ModeBadge mode={campaign.mode} /> <StatusBadge status={campaign.status} />
            <span>
              {campaign.progress.items} items, k={campaign.overlap}
            </span>
          </span>
        }
        actions={<CampaignStatusButton id={campaign.id} status={campaign.status} setStatus={setCampaignStatusAction} />}
      />
      <CampaignDetailView c={campaign} plan={plan} />
    </>
  );
}
