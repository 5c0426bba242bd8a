import type { ReactNode } from 'react';
import { ProjectTabs } from '@/components/projects/project-tabs';
import { TrendChart } from '@/components/insight/trend-chart';
import { MetricChart } from '@/components/training/metric-chart';
import { RunStatusBadge } from '@/components/training/run-status-badge';
import { EmptyState } from '@/components/ui/empty-state';
import { IntentLink } from '@/components/ui/intent-link';
import { PageHeader } from '@/components/ui/page-header';
import { DataTable, right } from '@/components/ui/table';
import { NoProjects } from '@/components/projects/no-projects';
import type { Proportion } from '@/lib/insight/intervals';
import { hillClimbFigureLabel, hillClimbFigures, type HillClimbView } from '@/lib/training/view-hill-climb';
import type { WinRate } from '@/lib/training/win-rates-vs-parent';
import { lineageAtAGlance, viewHillClimb } from '@/lib/training/view-hill-climb';
import { requirePageUser } from '../../../_server/current-user';
import { orErrorPage } from '../../../_server/or-not-found';

export const metadata = { title: 'Hill climb' };
export const dynamic = 'force-dynamic';

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** A rate with its 95% interval and n, or a dash with n = 0. */
function Rate({ p, testId }: { p: Proportion | WinRate | null; testId?: string }) {
  if (!p || p.rate === null)
    return (
      <span className="text-zinc-400" data-testid={testId}>
        — <span className="text-[11px]">n=0</span>
      </span>
    );
  return (
    <span className="whitespace-nowrap font-mono text-xs tabular-nums" data-testid={testId}>
      <span className="font-semibold text-zinc-900">{pct(p.rate)}</span>{' '}
      <span className="text-[11px] text-zinc-500">
        {p.ci ? `[${pct(p.ci[0])}, ${pct(p.ci[1])}]` : ''} n={p.n}
      </span>
    </span>
  );
}

/** A checkpoint whose win rates could not be computed: said on its row, the reason on hover. */
function Unavailable({ reason }: { reason: string }) {
  return (
    <span className="text-xs text-amber-700" title={reason} data-testid="win-unavailable">
      unavailable
    </span>
  );
}

/** A win-rate cell of a checkpoint's row: "unavailable" (why, on hover) when its figures could not be computed, empty for a base without a run. */
function WinRateCell({ checkpoint, children }: { checkpoint: { run: unknown; winRatesUnavailable: string | null }; children: ReactNode }) {
  return (
    <td className="px-3 py-2">
      {checkpoint.winRatesUnavailable ? <Unavailable reason={checkpoint.winRatesUnavailable} /> : checkpoint.run ? children : null}
    </td>
  );
}

const hours = (h: number) => (h >= 10 ? h.toFixed(0) : h >= 1 ? h.toFixed(1) : h.toFixed(2));

function link(view: HillClimbView, over: { figure?: string; checkpoint?: string }) {
  const p = new URLSearchParams({ project: view.project!.slug });
  const figure = over.figure ?? view.figure;
  if (figure !== 'pass') p.set('figure', figure);
  const checkpoint = over.checkpoint ?? view.query.checkpoint;
  if (checkpoint) p.set('checkpoint', checkpoint);
  return `/training/hill-climb?${p.toString()}`;
}

/**
 * Did the reviewer-hours loop back? Per project: the checkpoints as a lineage, the labels behind
 * each (count, campaigns, reviewers, reviewer-hours, stale), eval pass rate and win rates vs
 * parent with their intervals, the chosen figure across checkpoints, and the training curves of
 * a checkpoint beside its nearest ancestors.
 */
export default async function HillClimbPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser('lead');
  const params = await searchParams;
  const showAll = params.all === '1';
  const result = await orErrorPage(async () => viewHillClimb(user, params), { show: ['BAD_INPUT'], notFoundField: 'project' });
  if (result.error) {
    return (
      <>
        <PageHeader title="Hill climb" />
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {result.error.message}
        </p>
      </>
    );
  }
  const view = result.data;
  if (!view.project)
    return (
      <>
        <PageHeader title="Hill climb" />
        <NoProjects viewer={{ email: user.email, admin: user.role === 'admin' }}>
          Import trajectories, review them, and train on the labels: each checkpoint shows up here.
        </NoProjects>
      </>
    );
  const focus = view.checkpoints.find((c) => c.id === view.focus) ?? null;
  // at a glance: the focused checkpoint's line and the newest others; every checkpoint one click away (?all=1)
  const rows = showAll ? view.checkpoints : lineageAtAGlance(view);
  const anyWinRates = view.checkpoints.some((c) => c.winRates);
  return (
    <>
      <nav className="mb-2 text-sm text-zinc-500">
        <IntentLink href={`/training?project=${encodeURIComponent(view.project.slug)}`} className="hover:text-zinc-800 hover:underline">
          Training
        </IntentLink>{' '}
        / <span className="text-zinc-700">{view.project.name}</span>
      </nav>
      <PageHeader
        title="Hill climb"
        description="Checkpoint by checkpoint: the labels that trained it, what it cost in reviewer-hours, and whether it got better, each figure with its 95% interval."
      />
      <ProjectTabs
        projects={view.projects}
        current={view.project.slug}
        href={(slug) => `/training/hill-climb?project=${encodeURIComponent(slug)}`}
      />
      {view.checkpoints.length === 0 ? (
        <EmptyState title="No checkpoints yet">
          A checkpoint appears here when a training run registers it, as a child of the policy it was trained from. Start a run with
          &ldquo;Train on these labels&rdquo; on a campaign or the Datasets page.
        </EmptyState>
      ) : (
        <>
          <section aria-labelledby="figure" className="mb-8 rounded-xl border border-zinc-200 bg-white p-5 shadow-sm">
            <div className="mb-2 flex flex-wrap items-center justify-between gap-3">
              <h2 id="figure" className="text-sm font-semibold text-zinc-800">
                {hillClimbFigureLabel[view.figure]} across checkpoints
              </h2>
              <nav aria-label="Figure" className="flex flex-wrap gap-1 text-xs">
                {hillClimbFigures.map((f) => (
                  <IntentLink
                    key={f}
                    href={link(view, { figure: f })}
                    aria-current={f === view.figure ? 'page' : undefined}
                    className={
                      f === view.figure
                        ? 'rounded-md bg-indigo-600 px-2.5 py-1 font-medium text-white'
                        : 'rounded-md border border-zinc-300 px-2.5 py-1 text-zinc-700 hover:bg-zinc-50'
                    }
                  >
                    {f === 'pass' ? 'pass rate' : `${f} win rate`}
                  </IntentLink>
                ))}
              </nav>
            </div>
            <TrendChart points={view.chart} label={hillClimbFigureLabel[view.figure]} color="#4f46e5" percent testId="hill-climb-chart" />
            {view.figure !== 'pass' && !anyWinRates ? (
              <p className="mt-2 text-xs text-zinc-500">
                No canary comparison yet: a checkpoint&apos;s win rate vs its parent appears once its eval trajectories and its
                parent&apos;s share tasks and the canary campaign opens.
              </p>
            ) : null}
          </section>

          <section aria-labelledby="lineage" className="mb-8">
            <h2 id="lineage" className="mb-3 text-sm font-semibold uppercase tracking-wide text-zinc-500">
              Lineage
            </h2>
            <DataTable
              testId="lineage"
              edges
              columns={[
                'Checkpoint',
                'Run',
                right('Labels'),
                'Campaigns',
                right('Reviewers'),
                right('Reviewer-hours'),
                'Pass rate (eval)',
                'Human vs parent',
                'Judge vs parent',
                'PPI vs parent',
                'Curves',
              ]}
            >
              {rows.map((c) => (
                <tr
                  key={c.id}
                  data-testid="lineage-row"
                  data-checkpoint={c.name}
                  className={c.id === view.focus ? 'bg-indigo-50/50' : undefined}
                >
                  <td className="px-4 py-2">
                    <span style={{ paddingLeft: `${c.depth * 1.25}rem` }} className="inline-flex items-center gap-1">
                      {c.depth > 0 ? (
                        <span aria-hidden className="text-zinc-400">
                          └
                        </span>
                      ) : null}
                      <span className="font-medium text-zinc-900" title={c.run?.checkpointUri ?? c.model ?? undefined}>
                        {c.name}
                      </span>
                      {c.depth === 0 ? <span className="text-[11px] text-zinc-500">base</span> : null}
                    </span>
                  </td>
                  <td className="px-3 py-2 text-xs">
                    {c.run ? (
                      <span className="inline-flex items-center gap-1.5">
                        <IntentLink href={`/training/runs/${c.run.id}`} className="font-mono text-indigo-700 hover:underline">
                          {c.run.recipe}
                        </IntentLink>
                        <RunStatusBadge status={c.run.status} />
                      </span>
                    ) : (
                      <span className="text-zinc-400">—</span>
                    )}
                  </td>
                  <td className="px-3 py-2 text-right font-mono text-xs tabular-nums">
                    {c.labels ? (
                      <>
                        {c.labels.labels}
                        {c.labels.stale ? (
                          <span className="ml-1 text-amber-700" title="labels revised since the run froze them" data-testid="stale">
                            ({c.labels.stale} stale)
                          </span>
                        ) : null}
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td className="max-w-48 px-3 py-2 text-xs">
                    {c.labels?.campaigns.length
                      ? c.labels.campaigns.map((k, i) => (
                          <span key={k.id}>
                            {i > 0 ? ', ' : ''}
                            <IntentLink href={`/lead/campaigns/${k.id}`} className="text-indigo-700 hover:underline">
                              {k.name}
                            </IntentLink>
                          </span>
                        ))
                      : '—'}
                  </td>
                  <td className="px-3 py-2 text-right font-mono text-xs tabular-nums">{c.labels ? c.labels.reviewers : '—'}</td>
                  <td className="px-3 py-2 text-right font-mono text-xs tabular-nums" data-testid="reviewer-hours">
                    {c.labels ? hours(c.labels.reviewerHours) : '—'}
                  </td>
                  <td className="px-3 py-2">
                    <Rate p={c.pass} testId="pass-rate" />
                  </td>
                  <WinRateCell checkpoint={c}>
                    <Rate p={c.winRates?.human ?? null} testId="human-win" />
                  </WinRateCell>
                  <WinRateCell checkpoint={c}>
                    <Rate p={c.winRates?.judge ?? null} />
                  </WinRateCell>
                  <WinRateCell checkpoint={c}>
                    <span title={c.winRates?.sentence}>
                      <Rate p={c.winRates?.ppi ?? null} />
                      {c.winRates ? (
                        <span className="ml-1 text-[11px] font-semibold uppercase text-zinc-600">{c.winRates.verdict}</span>
                      ) : null}
                    </span>
                  </WinRateCell>
                  <td className="px-4 py-2 text-xs">
                    {c.run ? (
                      c.id === view.focus ? (
                        <span className="font-medium text-indigo-800">shown</span>
                      ) : (
                        <IntentLink href={link(view, { checkpoint: c.name })} className="text-indigo-700 hover:underline">
                          show
                        </IntentLink>
                      )
                    ) : null}
                  </td>
                </tr>
              ))}
            </DataTable>
            {rows.length < view.checkpoints.length || showAll ? (
              <p className="mt-2 text-xs text-zinc-500" data-testid="lineage-more">
                {showAll ? (
                  <>
                    All {view.checkpoints.length} checkpoints.{' '}
                    <IntentLink href={link(view, {})} className="text-indigo-700 hover:underline">
                      Show the newest and the chosen line only
                    </IntentLink>
                  </>
                ) : (
                  <>
                    Showing {rows.length} of {view.checkpoints.length} checkpoints: the chosen one&apos;s line and the newest.{' '}
                    <IntentLink href={`${link(view, {})}&all=1`} className="text-indigo-700 hover:underline">
                      Show all {view.checkpoints.length}
                    </IntentLink>
                  </>
                )}
              </p>
            ) : null}
          </section>

          <section aria-labelledby="curves" className="mb-8">
            <h2 id="curves" className="mb-3 text-sm font-semibold uppercase tracking-wide text-zinc-500">
              Training curves{focus ? ` — ${focus.name} and its ancestors` : ''}
            </h2>
            {view.curves.length === 0 ? (
              <p className="rounded-lg border border-dashed border-zinc-300 bg-white px-4 py-6 text-center text-sm text-zinc-500">
                {focus ? `No metrics reported for ${focus.name}.` : 'No run has produced a checkpoint yet.'}
              </p>
            ) : (
              <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" data-testid="hill-climb-curves">
                {view.curves.map((c) => (
                  <MetricChart key={c.name} name={c.name} series={c.series} />
                ))}
              </div>
            )}
          </section>
        </>
      )}
    </>
  );
}
