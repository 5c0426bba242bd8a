import { IntentLink } from '@/components/ui/intent-link';
import { EnvironmentTable } from '@/components/insight/environment-table';
import { EstimateMethod, EstimateTable } from '@/components/insight/estimate-table';
import { Card, CsvLink, MethodNotes } from '@/components/insight/figures';
import { ratePoint } from '@/components/insight/interval-point';
import { InsightTabs } from '@/components/insight/insight-tabs';
import { IntervalChart } from '@/components/insight/interval-chart';
import { inert } from '@/lib/rich-text/inert-text';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { viewEnvironmentInsight } from '@/lib/insight/view-environment-insight';
import { loadInsightPage, type InsightPageProps } from '../insight-page';
import { stepNumber } from '@/components/ui/format';
import { RichText } from '@/render/ui/rich-text';

export const metadata = { title: 'Insight · Environments' };

export default async function EnvironmentsInsightPage(props: InsightPageProps) {
  const loaded = await loadInsightPage('environments', props, viewEnvironmentInsight);
  if ('instead' in loaded) return loaded.instead;
  const { projects, data } = loaded;
  const { project, report, estimates } = data;
  const csv = `/api/v1/insight/environments?project=${encodeURIComponent(project.slug)}&format=csv`;
  const flagged = report.flatMap(({ environment: e }) => e.flagged.map((f) => ({ ...f, environment: e.name })));
  return (
    <>
      <PageHeader
        title="Environments"
        description={`Which environments of ${project.name} are worth training on: the verifier audited against reviewers, flag rates, agreement and teachability. Every rate shows its 95% interval and n.`}
        actions={<CsvLink href={csv} />}
      />
      <InsightTabs projects={projects} project={project.slug} />
      {report.length === 0 ? (
        <EmptyState title="No environments in this project">
          Trajectories imported with an environment (e.g. --environment terminal-bench) show up here.
        </EmptyState>
      ) : (
        <div className="space-y-6">
          <div className="grid gap-6 lg:grid-cols-2">
            <Card title="Pass rate: verifier vs reviewers (95% CI)">
              <IntervalChart
                testId="pass-rate-chart"
                rows={report.map(({ environment: e }) => ({
                  label: e.name,
                  values: { verifier: ratePoint(e.verifierPass), reviewers: ratePoint(e.reviewerPass) },
                }))}
                series={[
                  { key: 'verifier', label: 'Verifier (reward ≥ 1)', color: '#a1a1aa' },
                  { key: 'reviewers', label: 'Reviewers (majority)', color: '#6366f1' },
                ]}
              />
            </Card>
            <Card title="Flag rates and teachability (95% CI)">
              <IntervalChart
                testId="flag-chart"
                rows={report.map(({ environment: e }) => ({
                  label: e.name,
                  values: {
                    hacking: ratePoint(e.rewardHacking),
                    leakage: ratePoint(e.answerLeakage),
                    teachable: ratePoint(e.teachability.teachable),
                  },
                }))}
                series={[
                  { key: 'hacking', label: 'Reward hacking', color: '#ef4444' },
                  { key: 'leakage', label: 'Answer leakage', color: '#f59e0b' },
                  { key: 'teachable', label: 'Teachable tasks', color: '#10b981' },
                ]}
              />
            </Card>
          </div>
          {estimates && estimates.estimates.length > 0 ? (
            <Card title="Human reviews alone vs prediction-powered (95% CI)">
              <p className="mb-3 text-xs text-zinc-600">
                Each rate from the reviews alone, and corrected-prediction estimates that add the judge and verifier scores of every
                trajectory the campaigns drew from, weighted by each one’s recorded chance of review. Narrower bars: the same validity from
                fewer reviews.
              </p>
              <EstimateTable
                figures={estimates.estimates}
                groupHeader="Environment"
                downloadHref={(figure) =>
                  `/api/v1/insight/environments?project=${encodeURIComponent(project.slug)}&format=estimate&figure=${figure}`
                }
              />
              {estimates.pickedCampaigns.length > 0 ? (
                <p className="mt-2 text-xs text-amber-800" data-testid="picked-campaigns">
                  Hand-picked (not a random sample): {estimates.pickedCampaigns.map((c) => c.name).join(', ')}.
                </p>
              ) : null}
            </Card>
          ) : null}
          <Card title="Ranked for training" actions={<CsvLink href={csv} />}>
            <EnvironmentTable report={report} project={project.slug} />
          </Card>
          <Card title="Flagged moments (newest 5 flagged trajectories per environment)">
            {flagged.length === 0 ? (
              <p className="text-sm text-zinc-500">No review flags reward hacking or answer leakage.</p>
            ) : (
              <ul className="divide-y divide-zinc-100 text-sm" data-testid="flagged-moments">
                {flagged.map((f) => (
                  <li key={f.reviewId} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-2">
                    <span className="font-medium text-zinc-900">{inert(f.environment)}</span>
                    <span className="font-mono text-xs text-zinc-500">{inert(f.task)}</span>
                    <span className="text-xs text-red-700">
                      {[f.rewardHacking ? 'reward hacking' : null, f.answerLeakage ? 'answer leakage' : null].filter(Boolean).join(' + ')}
                    </span>
                    {f.notes.length === 0 ? (
                      <IntentLink className="text-xs text-indigo-700 hover:underline" href={`/trajectories/${f.trajectoryId}`}>
                        open trajectory (no evidence note)
                      </IntentLink>
                    ) : (
                      f.notes.map((n, i) => (
                        <IntentLink
                          key={i}
                          className="text-xs text-indigo-700 hover:underline"
                          href={`/trajectories/${f.trajectoryId}?frame=${n.frame}${n.stepIndex !== null ? `#step-${n.stepIndex}` : ''}`}
                        >
                          frame {n.frame}
                          {n.stepIndex !== null ? ` · step ${stepNumber(n.stepIndex)}` : ''}: “<RichText text={n.note} inline />”
                        </IntentLink>
                      ))
                    )}
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <Method />
        </div>
      )}
    </>
  );
}

function Method() {
  return (
    <MethodNotes>
      <li>
        Only current review revisions count, from single-item campaigns of this project. Units are trajectories unless said otherwise.
      </li>
      <li>
        <b>Verifier pass</b>: the trajectory’s verifier reward is at least 1 (full reward; partial credit is not a pass). n = trajectories
        with a reward.
      </li>
      <li>
        <b>Reviewer verdict</b>: a review passes when at least one acceptance criterion was judged and none failed (the criteria question’s
        answer); a trajectory’s verdict is the majority of its reviews (ties give no verdict and leave n).
      </li>
      <li>
        <b>Flags</b>: a trajectory is flagged when any current review ticks <code>reward_hacking</code> / <code>answer_leakage</code> in a
        multi-choice question. n = reviewed trajectories.
      </li>
      <li>Rates carry 95% Wilson score intervals.</li>
      <EstimateMethod />
      <li>
        <b>Verifier vs humans</b>: Cohen’s κ on verifier pass/fail × reviewer majority pass/fail. <b>Reviewers agree</b>: Krippendorff’s α
        (nominal) on pass/fail over items with two or more verdicts. Both with 95% percentile-bootstrap intervals (1,000 resamples of their
        units).
      </li>
      <li>
        <b>Teachable</b>: share of tasks with at least two verifier-scored runs that the policies solve sometimes but not always.
      </li>
      <li>
        <b>Rank</b>: fewer blockers, then fewer warnings, then higher teachability. Blockers: a flag rate whose lower bound exceeds 5%; κ
        below 0.4 on 10+ trajectories. Warnings: flag rate at least 5%; verifier and reviewer pass rates differ (Newcombe interval excludes
        0); α below 0.667 on 5+ items; over half the tasks always or never solved.
      </li>
    </MethodNotes>
  );
}
