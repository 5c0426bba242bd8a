import { IntentLink } from '@/components/ui/intent-link';
import { BandBadge } from '@/components/agreement/band-badge';
import { CampaignTabs } from '@/components/agreement/campaign-tabs';
import { CoefficientChart } from '@/components/agreement/coefficient-chart';
import { CsvLink } from '@/components/agreement/csv-link';
import { DriftChart } from '@/components/agreement/drift-chart';
import { formatAlpha, formatCi, formatShare } from '@/components/agreement/format';
import { ReviewerMatrix } from '@/components/agreement/reviewer-matrix';
import { inert } from '@/lib/rich-text/inert-text';
import { Facts, Panel } from '@/components/trajectories/panel';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { SnapshotStatus } from '@/components/campaigns/snapshot-status';
import { auditRowDisagrees, DISAGREE_GAP } from '@/lib/agreement/audit';
import { dashboardParams } from '@/lib/agreement/dashboard-params';
import { viewAgreementDashboard } from '@/lib/agreement/view-agreement-dashboard';
import { orPageError } from '../../../../../_server/or-not-found';
import { requirePageUser } from '../../../../../_server/current-user';
import { DataTable } from '@/components/ui/table';

export const metadata = { title: 'Agreement' };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const td = 'px-3 py-2';

export default async function AgreementPage({ params, searchParams }: Props) {
  const user = await requirePageUser('lead');
  const { id } = await params;
  const options = dashboardParams(await searchParams);
  // the dashboard reads every current review of the campaign (1M at bench scale: minutes of
  // CPU): the page shows the stored snapshot the campaign.snapshot job keeps (as of its reviews)
  const { campaign, view } = await orPageError(viewAgreementDashboard(user, id, options, new Date()));
  const status = (
    <SnapshotStatus
      state={view.state}
      count={view.snapshot?.reviews ?? null}
      noun={campaign.mode === 'pairwise' ? ['comparison', 'comparisons'] : ['review', 'reviews']}
      builtAt={view.snapshot?.builtAt.toISOString() ?? null}
      newer={view.newer}
    />
  );
  const d = view.snapshot?.payload;
  if (!d)
    return (
      <>
        <PageHeader title={inert(campaign.name)} description={status} />
        <CampaignTabs campaignId={campaign.id} current="agreement" />
      </>
    );
  const matrixKey = d.matrix.questionKey;
  const matrix = d.matrix.matrix;
  const query = (extra: Record<string, string>) =>
    `?${new URLSearchParams({ ...(options.matrixQuestion ? { q: options.matrixQuestion } : {}), ...(options.threshold !== undefined ? { threshold: String(options.threshold) } : {}), ...extra })}`;
  const csvQuery = query({}).length > 1 ? query({}) : '';
  const dateLabel = (ms: number) => new Date(ms).toISOString().slice(5, 16).replace('T', ' ');

  return (
    <>
      <PageHeader
        title={inert(d.campaign.name)}
        description={
          <>
            Agreement of current reviews ({d.campaign.mode === 'pairwise' ? 'pairwise' : 'single item'}, k = {d.campaign.overlap}).{' '}
            <IntentLink href="/lead/agreement" className="text-indigo-700 hover:underline">
              All campaigns
            </IntentLink>
            <span className="mt-1 block">{status}</span>
          </>
        }
      />
      <CampaignTabs campaignId={d.campaign.id} current="agreement" disagreements={d.disagreementCount} />
      {d.reviewers.length === 0 ? (
        <EmptyState title="No reviews yet">Agreement appears once reviewers have submitted reviews in this campaign.</EmptyState>
      ) : (
        <div className="space-y-6">
          <Panel title="Campaign" id="summary">
            <Facts
              rows={[
                ['Items', `${d.campaign.reviewed} reviewed of ${d.campaign.items}`],
                ['Reviewers', String(d.reviewers.length)],
                [
                  'Disagreements',
                  <IntentLink
                    key="q"
                    href={`/lead/campaigns/${d.campaign.id}/adjudication`}
                    className="text-indigo-700 hover:underline"
                  >{`${d.disagreementCount} ${d.disagreementCount === 1 ? 'item' : 'items'} split beyond the threshold`}</IntentLink>,
                ],
                [
                  'Adjudicated',
                  `${d.campaign.adjudicated} ${d.campaign.adjudicated === 1 ? 'item' : 'items'} (final labels kept apart from the reviews)`,
                ],
              ]}
            />
          </Panel>

          <Panel title="Agreement per question" id="questions" actions={<CsvLink campaignId={d.campaign.id} table="questions" />}>
            <p className="mb-2 text-xs text-zinc-500">
              Krippendorff&apos;s alpha at the level that fits each question, with a 95% bootstrap interval (1,000 resamples of items).
              Guidance: ≥ 0.800 reliable, ≥ 0.667 tentative, below: not usable as a reward.
            </p>
            <CoefficientChart bars={d.questions.map((q) => ({ label: q.label, value: q.value, ci: q.ci, band: q.band }))} />
            <DataTable
              testId="question-table"
              frame="none"
              className="mt-3"
              columns={[
                'Question',
                'Level',
                { label: 'Alpha', className: 'px-3 py-2 text-right' },
                '95% CI',
                'Reliability',
                { label: 'Items', className: 'px-3 py-2 text-right' },
                { label: 'Raters', className: 'px-3 py-2 text-right' },
              ]}
            >
              {d.questions.map((q) => (
                <tr key={q.key}>
                  <td className={`${td} max-w-md`}>
                    <div className="truncate text-zinc-900" title={inert(q.label)}>
                      {inert(q.label)}
                    </div>
                    <div className="font-mono text-[11px] text-zinc-400">{q.key}</div>
                  </td>
                  <td className={`${td} text-zinc-600`}>{q.level}</td>
                  <td className={`${td} text-right font-mono tabular-nums`}>{formatAlpha(q.value)}</td>
                  <td className={`${td} font-mono text-xs tabular-nums text-zinc-600`}>{formatCi(q.ci)}</td>
                  <td className={td}>
                    <BandBadge band={q.band} />
                  </td>
                  <td className={`${td} text-right tabular-nums`}>{q.nItems}</td>
                  <td className={`${td} text-right tabular-nums`}>{q.nRaters}</td>
                </tr>
              ))}
            </DataTable>
          </Panel>

          <Panel title="Reviewers" id="reviewers" actions={<CsvLink campaignId={d.campaign.id} table="reviewers" />}>
            <DataTable
              testId="reviewer-table"
              frame="none"
              columns={[
                'Reviewer',
                { label: 'Items', className: 'px-3 py-2 text-right' },
                {
                  label: <span title="Share of answers that match the consensus of the other reviewers">With consensus (LOO)</span>,
                  className: 'px-3 py-2 text-right',
                },
                { label: 'Dawid-Skene accuracy', className: 'px-3 py-2 text-right' },
                { label: 'Gold accuracy', className: 'px-3 py-2 text-right' },
                { label: 'Items / hour', className: 'px-3 py-2 text-right' },
                { label: 'Median time', className: 'px-3 py-2 text-right' },
                { label: 'Watch coverage', className: 'px-3 py-2 text-right' },
              ]}
            >
              {d.reviewers.map((r) => (
                <tr key={r.reviewerId}>
                  <td className={`${td} font-medium text-zinc-900`}>{inert(r.name)}</td>
                  <td className={`${td} text-right tabular-nums`}>{r.reviews}</td>
                  <td className={`${td} text-right tabular-nums`}>
                    {formatShare(r.looAgreement)} <span className="text-xs text-zinc-400">n={r.looCompared}</span>
                  </td>
                  <td className={`${td} text-right tabular-nums`}>{formatShare(r.dsAccuracy)}</td>
                  <td className={`${td} text-right tabular-nums`}>
                    {formatShare(r.goldAccuracy)} {r.goldItems ? <span className="text-xs text-zinc-400">n={r.goldItems}</span> : null}
                  </td>
                  <td className={`${td} text-right tabular-nums`}>{r.itemsPerHour === null ? '—' : r.itemsPerHour.toFixed(1)}</td>
                  <td className={`${td} text-right tabular-nums`}>{r.medianSec === null ? '—' : `${Math.round(r.medianSec)} s`}</td>
                  <td className={`${td} text-right tabular-nums`}>{formatShare(r.meanCoverage)}</td>
                </tr>
              ))}
            </DataTable>
          </Panel>

          <div className="grid gap-6 xl:grid-cols-2">
            <Panel title="Reviewer × reviewer" id="matrix" actions={<CsvLink campaignId={d.campaign.id} table="matrix" query={csvQuery} />}>
              <nav aria-label="Matrix question" className="mb-3 flex flex-wrap gap-1">
                {d.matrix.options.map((o) => (
                  <IntentLink
                    key={o.key}
                    href={query({ q: o.key })}
                    scroll={false}
                    aria-current={o.key === matrixKey ? 'true' : undefined}
                    className={`max-w-56 truncate rounded-full px-2.5 py-0.5 text-xs ring-1 ring-inset ${o.key === matrixKey ? 'bg-indigo-600 text-white ring-indigo-600' : 'bg-white text-zinc-700 ring-zinc-200 hover:ring-indigo-300'}`}
                    title={inert(o.label)}
                  >
                    {inert(o.label)}
                  </IntentLink>
                ))}
              </nav>
              <ReviewerMatrix matrix={matrix} names={d.matrix.names} />
            </Panel>
            <Panel title="Agreement over time" id="drift" actions={<CsvLink campaignId={d.campaign.id} table="drift" />}>
              <p className="mb-2 text-xs text-zinc-500">Alpha per chronological batch of items (by when their last review came in).</p>
              {d.drift.batches.length < 2 ? (
                <p className="text-sm text-zinc-500">Not enough reviewed items yet to cut into batches (3 items per batch at least).</p>
              ) : (
                <DriftChart
                  batches={d.drift.batches.map((b) => ({ label: `#${b.index + 1} ${dateLabel(b.to)}`, alpha: b.alpha }))}
                  questions={d.drift.questions}
                />
              )}
            </Panel>
          </div>

          <Panel
            title="Measurement audit"
            id="audit"
            actions={
              <span className="flex gap-1">
                <CsvLink campaignId={d.campaign.id} table="audit" query={csvQuery} />
                <CsvLink campaignId={d.campaign.id} table="audit-items" query={csvQuery} label="Items CSV" />
              </span>
            }
          >
            <p className="mb-3 text-xs text-zinc-500">
              Humans ({d.audit.humanBasis ?? 'no scored question'}) against the verifier and each LLM judge: alpha on pass/fail (nominal)
              and on scores (interval, 0..1), with 95% intervals. Pass threshold {d.audit.threshold}.
            </p>
            {d.audit.sources.length === 0 || d.audit.humanBasis === null ? (
              <p className="text-sm text-zinc-500">
                Nothing to compare: this campaign has no Likert or criteria question, or no rewards or judge scores.
              </p>
            ) : (
              <div className="space-y-5">
                <DataTable
                  testId="audit-table"
                  frame="none"
                  columns={[
                    'Humans vs',
                    { label: 'Items', className: 'px-3 py-2 text-right' },
                    { label: 'Pass/fail alpha', className: 'px-3 py-2 text-right' },
                    '95% CI',
                    { label: 'Same verdict', className: 'px-3 py-2 text-right' },
                    { label: 'Score alpha', className: 'px-3 py-2 text-right' },
                    '95% CI',
                  ]}
                >
                  {d.audit.sources.map((s) => (
                    <tr key={s.source}>
                      <td className={`${td} text-zinc-900`}>{inert(s.label)}</td>
                      <td className={`${td} text-right tabular-nums`}>{s.items}</td>
                      <td className={`${td} text-right`}>
                        <span className="mr-2 font-mono tabular-nums">{formatAlpha(s.passAgreement.value)}</span>
                        <BandBadge band={s.passAgreement.band} />
                      </td>
                      <td className={`${td} font-mono text-xs text-zinc-600`}>{formatCi(s.passAgreement.ci)}</td>
                      <td className={`${td} text-right tabular-nums`}>{formatShare(s.matchShare)}</td>
                      <td className={`${td} text-right`}>
                        <span className="mr-2 font-mono tabular-nums">{formatAlpha(s.scoreAgreement.value)}</span>
                        <BandBadge band={s.scoreAgreement.band} />
                      </td>
                      <td className={`${td} font-mono text-xs text-zinc-600`}>{formatCi(s.scoreAgreement.ci)}</td>
                    </tr>
                  ))}
                </DataTable>
                {d.audit.sources.map((s) => (
                  <div key={s.source}>
                    <h3 className="mb-1 text-sm font-semibold text-zinc-800">Where humans and {inert(s.label)} disagree most</h3>
                    {s.worst.some(auditRowDisagrees) ? null : (
                      <p className="text-sm text-zinc-600" data-testid="audit-worst-none">
                        They agree on every item: the same pass/fail and scores within {DISAGREE_GAP} of each other.
                      </p>
                    )}
                    <ul
                      className="divide-y divide-zinc-100 rounded-lg border border-zinc-200 text-sm empty:hidden"
                      data-testid="audit-worst"
                    >
                      {s.worst
                        .filter(auditRowDisagrees)
                        .slice(0, 8)
                        .map((w) => (
                          <li key={w.itemId} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-3 py-1.5">
                            <IntentLink
                              href={`/trajectories/${w.trajectoryId}`}
                              className="min-w-40 flex-1 truncate font-medium text-zinc-900 hover:text-indigo-700 hover:underline"
                            >
                              {inert(w.taskName)}
                            </IntentLink>
                            <span
                              className={`text-xs ${w.humanPass !== 'split' && w.sourcePass !== null && w.humanPass !== w.sourcePass ? 'font-semibold text-rose-700' : 'text-zinc-600'}`}
                            >
                              humans {w.humanPass === 'split' ? 'split (reviewers tie on a criterion)' : w.humanPass}, score{' '}
                              {w.humanScore.toFixed(2)} · {s.source === 'verifier' ? 'verifier' : 'judge'} {w.sourcePass ?? '—'}, score{' '}
                              {w.sourceScore === null ? '—' : w.sourceScore.toFixed(2)}
                            </span>
                            {w.adjudicated ? (
                              <span className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs text-indigo-700 ring-1 ring-inset ring-indigo-600/20">
                                adjudicated
                              </span>
                            ) : null}
                            <IntentLink
                              href={`/lead/campaigns/${d.campaign.id}/adjudication/${w.itemId}`}
                              className="text-xs text-indigo-700 hover:underline"
                            >
                              review answers & video
                            </IntentLink>
                          </li>
                        ))}
                    </ul>
                  </div>
                ))}
              </div>
            )}
          </Panel>
        </div>
      )}
    </>
  );
}
