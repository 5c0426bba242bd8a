import { IntentLink } from '@/components/ui/intent-link';
import { Pagination } from '@/components/trajectories/pagination';
import { TrajectoryFilters } from '@/components/trajectories/trajectory-filters';
import { TrajectoryTable } from '@/components/trajectories/trajectory-table';
import { hasFilters } from '@/components/trajectories/list-url';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { listTrajectories } from '@/lib/trajectories/list-trajectories';
import { visibleProjectIds } from '@/lib/auth/project-access';
import { requirePageUser } from '../../_server/current-user';
import { orErrorPage } from '../../_server/or-not-found';
import { readListParams } from './search-params';

export const metadata = { title: 'Trajectories' };

export default async function TrajectoriesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser('lead');
  const { params, values } = readListParams(await searchParams);

  // a project the caller does not lead (or none by that name) is a 404, like any other project's id
  const loaded = await orErrorPage(() => listTrajectories(params, visibleProjectIds(user.access, 'lead')), { show: ['BAD_INPUT'] });
  if (loaded.error) {
    return (
      <>
        <PageHeader title="Trajectories" />
        <EmptyState title="These filters do not make sense" action={<ClearLink />}>
          {loaded.error.message}. Clear the filters, or pick others.
        </EmptyState>
      </>
    );
  }
  const list = loaded.data;

  const filtered = hasFilters(values);
  const empty = list.total === 0;
  return (
    <>
      <PageHeader
        title="Trajectories"
        description={
          list.project
            ? `Agent runs imported into ${list.project.name}. Open one to read its transcript, criteria and raw source.`
            : 'Agent runs imported into Witness, across projects. Open one to read its transcript, criteria and raw source.'
        }
      />
      {list.facets.projects.length > 0 ? (
        <TrajectoryFilters
          values={values}
          projects={list.facets.projects}
          environments={list.facets.environments}
          policies={list.facets.policies}
          scoped={list.project !== null || list.facets.projects.length === 1}
        />
      ) : null}
      {empty && !filtered ? (
        <EmptyState
          title="No trajectories imported yet"
          action={
            <IntentLink
              href="/import"
              className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500"
            >
              Import runs
            </IntentLink>
          }
        >
          Import agent runs from Harbor, Inspect, SWE-agent, tau-bench or chat logs: drop them on the Import page, run{' '}
          <code className="font-mono">npm run -s witness -- import PATH --project demo</code>, or POST them to{' '}
          <code className="font-mono">/api/v1/trajectories?project=demo</code> with an API token (user menu → API tokens).
        </EmptyState>
      ) : empty && list.page === 1 ? (
        <EmptyState title="No trajectories match these filters" action={<ClearLink />}>
          Widen the reward range, search a shorter part of the task name, or pick another project.
        </EmptyState>
      ) : (
        <>
          {list.rows.length > 0 ? (
            <TrajectoryTable rows={list.rows} showProject={list.project === null && list.facets.projects.length > 1} />
          ) : null}
          <Pagination
            values={values}
            page={list.page}
            pageCount={list.pageCount}
            pageSize={list.pageSize}
            total={list.total}
            totalExact={list.totalExact}
            shown={list.rows.length}
          />
        </>
      )}
    </>
  );
}

function ClearLink() {
  return (
    <IntentLink
      href="/trajectories"
      className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-700 shadow-sm hover:bg-zinc-50"
    >
      Clear filters
    </IntentLink>
  );
}
