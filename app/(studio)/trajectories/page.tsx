import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { listProjectSummaries } from '@/lib/db/projects';
import { requirePageUser } from '../../_server/current-user';

export const metadata = { title: 'Trajectories' };

export default async function TrajectoriesPage() {
  await requirePageUser('studio');
  const projects = await listProjectSummaries();
  const total = projects.reduce((n, p) => n + p.counts.trajectories, 0);
  return (
    <>
      <PageHeader title="Trajectories" description="Agent runs imported into Witness, across projects." />
      {total === 0 ? (
        <EmptyState title="No trajectories imported yet">
          Import agent runs from Harbor, Inspect, SWE-agent, tau-bench or chat logs:{' '}
          <code className="font-mono">npm run -s witness -- import PATH --project demo</code>, or POST them to{' '}
          <code className="font-mono">/api/v1/trajectories</code> with an API token.
        </EmptyState>
      ) : (
        <p className="text-sm text-zinc-600">{total} trajectories.</p>
      )}
    </>
  );
}
