import { NewCampaignLink } from '@/components/campaigns/campaign-bits';
import { CampaignTable } from '@/components/campaigns/campaign-table';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { viewCampaignList } from '@/lib/campaigns/view-campaign-list';
import { listProjectSettingsFor } from '@/lib/trajectories/list-projects-for';
import { SelfReviewToggle } from '@/components/campaigns/self-review-toggle';
import { DataTable } from '@/components/ui/table';
import { setSelfReviewAction } from './actions';
import { requirePageUser } from '../../../_server/current-user';

export const metadata = { title: 'Review campaigns' };

export default async function CampaignsPage() {
  const user = await requirePageUser('lead');
  const [campaigns, projects] = await Promise.all([viewCampaignList(user), listProjectSettingsFor(user.access)]);
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
      {projects.length ? (
        <section className="mt-8" aria-labelledby="review-rules">
          <h2 id="review-rules" className="mb-1 font-semibold">
            Review rules
          </h2>
          <p className="mb-3 text-sm text-zinc-600">
            Off (the default): nobody is handed, or may submit on, an item whose trajectory they uploaded through the API. On: they may, and
            each such review is marked as a self-review in the audit log and on the adjudication page.
          </p>
          <DataTable columns={['Project', 'Allow self-review']} label="Review rules" testId="review-rules">
            {projects.map((p) => (
              <tr key={p.id}>
                <td className="px-3 py-2">
                  {p.name} <span className="font-mono text-xs text-zinc-500">{p.slug}</span>
                </td>
                <td className="px-3 py-2">
                  <SelfReviewToggle projectId={p.id} slug={p.slug} initial={p.settings.allowSelfReview} save={setSelfReviewAction} />
                </td>
              </tr>
            ))}
          </DataTable>
        </section>
      ) : null}
    </>
  );
}
