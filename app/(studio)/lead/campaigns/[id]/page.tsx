import { firstValue } from '@/lib/parse-input';
import { IntentLink } from '@/components/ui/intent-link';
import { z } from 'zod';
import { ModeBadge, StatusBadge } from '@/components/campaigns/campaign-bits';
import { AgentReviewsPanel } from '@/components/campaigns/agent-reviews-panel';
import { TrainOnLabels } from '@/components/training/train-on-labels';
import { CampaignDetailView } from '@/components/campaigns/campaign-detail-view';
import { CampaignStatusButton } from '@/components/campaigns/campaign-status-button';
import { SnapshotStatus } from '@/components/campaigns/snapshot-status';
import { PageHeader } from '@/components/ui/page-header';
import { readCampaignSnapshot } from '@/lib/campaigns/read-campaign-snapshot';
import type { PlanSnapshotPayload } from '@/lib/campaigns/refresh-campaign-snapshots';
import { PLAN_VARIANT } from '@/lib/campaigns/snapshot-variant';
import { viewCampaignDetail } from '@/lib/campaigns/view-campaign-detail';
import { listAgentReviews } from '@/lib/review/list-agent-reviews';
import { viewTrainForm } from '@/lib/training/view-train-form';
import { orPageError } from '../../../../_server/or-not-found';
import { requirePageUser } from '../../../../_server/current-user';
import { setCampaignStatusAction } from '../actions';
import { startTrainingRunAction } from '../../../training/actions';

export const metadata = { title: 'Campaign' };

const pageParam = z.preprocess(firstValue, z.coerce.number().int().min(0).max(1_000_000).catch(0));

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function CampaignPage({ params, searchParams }: Props) {
  const user = await requirePageUser('lead');
  const { id } = await params;
  const page = pageParam.parse((await searchParams).page);
  const now = new Date();
  const campaign = await orPageError(viewCampaignDetail(user, id, { page }, now));
  // the review plan reads every item's signals and labels: a stored snapshot, refreshed by the campaign.snapshot job
  const [plan, agents, train] = await Promise.all([
    campaign.mode === 'single' ? readCampaignSnapshot<PlanSnapshotPayload>(id, PLAN_VARIANT, now) : null,
    listAgentReviews(user, { campaignId: id, limit: 20 }),
    viewTrainForm(user, campaign.project.id),
  ]);
  return (
    <>
      <nav className="mb-2 text-sm text-zinc-500">
        <IntentLink href="/lead/campaigns" className="hover:text-zinc-800 hover:underline">
          Campaigns
        </IntentLink>{' '}
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
      <CampaignDetailView
        c={campaign}
        plan={plan?.snapshot?.payload.plan ?? null}
        planStatus={
          plan && (plan.state !== 'current' || plan.snapshot?.payload.plan) ? (
            <SnapshotStatus
              state={plan.state}
              count={plan.snapshot?.reviews ?? null}
              noun={['reviewed item', 'reviewed items']}
              builtAt={plan.snapshot?.builtAt.toISOString() ?? null}
              newer={plan.newer}
              testId="plan-status"
            />
          ) : null
        }
      />
      <div className="mt-6">
        <AgentReviewsPanel reviews={agents.reviews} more={agents.nextCursor !== null} />
      </div>
      <div className="mt-6">
        <TrainOnLabels projectId={campaign.project.id} campaignId={campaign.id} {...train} start={startTrainingRunAction} />
      </div>
    </>
  );
}
