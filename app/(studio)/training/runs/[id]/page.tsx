import { CancelRunButton } from '@/components/training/cancel-run-button';
import { CanaryComparison } from '@/components/training/canary-comparison';
import { MetricChart } from '@/components/training/metric-chart';
import { RunRefresher } from '@/components/training/run-refresher';
import { RunStatusBadge } from '@/components/training/run-status-badge';
import { formatDateTime } from '@/components/ui/format';
import { IntentLink } from '@/components/ui/intent-link';
import { PageHeader } from '@/components/ui/page-header';
import { DataTable, right } from '@/components/ui/table';
import { viewCanaryComparison } from '@/lib/training/view-canary-comparison';
import { viewRunLabels } from '@/lib/training/view-run-labels';
import { viewTrainingRun } from '@/lib/training/view-training-run';
import { requirePageUser } from '../../../../_server/current-user';
import { orPageError } from '../../../../_server/or-not-found';
import { cancelTrainingRunAction } from '../../actions';

export const metadata = { title: 'Training run' };
export const dynamic = 'force-dynamic';

function Fact({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-zinc-500">{label}</dt>
      <dd className="mt-0.5 text-sm text-zinc-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

function Section({ title, id, children, aside }: { title: string; id: string; children: React.ReactNode; aside?: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="mb-8">
      <div className="mb-3 flex items-baseline justify-between gap-3">
        <h2 id={id} className="text-sm font-semibold uppercase tracking-wide text-zinc-500">
          {title}
        </h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

const hours = (h: number) => (h >= 10 ? h.toFixed(0) : h >= 1 ? h.toFixed(1) : h.toFixed(2));

/** One training run: status, attempts, agent, log tail, live curves, checkpoint, its frozen label set and the canary comparison. */
export default async function TrainingRunPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser('lead');
  const { id } = await params;
  const [run, lineage] = await orPageError(Promise.all([viewTrainingRun(user, id, { metrics: false }), viewRunLabels(user, id)]));
  const comparison = run.canaryCampaign ? await orPageError(viewCanaryComparison(user, id)) : null;
  const active = run.status === 'queued' || run.status === 'running';
  const campaignName = new Map(lineage.labels.campaigns.map((c) => [c.id, c.name]));
  return (
    <>
      <nav className="mb-2 text-sm text-zinc-500">
        <IntentLink href="/training" className="hover:text-zinc-800 hover:underline">
          Training
        </IntentLink>{' '}
        /{' '}
        <IntentLink
          href={`/training/hill-climb?project=${encodeURIComponent(run.project)}`}
          className="hover:text-zinc-800 hover:underline"
        >
          {run.project}
        </IntentLink>
      </nav>
      <PageHeader
        title={`Run ${run.id.slice(0, 10)}`}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <RunStatusBadge status={run.status} />
            <span className="font-mono text-xs">{run.recipe}</span>
            <span>on {run.base.name}</span>
            {run.cancelRequested && run.status === 'running' ? (
              <span className="text-xs font-medium text-amber-700" data-testid="cancel-requested">
                cancel requested: the agent stops at its next heartbeat
              </span>
            ) : null}
            <RunRefresher runId={run.id} active={active} />
          </span>
        }
        actions={active && !run.cancelRequested ? <CancelRunButton runId={run.id} cancel={cancelTrainingRunAction} /> : null}
      />
      <dl className="mb-8 grid gap-4 rounded-xl border border-zinc-200 bg-white p-5 shadow-sm sm:grid-cols-3 lg:grid-cols-6">
        <Fact label="Attempts" testId="run-attempts">
          {run.attempts} of {run.maxAttempts}
        </Fact>
        <Fact label="Agent">{run.agent ?? <span className="text-zinc-400">not claimed yet</span>}</Fact>
        <Fact label="Routing labels">
          {Object.keys(run.labels).length ? (
            <span className="font-mono text-xs">
              {Object.entries(run.labels)
                .map(([k, v]) => `${k}=${v}`)
                .join(', ')}
            </span>
          ) : (
            <span className="text-zinc-400">any agent</span>
          )}
        </Fact>
        <Fact label="Created">{formatDateTime(run.createdAt)}</Fact>
        <Fact label="Started">{run.startedAt ? formatDateTime(run.startedAt) : '—'}</Fact>
        <Fact label="Finished">{run.finishedAt ? formatDateTime(run.finishedAt) : '—'}</Fact>
        <div className="sm:col-span-3 lg:col-span-3">
          <dt className="text-xs font-medium uppercase tracking-wide text-zinc-500">Checkpoint</dt>
          <dd className="mt-0.5 text-sm" data-testid="run-checkpoint">
            {run.checkpoint ? (
              <>
                <span className="font-semibold text-zinc-900">{run.checkpoint.name}</span>{' '}
                <span className="break-all font-mono text-xs text-zinc-500">{run.checkpoint.uri}</span>
              </>
            ) : (
              <span className="text-zinc-400">none registered yet</span>
            )}
          </dd>
        </div>
        <div className="sm:col-span-3 lg:col-span-3">
          <dt className="text-xs font-medium uppercase tracking-wide text-zinc-500">Base model URI</dt>
          <dd className="mt-0.5 break-all font-mono text-xs text-zinc-700">{run.base.uri ?? '—'}</dd>
        </div>
      </dl>
      {run.failureReason || run.evalError ? (
        <div
          role="alert"
          className="mb-8 space-y-1 rounded-md border border-rose-200 bg-rose-50 px-4 py-3 text-sm text-rose-900"
          data-testid="run-failure"
        >
          {run.failureReason ? <p className="whitespace-pre-wrap break-words">Failed: {run.failureReason}</p> : null}
          {run.evalError ? <p className="whitespace-pre-wrap break-words">Evaluation: {run.evalError}</p> : null}
        </div>
      ) : null}

      <Section title="Training curves" id="curves">
        {lineage.curves.length === 0 ? (
          <p className="rounded-lg border border-dashed border-zinc-300 bg-white px-4 py-6 text-center text-sm text-zinc-500">
            {active ? 'No metrics yet: they appear here as the agent streams them.' : 'This run reported no metrics.'}
          </p>
        ) : (
          <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {lineage.curves.map((c) => (
              <MetricChart key={c.name} name={c.name} series={c.series} />
            ))}
          </div>
        )}
      </Section>

      {comparison ? (
        <Section title="Canary: new checkpoint vs parent" id="canary">
          <CanaryComparison view={comparison} />
        </Section>
      ) : null}

      <Section
        title="Frozen label set"
        id="labels"
        aside={
          <span className="flex gap-3 text-xs">
            <a href={`/api/v1/exports/${run.exportId}/file`} download className="font-semibold text-indigo-700 hover:underline">
              Download the dataset
            </a>
            <a href={`/api/v1/exports/${run.exportId}/card`} target="_blank" rel="noreferrer" className="text-zinc-600 hover:underline">
              Card
            </a>
          </span>
        }
      >
        <dl
          className="mb-4 grid gap-4 rounded-xl border border-zinc-200 bg-white p-5 shadow-sm sm:grid-cols-3 lg:grid-cols-6"
          data-testid="label-set"
        >
          <Fact label="Rows">{run.rows}</Fact>
          <Fact label="Labels">{lineage.labels.labels}</Fact>
          <Fact label="Reviewers">{lineage.labels.reviewers}</Fact>
          <Fact label="Reviewer-hours">{hours(lineage.labels.reviewerHours)}</Fact>
          <Fact label="Stale" testId="stale-count">
            {lineage.labels.stale ? <span className="font-semibold text-amber-800">{lineage.labels.stale} revised since</span> : 'none'}
          </Fact>
          <Fact label="sha256">
            <span className="font-mono text-xs" title={run.sha256}>
              {run.sha256.slice(0, 12)}
            </span>
          </Fact>
        </dl>
        {lineage.labels.campaigns.length ? (
          <DataTable testId="label-campaigns" edges columns={['Campaign', right('Labels')]}>
            {lineage.labels.campaigns.map((c) => (
              <tr key={c.id}>
                <td className="px-4 py-2">
                  <IntentLink href={`/lead/campaigns/${c.id}`} className="text-indigo-700 hover:underline">
                    {c.name}
                  </IntentLink>
                </td>
                <td className="px-4 py-2 text-right font-mono text-xs tabular-nums">{c.labels}</td>
              </tr>
            ))}
          </DataTable>
        ) : null}
        {lineage.stale.length ? (
          <div className="mt-4 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900" data-testid="stale-reviews">
            <p className="font-medium">Reviews revised after this run froze its labels (it trained on the earlier revision):</p>
            <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs">
              {lineage.stale.map((s) => (
                <li key={s.reviewId}>
                  {s.itemId ? (
                    <IntentLink href={`/lead/campaigns/${s.campaignId}/adjudication/${s.itemId}`} className="underline">
                      {campaignName.get(s.campaignId) ?? 'campaign'} · item {s.itemId.slice(0, 8)}
                    </IntentLink>
                  ) : (
                    <span>review {s.reviewId.slice(0, 8)} (deleted)</span>
                  )}
                </li>
              ))}
              {lineage.labels.stale > lineage.stale.length ? <li>and {lineage.labels.stale - lineage.stale.length} more</li> : null}
            </ul>
          </div>
        ) : null}
      </Section>

      <Section title="Log tail" id="log">
        {run.logTail.length ? (
          <pre
            className="max-h-96 overflow-auto rounded-lg bg-zinc-950 p-4 font-mono text-xs leading-5 text-zinc-100"
            data-testid="log-tail"
          >
            {run.logTail.join('\n')}
          </pre>
        ) : (
          <p className="text-sm text-zinc-500">No output yet.</p>
        )}
      </Section>
    </>
  );
}
