import { z } from 'zod';
import { IntentLink } from '@/components/ui/intent-link';
import { CampaignForm } from '@/components/campaigns/campaign-form';
import { NoProjects } from '@/components/projects/no-projects';
import { PageHeader } from '@/components/ui/page-header';
import { viewCampaignForm } from '@/lib/campaigns/view-campaign-form';
import { rubricTemplates } from '@/lib/review/rubric-templates';
import { requirePageUser } from '../../../../_server/current-user';
import { createCampaignAction, planCampaignAction, previewCampaignAction } from '../actions';

export const metadata = { title: 'New campaign' };

const filterValue = z.string().trim().min(1).max(200).optional().catch(undefined);
const initialFilterSchema = z.object({ project: filterValue, environment: filterValue, policy: filterValue });

export default async function NewCampaignPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser('lead');
  // the import page links here with its batch: ?project=&environment=&policy= start the filter
  const initial = initialFilterSchema.safeParse(await searchParams).data ?? {};
  const projects = await viewCampaignForm(user);
  return (
    <>
      <nav className="mb-2 text-sm text-zinc-500">
        <IntentLink href="/lead/campaigns" className="hover:text-zinc-800 hover:underline">
          Campaigns
        </IntentLink>{' '}
        / <span className="text-zinc-700">new</span>
      </nav>
      <PageHeader title="New review campaign" description="Pick the runs, how many reviewers grade each, and the rubric they answer." />
      {projects.length === 0 ? (
        <NoProjects viewer={{ email: user.email, admin: user.role === 'admin' }}>
          Import trajectories first: <code className="font-mono">npm run -s witness -- import PATH --project demo</code>.
        </NoProjects>
      ) : (
        <CampaignForm
          projects={projects}
          templates={rubricTemplates()}
          create={createCampaignAction}
          preview={previewCampaignAction}
          plan={planCampaignAction}
          initial={initial}
        />
      )}
    </>
  );
}
