import { CompareTable } from '@/components/insight/compare-table';
import { Card, CsvLink, MethodNotes } from '@/components/insight/figures';
import { ratePoint } from '@/components/insight/interval-point';
import { InsightTabs } from '@/components/insight/insight-tabs';
import { IntervalChart } from '@/components/insight/interval-chart';
import { inert } from '@/lib/rich-text/inert-text';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { EstimateMethod, EstimateTable } from '@/components/insight/estimate-table';
import { viewCompareInsight } from '@/lib/insight/view-compare-insight';
import { loadInsightPage, type InsightPageProps } from '../insight-page';
import { compareChartRows } from '@/lib/insight/compare-chart-rows';
import { Options } from '@/components/ui/options';

export const metadata = { title: 'Insight · Compare checkpoints' };

const pct = (x: number) => `${Math.round(x * 100)}%`;

export default async function CompareInsightPage(props: InsightPageProps) {
  const loaded = await loadInsightPage('compare', props, viewCompareInsight);
  if ('instead' in loaded) return loaded.instead;
  const { projects, data } = loaded;
  const { project, report, policies, environment, environments, winRateEstimate } = data;
  const p = encodeURIComponent(project.slug);
  const csv = report
    ? `/api/v1/insight/compare?project=${p}&a=${encodeURIComponent(report.a.name)}&b=${encodeURIComponent(report.b.name)}${environment ? `&env=${encodeURIComponent(environment.name)}` : ''}&format=csv`
    : null;
  const w = report?.winRate;
  const chart = report ? compareChartRows(report.rows) : { rows: [], leftOut: 0 };
  return (
    <>
      <PageHeader
        title="Compare checkpoints"
        description="Canary comparison: is B really better than A, or is the difference still within noise? Every figure shows its 95% interval and n."
        actions={csv ? <CsvLink href={csv} /> : null}
      />
      <InsightTabs projects={projects} project={project.slug} />
      <form
        action="/insight/compare"
        className="mb-6 flex flex-wrap items-end gap-3 rounded-xl border border-zinc-200 bg-white p-4 text-sm shadow-sm"
      >
        <input type="hidden" name="project" value={project.slug} />
        {(['a', 'b'] as const).map((side) => (
          <label key={side} className="flex flex-col gap-1">
            <span className="text-xs font-medium text-zinc-500">{side === 'a' ? 'A (baseline)' : 'B (candidate)'}</span>
            <select
              name={side}
              defaultValue={report ? report[side].name : ''}
              className="min-w-64 rounded-md border border-zinc-300 bg-white px-2 py-1.5 font-mono text-xs"
            >
              <Options options={policies.map((x) => ({ value: x.name, label: x.name }))} />
            </select>
          </label>
        ))}
        <label className="flex flex-col gap-1">
          <span className="text-xs font-medium text-zinc-500">Environment</span>
          <select
            name="env"
            defaultValue={environment?.name ?? ''}
            className="rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-xs"
          >
            <option value="">All environments</option>
            <Options options={environments.map((e) => ({ value: e.name, label: e.name }))} />
          </select>
        </label>
        <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500">
          Compare
        </button>
      </form>
      {!report || !w ? (
        <EmptyState title="Two policies needed">This project has fewer than two policies with trajectories.</EmptyState>
      ) : (
        <div className="space-y-6">
          <div className="grid gap-6 lg:grid-cols-[22rem_minmax(0,1fr)]">
            <Card title="Win rate of B over A">
              <div data-testid="win-rate">
                {w.rate === null || !w.ci ? (
                  <p className="text-sm text-zinc-500">
                    No pairwise comparisons between {inert(report.a.name)} and {inert(report.b.name)} yet{' '}
                    <span className="text-xs">(n=0)</span>. Run a pairwise campaign over both.
                  </p>
                ) : (
                  <>
                    <p className="text-3xl font-semibold tabular-nums text-zinc-900">
                      {pct(w.rate)}{' '}
                      <span className="font-mono text-base font-normal text-zinc-500">
                        [{pct(w.ci[0])}, {pct(w.ci[1])}]
                      </span>
                    </p>
                    <p className="mt-1 text-xs text-zinc-500">
                      n={w.n} comparisons: B won {w.bWins}, A won {w.aWins}, {w.ties} ties (counted as half)
                    </p>
                    <p
                      className={`mt-3 text-sm ${w.distinguishable ? 'font-medium text-emerald-700' : 'text-zinc-700'}`}
                      data-testid="verdict"
                    >
                      {w.distinguishable
                        ? `${w.rate > 0.5 ? 'B' : 'A'} is better: the interval excludes 50%.`
                        : w.needed === null
                          ? 'No difference seen: any real difference is smaller than the noise at this sample size.'
                          : `Not distinguishable from noise yet: the interval includes 50%. At the observed ${pct(w.rate)}, about ${w.more} more comparisons (${w.needed} in all) would settle it.`}
                    </p>
                  </>
                )}
                <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
                  <dt className="text-zinc-500">A</dt>
                  <dd className="truncate font-mono text-zinc-800">{inert(report.a.name)}</dd>
                  <dt className="text-zinc-500">B</dt>
                  <dd className="truncate font-mono text-zinc-800">{inert(report.b.name)}</dd>
                </dl>
              </div>
            </Card>
            <Card
              title={
                chart.leftOut > 0
                  ? `Pass rates side by side (95% CI; the ${chart.rows.length - 2} criteria with most data, all ${report.rows.length - 2} below)`
                  : 'Pass rates side by side (95% CI)'
              }
            >
              <IntervalChart
                testId="compare-chart"
                rows={chart.rows.map((r) => ({
                  label: r.label.replace('Criterion: ', '').replace(' (reward ≥ 1)', '').replace(' (all criteria)', ''),
                  values: {
                    a: ratePoint(r.a),
                    b: ratePoint(r.b),
                  },
                }))}
                series={[
                  { key: 'a', label: `A ${report.a.name}`, color: '#a1a1aa' },
                  { key: 'b', label: `B ${report.b.name}`, color: '#6366f1' },
                ]}
              />
            </Card>
          </div>
          {winRateEstimate && csv ? (
            <Card title="Win rate over compared pairs: human reviews alone vs prediction-powered (95% CI)">
              <EstimateTable
                figures={[winRateEstimate.estimate]}
                groupHeader="B over A"
                downloadHref={() => csv.replace('format=csv', 'format=estimate')}
              />
            </Card>
          ) : null}
          <Card title="Per criterion" actions={csv ? <CsvLink href={csv} /> : null}>
            <CompareTable report={report} />
          </Card>
          <MethodNotes>
            <li>
              <b>Win rate</b>: current comparisons of a trajectory of A against one of B (either side); B wins when preferred, ties
              (preference 0 or “both bad”) count half. 95% Wilson interval on wins + ties/2 of n (conservative when there are many ties).
              Distinguishable when the interval excludes 50%.
            </li>
            <li>
              <b>How many more</b>: a two-sided test at α = 0.05 with 80% power, assuming the observed rate is the true one: n = ((1.96 ·
              0.5 + 0.84 · √(p(1−p))) / (p − 0.5))², minus the comparisons in hand. For two pass rates, per policy: n = (1.96 √(2 p̄ q̄) +
              0.84 √(p₁q₁ + p₂q₂))² / (p₁ − p₂)², minus the smaller sample.
            </li>
            <li>
              <b>Criteria</b>: each trajectory’s verdict per criterion is the majority of its current reviews (single-item reviews and each
              side of pairwise comparisons); ties leave n. Difference B − A with Newcombe’s hybrid score interval; beyond noise when it
              excludes 0.
            </li>
            <li>
              <b>Win rate, prediction-powered</b>: over the pairwise items pairing a run of A with a run of B, an item’s label is B’s share
              of its comparisons (ties half) and a source’s prediction is (1 + B’s score − A’s score) / 2.
            </li>
            <EstimateMethod />
          </MethodNotes>
        </div>
      )}
    </>
  );
}
