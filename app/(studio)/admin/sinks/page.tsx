import { DeliverNowButton, RetryDeliveryButton, SinkToggle } from '@/components/admin/sink-buttons';
import { SinkForm } from '@/components/admin/sink-form';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { DataTable } from '@/components/ui/table';
import { datasetFormats, formatLabel } from '@/lib/datasets/formats';
import { listExportableCampaigns } from '@/lib/datasets/list-exports';
import { listProjectsFor } from '@/lib/trajectories/list-projects-for';
import { listTrainingSinks } from '@/lib/training/list-training-sinks';
import { requirePageUser } from '../../../_server/current-user';
import { createSinkAction, deliverNowAction, retryDeliveryAction, setSinkEnabledAction } from './actions';

export const metadata = { title: 'Training sinks' };
export const dynamic = 'force-dynamic';

const statusStyle: Record<string, string> = {
  pending: 'bg-amber-50 text-amber-800 ring-amber-200',
  sending: 'bg-sky-50 text-sky-800 ring-sky-200',
  delivered: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  dead: 'bg-red-50 text-red-800 ring-red-200',
};

function Status({ status }: { status: string }) {
  return (
    <span
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${statusStyle[status] ?? 'bg-zinc-50 text-zinc-700 ring-zinc-200'}`}
    >
      {status}
    </span>
  );
}

function when(d: Date | null): string {
  return d ? d.toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : '—';
}

export default async function SinksPage() {
  const user = await requirePageUser('admin');
  // admins reach every project: sinks are theirs to manage
  const [sinks, projects] = await Promise.all([listTrainingSinks(user), listProjectsFor(user.access, 'lead')]);
  const withCampaigns = await Promise.all(
    projects.map(async (p) => ({
      id: p.id,
      name: p.name,
      campaigns: (await listExportableCampaigns(user, p.id)).map((c) => ({ id: c.id, name: c.name, mode: c.mode })),
    })),
  );
  return (
    <>
      <PageHeader
        title="Training sinks"
        description="Finalised labels flow to the GPU trainer as they are decided: signed webhook batches or shard files, in order, each exactly once after the receiver de-duplicates by key."
      />
      <section aria-labelledby="new-sink" className="mb-10">
        <h2 id="new-sink" className="mb-3 text-sm font-semibold uppercase tracking-wide text-zinc-500">
          New sink
        </h2>
        {projects.length === 0 ? (
          <EmptyState title="No projects yet">Import trajectories and run a review campaign first.</EmptyState>
        ) : (
          <SinkForm
            projects={withCampaigns}
            formats={datasetFormats.map((f) => ({ value: f, label: formatLabel[f] }))}
            createSink={createSinkAction}
          />
        )}
      </section>
      <section aria-labelledby="sinks">
        <h2 id="sinks" className="mb-3 text-sm font-semibold uppercase tracking-wide text-zinc-500">
          Sinks ({sinks.length})
        </h2>
        {sinks.length === 0 ? (
          <EmptyState title="No sinks yet">Add one above; the worker delivers every minute and right after a change here.</EmptyState>
        ) : (
          <div className="space-y-6">
            {sinks.map((s) => {
              const rows = s.deliveries;
              return (
                <article
                  key={s.id}
                  data-testid={`sink-${s.name}`}
                  className="overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-sm"
                >
                  <header className="flex flex-wrap items-start justify-between gap-3 border-b border-zinc-100 px-5 py-4">
                    <div>
                      <h3 className="font-semibold">
                        {s.name}{' '}
                        <span className="ml-1 rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs font-normal text-zinc-600">{s.kind}</span>{' '}
                        <span className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs font-normal text-zinc-600">{s.format}</span>
                        {!s.enabled ? (
                          <span className="ml-2 rounded bg-zinc-200 px-1.5 py-0.5 text-xs font-normal text-zinc-700">disabled</span>
                        ) : null}
                      </h3>
                      <p className="mt-1 break-all font-mono text-xs text-zinc-500">{s.target}</p>
                      <p className="mt-1 text-xs text-zinc-500">
                        Project {s.project} · filter <code className="font-mono">{JSON.stringify(s.filter)}</code> · cursor{' '}
                        {s.cursor ?? 'start'} · {s.rowsDelivered} rows delivered · last {when(s.lastDeliveredAt)}
                      </p>
                    </div>
                    <div className="flex items-center gap-2">
                      <span className="text-xs text-zinc-500">
                        {s.counts.delivered} delivered · {s.counts.pending + s.counts.sending} in flight · {s.counts.dead} dead
                      </span>
                      <DeliverNowButton sinkId={s.id} deliver={deliverNowAction} />
                      <SinkToggle sinkId={s.id} enabled={s.enabled} save={setSinkEnabledAction} />
                    </div>
                  </header>
                  {s.counts.dead > 0 ? (
                    <p role="status" className="border-b border-red-100 bg-red-50 px-5 py-2 text-sm text-red-800">
                      A batch is dead after its retries: this sink has stopped (order is kept). Fix the receiver, then retry the batch
                      below.
                    </p>
                  ) : null}
                  {rows.length === 0 ? (
                    <p className="px-5 py-4 text-sm text-zinc-500">
                      No deliveries yet: nothing finalised since the sink was added, or the worker has not run.
                    </p>
                  ) : (
                    <DataTable
                      frame="none"
                      label={`Deliveries to ${s.name}`}
                      columns={['Batch', 'Status', 'Rows', 'Label events', 'Attempts', 'Delivered / next try', 'Last error', '']}
                    >
                      {rows.map((d) => (
                        <tr key={d.id} data-testid={`delivery-${d.sequence}`}>
                          <td className="px-3 py-2 font-mono text-xs">#{d.sequence}</td>
                          <td className="px-3 py-2">
                            <Status status={d.status} />
                          </td>
                          <td className="px-3 py-2 tabular-nums">{d.rows}</td>
                          <td className="px-3 py-2 font-mono text-xs text-zinc-500">
                            {d.cursorFrom ?? '0'}..{d.cursorTo}
                          </td>
                          <td className="px-3 py-2 tabular-nums">{d.attempts}</td>
                          <td className="px-3 py-2 text-xs text-zinc-500">
                            {d.status === 'delivered' ? when(d.deliveredAt) : when(d.nextAttemptAt)}
                          </td>
                          <td className="max-w-xs truncate px-3 py-2 text-xs text-red-700" title={d.lastError ?? ''}>
                            {d.lastError ?? ''}
                          </td>
                          <td className="px-3 py-2 text-right">
                            {d.status === 'dead' ? <RetryDeliveryButton deliveryId={d.id} retry={retryDeliveryAction} /> : null}
                          </td>
                        </tr>
                      ))}
                    </DataTable>
                  )}
                </article>
              );
            })}
          </div>
        )}
      </section>
    </>
  );
}
