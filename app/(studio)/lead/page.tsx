import { HydrationBoundary, dehydrate } from '@tanstack/react-query';
import { IntentLink } from '@/components/ui/intent-link';
import { NewCampaignLink } from '@/components/campaigns/campaign-bits';
import { CampaignTable } from '@/components/campaigns/campaign-table';
import { ProjectCards } from '@/components/projects/project-cards';
import { projectsQueryKey } from '@/components/projects/projects-query';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { viewCampaignList } from '@/lib/campaigns/view-campaign-list';
import { listProjectsFor } from '@/lib/trajectories/list-projects-for';
import { requirePageUser } from '../../_server/current-user';
import { serverQueryClient } from '../../_server/query-client';

export const metadata = { title: 'Campaigns' };

export default async function LeadHome() {
  const user = await requirePageUser('lead');
  const queryClient = serverQueryClient();
  const [campaigns] = await Promise.all([
    viewCampaignList(user),
    queryClient.prefetchQuery({ queryKey: projectsQueryKey, queryFn: () => listProjectsFor(user.access, 'lead') }),
  ]);
  return (
    <>
      <PageHeader title="Campaigns" description="Review campaigns, agreement and datasets for your projects." />
      <section aria-labelledby="projects" className="mb-10">
        <h2 id="projects" className="mb-3 text-sm font-semibold uppercase tracking-wide text-zinc-500">
          Projects
        </h2>
        <HydrationBoundary state={dehydrate(queryClient)}>
          <ProjectCards viewer={{ email: user.email, admin: user.role === 'admin' }} />
        </HydrationBoundary>
      </section>
      <section aria-labelledby="campaigns">
        <div className="mb-3 flex items-center justify-between gap-2">
          <h2 id="campaigns" className="text-sm font-semibold uppercase tracking-wide text-zinc-500">
            Review campaigns
          </h2>
          {campaigns.length > 0 ? (
            <div className="flex items-center gap-3 text-sm">
              <IntentLink href="/lead/campaigns" className="font-medium text-indigo-700 hover:underline">
                All campaigns
              </IntentLink>
              <NewCampaignLink />
            </div>
          ) : null}
        </div>
        {campaigns.length === 0 ? (
          <EmptyState title="No review campaigns yet" action={<NewCampaignLink />}>
            Import trajectories first (on the{' '}
            <IntentLink href="/import" className="font-medium text-indigo-700 hover:underline">
              Import
            </IntentLink>{' '}
            page, or <code className="font-mono">witness import</code>), then create a campaign with a rubric and an overlap so several
            reviewers grade each item.
          </EmptyState>
        ) : (
          <CampaignTable rows={campaigns.slice(0, 5)} />
        )}
      </section>
    </>
  );
}
