import { firstValue } from '@/lib/parse-input';
import { z } from 'zod';
import { RunStatusBadge } from '@/components/training/run-status-badge';
import { EmptyState } from '@/components/ui/empty-state';
import { formatDateTime } from '@/components/ui/format';
import { IntentLink } from '@/components/ui/intent-link';
import { PageHeader } from '@/components/ui/page-header';
import { DataTable, right } from '@/components/ui/table';
import { listTrainingRuns } from '@/lib/training/list-training-runs';
import { trainingRunStatuses } from '@/lib/training/training-run-schemas';
import { listProjectsFor } from '@/lib/trajectories/list-projects-for';
import { requirePageUser } from '../../_server/current-user';
import { orErrorPage } from '../../_server/or-not-found';

export const metadata = { title: 'Training' };
export const dynamic = 'force-dynamic';

const pageQuery = z.object({
  project: z.preprocess(firstValue, z.string().optional()),
  status: z.preprocess(firstValue, z.enum(trainingRunStatuses).optional().catch(undefined)),
  cursor: z.preprocess(firstValue, z.string().optional()),
});

const pill = (active: boolean) =>
  active ? 'rounded-md bg-zinc-900 px-3 py-1 text-white' : 'rounded-md border border-zinc-300 px-3 py-1 text-zinc-700 hover:bg-zinc-50';

/** The training runs of the projects the caller leads, newest first: status, recipe, base, rows, attempts, checkpoint. */
export default async function TrainingPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser('lead');
  const query = pageQuery.parse(await searchParams);
  const projects = await listProjectsFor(user.access, 'lead');
  const result = await orErrorPage(
    () => listTrainingRuns(user, { project: query.project, status: query.status, cursor: query.cursor, limit: 50 }),
    {
      show: ['BAD_INPUT'],
    },
  );
  const href = (over: { project?: string | null; status?: string | null; cursor?: string | null }) => {
    const p = new URLSearchParams();
    const project = over.project === undefined ? query.project : over.project;
    const status = over.status === undefined ? query.status : over.status;
    if (project) p.set('project', project);
    if (status) p.set('status', status);
    if (over.cursor) p.set('cursor', over.cursor);
    const s = p.toString();
    return s ? `/training?${s}` : '/training';
  };
  const hillClimbProject = query.project ?? projects[0]?.slug;
  return (
    <>
      <PageHeader
        title="Training"
        description="Runs trained on frozen label sets by trainer agents beside the GPUs; each new checkpoint is measured and canaried against its parent."
        actions={
          hillClimbProject ? (
            <IntentLink
              href={`/training/hill-climb?project=${encodeURIComponent(hillClimbProject)}`}
              className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500"
            >
              Hill climb
            </IntentLink>
          ) : null
        }
      />
      <nav aria-label="Filters" className="mb-4 flex flex-wrap items-center gap-2 text-sm">
        {projects.length > 1 ? (
          <>
            <IntentLink href={href({ project: null, cursor: null })} className={pill(!query.project)}>
              All projects
            </IntentLink>
            {projects.map((p) => (
              <IntentLink key={p.id} href={href({ project: p.slug, cursor: null })} className={pill(query.project === p.slug)}>
                {p.name}
              </IntentLink>
            ))}
            <span className="mx-2 h-5 w-px bg-zinc-200" aria-hidden />
          </>
        ) : null}
        <IntentLink href={href({ status: null, cursor: null })} className={pill(!query.status)}>
          Any status
        </IntentLink>
        {trainingRunStatuses.map((s) => (
          <IntentLink key={s} href={href({ status: s, cursor: null })} className={pill(query.status === s)}>
            {s}
          </IntentLink>
        ))}
      </nav>
      {result.error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {result.error.message}
        </p>
      ) : result.data.runs.length === 0 ? (
        <EmptyState title="No training runs yet">
          Start one with &ldquo;Train on these labels&rdquo; on a campaign or the{' '}
          <IntentLink href="/lead/datasets" className="text-indigo-700 hover:underline">
            Datasets
          </IntentLink>{' '}
          page, or <code className="font-mono text-xs">witness train start --project P --format trl-dpo --base POLICY</code>; a trainer
          agent (<code className="font-mono text-xs">witness-trainer</code>) claims it.
        </EmptyState>
      ) : (
        <>
          <DataTable
            testId="training-runs"
            edges
            columns={['Run', 'Status', 'Recipe', 'Base', right('Rows'), right('Attempts'), 'Checkpoint', 'Project', 'Created']}
          >
            {result.data.runs.map((r) => (
              <tr key={r.id} data-testid="training-run-row" data-run={r.id}>
                <td className="px-4 py-2 font-mono text-xs">
                  <IntentLink href={`/training/runs/${r.id}`} className="font-semibold text-indigo-700 hover:underline">
                    {r.id.slice(0, 10)}
                  </IntentLink>
                </td>
                <td className="px-3 py-2">
                  <RunStatusBadge status={r.status} />
                  {r.cancelRequested && r.status === 'running' ? <span className="ml-1 text-xs text-amber-700">cancelling</span> : null}
                </td>
                <td className="px-3 py-2 font-mono text-xs">{r.recipe}</td>
                <td className="max-w-56 truncate px-3 py-2 text-xs" title={r.base.name}>
                  {r.base.name}
                </td>
                <td className="px-3 py-2 text-right font-mono text-xs tabular-nums">{r.rows}</td>
                <td className="px-3 py-2 text-right font-mono text-xs tabular-nums">
                  {r.attempts}/{r.maxAttempts}
                </td>
                <td className="max-w-56 truncate px-3 py-2 text-xs" title={r.checkpoint?.uri}>
                  {r.checkpoint ? r.checkpoint.name : <span className="text-zinc-400">—</span>}
                </td>
                <td className="px-3 py-2 text-xs">{r.project}</td>
                <td className="whitespace-nowrap px-4 py-2 text-xs text-zinc-500">{formatDateTime(r.createdAt)}</td>
              </tr>
            ))}
          </DataTable>
          {result.data.nextCursor ? (
            <p className="mt-3 text-sm">
              <IntentLink href={href({ cursor: result.data.nextCursor })} className="text-indigo-700 hover:underline">
                Older runs →
              </IntentLink>
            </p>
          ) : null}
        </>
      )}
    </>
  );
}
