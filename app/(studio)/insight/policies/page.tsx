import { IntentLink } from '@/components/ui/intent-link';
import { EstimateMethod, EstimateTable } from '@/components/insight/estimate-table';
import { Card, CsvLink, MethodNotes } from '@/components/insight/figures';
import { InsightTabs } from '@/components/insight/insight-tabs';
import { IntervalChart } from '@/components/insight/interval-chart';
import { intervalPoint, meanPoint, ratePoint } from '@/components/insight/interval-point';
import { PolicyTable } from '@/components/insight/policy-table';
import { TrendChart } from '@/components/insight/trend-chart';
import { inert } from '@/lib/rich-text/inert-text';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { viewPolicyInsight } from '@/lib/insight/view-policy-insight';
import { loadInsightPage, type InsightPageProps } from '../insight-page';

export const metadata = { title: 'Insight · Policies' };

export default async function PoliciesInsightPage(props: InsightPageProps) {
  const loaded = await loadInsightPage('policies', props, viewPolicyInsight);
  if ('instead' in loaded) return loaded.instead;
  const { projects, data } = loaded;
  const { project, report, environment, environments, estimates } = data;
  const p = encodeURIComponent(project.slug);
  const envQ = environment ? `&env=${encodeURIComponent(environment.name)}` : '';
  const csv = `/api/v1/insight/policies?project=${p}${envQ}&format=csv`;
  const rated = report.policies.filter((x) => x.rating !== null);
  const shortNames = report.policies.map((x) => shortName(x.name));
  const label = new Set(shortNames).size === shortNames.length ? shortName : (name: string) => name;
  const leader = rated[0]?.name ?? null;
  return (
    <>
      <PageHeader
        title="Policies"
        description={`Leaderboard of ${project.name}${environment ? ` on ${environment.name}` : ''}: Bradley-Terry ratings from ${report.nComparisons} pairwise comparisons (95% bootstrap CIs, ${report.bootstrapRounds} resamples) beside rubric scores and pass rates.`}
        actions={<CsvLink href={csv} />}
      />
      <InsightTabs projects={projects} project={project.slug} />
      <nav aria-label="Environment" className="mb-5 flex flex-wrap gap-1.5 text-xs">
        {[{ name: null as string | null }, ...environments.map((e) => ({ name: e.name }))].map((e) => {
          const active = (environment?.name ?? null) === e.name;
          return (
            <IntentLink
              key={e.name ?? '(all)'}
              href={`/insight/policies?project=${p}${e.name ? `&env=${encodeURIComponent(e.name)}` : ''}`}
              aria-current={active ? 'page' : undefined}
              className={`rounded-full px-2.5 py-1 ring-1 ring-inset ${active ? 'bg-indigo-600 text-white ring-indigo-600' : 'bg-white text-zinc-700 ring-zinc-300 hover:bg-zinc-50'}`}
            >
              {e.name ? inert(e.name) : 'All environments'}
            </IntentLink>
          );
        })}
      </nav>
      {report.policies.length === 0 ? (
        <EmptyState title="No policies with trajectories here">Pick another environment, or import runs of more policies.</EmptyState>
      ) : (
        <div className="space-y-6">
          <div className="grid gap-6 lg:grid-cols-2">
            <Card title="Bradley-Terry rating (Elo scale, 95% CI)">
              {rated.length === 0 ? (
                <p className="text-sm text-zinc-500">
                  No pairwise comparisons yet: run a pairwise campaign to rate policies against each other.
                </p>
              ) : (
                <IntervalChart
                  testId="bt-chart"
                  percent={false}
                  rows={rated.map((x) => ({
                    label: label(x.name),
                    values: { rating: intervalPoint(x.rating, x.ratingCi, x.battles) },
                  }))}
                  series={[{ key: 'rating', label: 'Rating', color: '#6366f1' }]}
                />
              )}
            </Card>
            <Card title="Rubric score and pass rates (95% CI)">
              <IntervalChart
                testId="score-chart"
                rows={report.policies.map((x) => ({
                  label: label(x.name),
                  values: {
                    score: meanPoint(x.rubricScore),
                    verifier: ratePoint(x.verifierPass),
                    reviewers: ratePoint(x.reviewerPass),
                  },
                }))}
                series={[
                  { key: 'score', label: 'Rubric score (0–1)', color: '#8b5cf6' },
                  { key: 'verifier', label: 'Verifier pass', color: '#a1a1aa' },
                  { key: 'reviewers', label: 'Reviewers pass', color: '#10b981' },
                ]}
              />
            </Card>
          </div>
          <Card title="Leaderboard" actions={<CsvLink href={csv} />}>
            <PolicyTable
              policies={report.policies}
              compareHref={(name) =>
                leader && name !== leader
                  ? `/insight/compare?project=${p}&a=${encodeURIComponent(name)}&b=${encodeURIComponent(leader)}${envQ}`
                  : null
              }
            />
          </Card>
          {estimates && estimates.estimates.length > 0 ? (
            <Card title="Human reviews alone vs prediction-powered, per policy (95% CI)">
              <EstimateTable
                figures={estimates.estimates}
                groupHeader="Policy"
                downloadHref={(figure) => `/api/v1/insight/policies?project=${p}${envQ}&format=estimate&figure=${figure}`}
              />
            </Card>
          ) : null}
          {report.trends.map((t) => {
            const at = (x: (typeof t.points)[number]) => x.checkpoint ?? x.name;
            const charts = [
              {
                label: 'Bradley-Terry rating',
                color: '#6366f1',
                percent: false,
                points: t.points.map((x) => ({ checkpoint: at(x), ...intervalPoint(x.rating, x.ratingCi, x.battles) })),
              },
              {
                label: 'Rubric score (0–1)',
                color: '#8b5cf6',
                percent: false,
                points: t.points.map((x) => ({ checkpoint: at(x), ...meanPoint(x.rubricScore) })),
              },
              {
                label: 'Reviewers pass',
                color: '#10b981',
                percent: true,
                points: t.points.map((x) => ({ checkpoint: at(x), ...ratePoint(x.reviewerPass) })),
              },
            ];
            const measured = charts.filter((c) => c.points.some((x) => x.value !== null));
            return (
              <Card
                key={t.family}
                title={`Across checkpoints: ${t.family}`}
                actions={
                  t.points.length >= 2 ? (
                    <IntentLink
                      className="text-xs text-indigo-700 hover:underline"
                      href={`/insight/compare?project=${p}&a=${encodeURIComponent(t.points.at(-2)!.name)}&b=${encodeURIComponent(t.points.at(-1)!.name)}${envQ}`}
                    >
                      compare the last two
                    </IntentLink>
                  ) : null
                }
              >
                {measured.length === 0 ? (
                  <p className="text-sm text-zinc-500" data-testid="trend-empty">
                    Nothing to draw yet across {t.points.map(at).join(', ')}: no pairwise comparisons, rubric scores or reviewer verdicts of
                    these checkpoints{environment ? ` on ${environment.name}` : ''}. Review their runs in a campaign to see the trend.
                  </p>
                ) : (
                  <div
                    className={`grid gap-4 ${measured.length === 1 ? '' : measured.length === 2 ? 'lg:grid-cols-2' : 'lg:grid-cols-3'}`}
                    data-testid="trend"
                  >
                    {measured.map((c) => (
                      <TrendChart key={c.label} label={c.label} color={c.color} percent={c.percent} points={c.points} />
                    ))}
                  </div>
                )}
                {measured.length > 0 && measured.length < charts.length ? (
                  <p className="mt-2 text-xs text-zinc-500">
                    Not measured at any checkpoint yet:{' '}
                    {charts
                      .filter((c) => !measured.includes(c))
                      .map((c) => c.label)
                      .join(', ')}
                    .
                  </p>
                ) : null}
              </Card>
            );
          })}
          <MethodNotes>
            <li>
              <b>Bradley-Terry</b>: current pairwise comparisons; a preference above 0 is a win for B, below 0 for A, 0 a tie; “both bad” is
              a tie whatever the preference. Ratings on the Elo scale (mean 1000), 95% percentile bootstrap over comparisons. n =
              comparisons the policy took part in.
              {report.priorUsed ? ' Some policies never won or never lost: a weak prior keeps their ratings finite.' : ''}
            </li>
            <li>
              <b>Rubric score</b>: the first Likert question of each review’s rubric, normalised to 0–1 as (score − 1) / (points − 1); mean
              over current reviews with a 95% t interval. n = reviews.
            </li>
            <li>
              <b>Pass rates</b>: verifier reward ≥ 1; reviewers’ majority verdict (all criteria pass). Wilson 95% intervals; n =
              trajectories.
            </li>
            <li>
              <b>Checkpoints</b>: policies of one model (the policy’s model, or the name before “@”), ordered by the last number in the
              checkpoint (ckpt-2000 → 2000).
            </li>
            <EstimateMethod />
          </MethodNotes>
        </div>
      )}
    </>
  );
}

function shortName(name: string): string {
  const at = name.indexOf('@');
  return at > 0 ? name.slice(at + 1) : name.length > 24 ? `${name.slice(0, 22)}…` : name;
}
