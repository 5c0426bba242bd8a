import { ImportPanel } from '@/components/import/import-panel';
import { IntentLink } from '@/components/ui/intent-link';
import { PageHeader } from '@/components/ui/page-header';
import { env } from '@/lib/env';
import { listProjectsFor } from '@/lib/trajectories/list-projects-for';
import { requirePageUser } from '../../_server/current-user';

export const metadata = { title: 'Import' };

/**
 * Import from the browser (issue 44): files and folders of runs dropped or picked, sent to
 * POST /api/v1/trajectories with the signed-in session (components/import/). Leads and admins.
 */
export default async function ImportPage() {
  const user = await requirePageUser('lead');
  const projects = await listProjectsFor(user.access, 'lead');
  const mib = 1024 * 1024;
  return (
    <>
      <PageHeader
        title="Import"
        description={
          <>
            Agent runs from your disk, read as <code className="font-mono">witness import</code> reads them. Importing the same files again
            creates nothing. Scripts use the{' '}
            <IntentLink href="/settings/tokens" className="text-indigo-700 hover:underline">
              API with a token
            </IntentLink>
            .
          </>
        }
      />
      <ImportPanel
        projects={projects.map((p) => ({ slug: p.slug, name: p.name }))}
        limits={{ apiMaxBytes: env().WITNESS_API_MAX_MB * mib, importMaxBytes: env().WITNESS_IMPORT_MAX_MB * mib }}
      />
    </>
  );
}
