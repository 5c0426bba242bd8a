import { IntentLink } from '@/components/ui/intent-link';
import type { ReactNode } from 'react';
import type { CampaignDetail } from '@/lib/campaigns/queries/campaign-detail';
import { RewardBadge, SplitBadge } from '@/components/trajectories/badges';
import { Badge } from '@/components/ui/badge';
import { formatDateTime } from '@/components/ui/format';
import { formatSeconds } from '@/lib/review/attention';
import { Facts, Panel } from '@/components/trajectories/panel';
import type { ReviewPlan } from '@/lib/campaigns/review-plan';
import { ProgressBar } from './campaign-bits';
import { ReviewPlanPanel } from './review-plan-panel';
import { center, DataTable, right } from '@/components/ui/table';

const samplingText: Record<string, string> = {
  all: 'Every item (each item’s chance of review: 1)',
  random: 'A random sample of the budget (each item’s chance recorded)',
  active:
    'Review where it tells the most: items drawn with recorded chances favouring uncertain, disagreeing, flagged and little-reviewed items',
  picked: 'Hand-picked trajectories: not a random sample (the insight pages show the human-only figure for them)',
};

const typeLabel: Record<string, string> = {
  likert: 'Likert',
  criteria: 'Pass/fail per criterion',
  single: 'Single choice',
  multi: 'Multiple choice',
  number: 'Number',
  text: 'Free text',
};

function filterText(f: CampaignDetail['filter']): string {
  const parts = [
    f.environment ? `environment ${f.environment}` : null,
    f.policy ? `policy ${f.policy}` : null,
    f.split ? `${f.split} split` : null,
    f.minReward !== undefined || f.maxReward !== undefined ? `reward ${f.minReward ?? '−∞'} … ${f.maxReward ?? '∞'}` : null,
    f.taskNames ? `${f.taskNames.length} named tasks` : null,
    f.trajectoryIds ? `${f.trajectoryIds.length} hand-picked trajectories` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'every trajectory in the project';
}

function Stat({ label, value, hint }: { label: string; value: string | number; hint?: string }) {
  return (
    <div>
      <div className="text-xs uppercase tracking-wide text-zinc-500">{label}</div>
      <div className="mt-0.5 font-mono text-xl tabular-nums text-zinc-900">{value}</div>
      {hint ? <div className="text-xs text-zinc-500">{hint}</div> : null}
    </div>
  );
}

/** The campaign's progress, settings, rubric, reviewers and items (the page loads the data). */
export function CampaignDetailView({
  c,
  plan,
  planStatus,
}: {
  c: CampaignDetail;
  plan?: ReviewPlan | null;
  /** what the plan is as of (a stored snapshot's status line); shown in the plan panel, also while there is none yet */
  planStatus?: ReactNode;
}) {
  const p = c.progress;
  return (
    <div className="space-y-6">
      <Panel title="Progress" id="progress">
        <div className="grid grid-cols-2 gap-4 sm:grid-cols-5">
          <Stat label="Reviews done" value={`${p.reviewsDone}/${p.reviewsTarget}`} hint={`${p.items} items × k=${c.overlap}`} />
          <Stat label="Items complete" value={`${p.itemsComplete}/${p.items}`} hint={`${c.overlap} reviews each`} />
          <Stat label="In progress" value={p.inProgress} hint="live claims" />
          <Stat label="Reviewers" value={c.reviewers.length} />
          <Stat label="Gold items" value={p.goldItems} hint="mixed in unannounced" />
        </div>
        <div className="mt-4">
          <ProgressBar done={p.reviewsDone} target={p.reviewsTarget} label="Reviews done of items × k" />
        </div>
        {p.population !== p.items ? (
          <p className="mt-3 text-xs text-zinc-600" data-testid="sample-size">
            {p.items} of {p.population} items drawn for review ({c.sampling === 'active' ? 'where it tells the most' : 'random sample'}
            {c.budget && typeof c.budget.items === 'number' ? `, budget ${c.budget.items} items` : ''}); the other {p.population - p.items}{' '}
            stay in the population the estimates cover.
          </p>
        ) : null}
      </Panel>

      {plan || planStatus ? (
        <Panel title="Review plan" id="plan">
          {planStatus ? <div className="mb-2">{planStatus}</div> : null}
          {plan ? <ReviewPlanPanel plan={plan} k={c.overlap} reviewed={plan.labeled} /> : null}
        </Panel>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Settings" id="settings">
          <Facts
            rows={[
              [
                'Project',
                <span key="p">
                  {c.project.name} <span className="font-mono text-xs text-zinc-500">({c.project.slug})</span>
                </span>,
              ],
              [
                'Mode',
                c.mode === 'pairwise'
                  ? 'Pairwise: same-task runs of different policies side by side'
                  : 'Single item: one run graded with the rubric',
              ],
              ['Overlap k', `${c.overlap} independent reviewers per item`],
              ['Expertise', c.requiredExpertise.length ? c.requiredExpertise.join(', ') : 'anyone'],
              [
                'Watch coverage',
                c.minCoverage > 0
                  ? `at least ${Math.round(c.minCoverage * 100)}% ${
                      c.coverageBasis === 'video'
                        ? 'of the video watched'
                        : c.coverageBasis === 'transcript'
                          ? 'of the transcript read'
                          : 'of the video watched or its transcript read'
                    } before submit`
                  : 'not required',
              ],
              [
                'Video pacing',
                c.pacing === 'read' ? 'read: every card held long enough to read at 1x' : 'skim: a ~90 s overview of each run',
              ],
              [
                'Blind',
                [c.blind.hidePolicy ? 'policy hidden' : 'policy shown', c.blind.hideReward ? 'reward hidden' : 'reward shown'].join(', '),
              ],
              ['Trajectories', filterText(c.filter)],
              ['What to review', samplingText[c.sampling] ?? c.sampling],
              ['Claim lease', `${Math.round(c.leaseSeconds / 60)} min`],
              ['Created', `${formatDateTime(c.createdAt)}${c.createdBy ? ` by ${c.createdBy}` : ''}`],
              ...(c.closedAt ? ([['Closed', formatDateTime(c.closedAt)]] as [string, string][]) : []),
            ]}
          />
        </Panel>
        <Panel title={`Rubric: ${c.rubric.name} v${c.rubric.version}`} id="rubric">
          <p className="mb-2 text-sm font-medium text-zinc-800">{c.rubric.definition.title}</p>
          <ol className="space-y-1.5 text-sm">
            {c.rubric.definition.questions.map((q) => (
              <li key={q.id} className="flex flex-wrap items-baseline gap-2">
                <span className="font-mono text-xs text-zinc-400">{q.id}</span>
                <span className="text-zinc-800">{q.prompt}</span>
                <Badge>{q.type === 'likert' ? `Likert 1–${q.points}` : typeLabel[q.type]}</Badge>
                {q.required ? null : <span className="text-xs text-zinc-400">optional</span>}
              </li>
            ))}
          </ol>
        </Panel>
      </div>

      <Panel title="Reviewers" id="reviewers">
        {c.reviewers.length === 0 ? (
          <p className="text-sm text-zinc-500">
            Nobody has claimed an item yet. Reviewers whose expertise fits see this campaign in their queue.
          </p>
        ) : (
          <DataTable
            frame="none"
            className="-mx-4 -my-3"
            edges
            columns={['Reviewer', ...['Claimed', 'Submitted', 'Skipped', 'Expired', 'Gold score'].map(right), 'Last activity']}
          >
            {c.reviewers.map((r) => (
              <tr key={r.reviewerId} data-testid="reviewer-row">
                <td className="px-4 py-2">
                  <div className="font-medium text-zinc-900">{r.name}</div>
                  <div className="text-xs text-zinc-500">{r.email}</div>
                </td>
                <td className="px-3 py-2 text-right font-mono tabular-nums">{r.claimed}</td>
                <td className="px-3 py-2 text-right font-mono tabular-nums">{r.submitted}</td>
                <td className="px-3 py-2 text-right font-mono tabular-nums">{r.skipped}</td>
                <td className="px-3 py-2 text-right font-mono tabular-nums text-zinc-500">{r.expired}</td>
                <td
                  className="px-3 py-2 text-right font-mono tabular-nums"
                  title={r.goldCount ? `mean over ${r.goldCount} gold items` : 'no gold item reviewed yet'}
                >
                  {r.goldMean === null ? <span className="text-zinc-400">—</span> : `${Math.round(r.goldMean * 100)}%`}
                  {r.goldCount ? <span className="ml-1 text-xs text-zinc-400">n={r.goldCount}</span> : null}
                </td>
                <td className="whitespace-nowrap px-4 py-2 text-xs text-zinc-500">
                  {r.lastActivity ? formatDateTime(r.lastActivity) : '—'}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </Panel>

      <Panel title={`Items (${p.items})`} id="items">
        <DataTable
          frame="none"
          className="-mx-4 -my-3"
          edges
          columns={[
            'Task',
            c.mode === 'pairwise' ? 'Policy A' : 'Policy',
            ...(c.mode === 'pairwise' ? ['Policy B'] : []),
            center('Reward'),
            'Reviews',
            ...(c.sampling === 'random' || c.sampling === 'active'
              ? [right(<span title="the probability the item had of being drawn for review">Chance</span>)]
              : []),
            right('In progress'),
          ]}
        >
          {c.items.map((i) => (
            <tr key={i.id} data-testid="item-row" data-probability={i.probability}>
              <td className="max-w-xs px-4 py-1.5">
                <div className="flex items-center gap-2">
                  <IntentLink
                    href={`/trajectories/${i.a.trajectoryId}`}
                    className="truncate font-medium text-zinc-900 hover:text-indigo-700 hover:underline"
                    title={i.task}
                  >
                    {i.task}
                  </IntentLink>
                  <SplitBadge split={i.split} />
                  {i.isGold ? (
                    <Badge
                      className="bg-yellow-50 text-yellow-800 ring-yellow-200"
                      title="Gold item: known answers, reviewers are scored on it"
                    >
                      gold
                    </Badge>
                  ) : null}
                </div>
              </td>
              <td className="max-w-56 truncate px-3 py-1.5 font-mono text-xs text-zinc-700" title={i.a.policy}>
                {i.a.policy}
              </td>
              {c.mode === 'pairwise' ? (
                <td className="max-w-56 truncate px-3 py-1.5 font-mono text-xs text-zinc-700" title={i.b?.policy}>
                  {i.b ? (
                    <IntentLink href={`/trajectories/${i.b.trajectoryId}`} className="hover:underline">
                      {i.b.policy}
                    </IntentLink>
                  ) : null}
                </td>
              ) : null}
              <td className="px-3 py-1.5 text-center">
                <span className="inline-flex gap-1">
                  <RewardBadge value={i.a.reward} />
                  {i.b ? <RewardBadge value={i.b.reward} /> : null}
                </span>
              </td>
              <td className="px-3 py-1.5">
                <ProgressBar done={i.reviewCount} target={c.overlap} label={`${i.reviewCount} of ${c.overlap} reviews`} />
              </td>
              {c.sampling === 'random' || c.sampling === 'active' ? (
                <td className="px-3 py-1.5 text-right font-mono text-xs tabular-nums text-zinc-600">{(i.probability * 100).toFixed(0)}%</td>
              ) : null}
              <td className="px-4 py-1.5 text-right font-mono text-xs tabular-nums text-zinc-600">{i.inProgress || ''}</td>
            </tr>
          ))}
        </DataTable>
        {c.itemsShown < p.items ? (
          <nav aria-label="Item pages" className="mt-2 flex items-center gap-3 text-xs text-zinc-500" data-testid="item-pages">
            <span>
              Showing items {c.itemsShown ? c.itemsFrom + 1 : 0}–{c.itemsFrom + c.itemsShown} of {p.items}.
            </span>
            {c.itemsPage > 0 ? (
              <IntentLink href={`?page=${c.itemsPage - 1}#items`} className="text-indigo-700 hover:underline">
                Previous {c.itemsPerPage}
              </IntentLink>
            ) : null}
            {c.itemsFrom + c.itemsShown < p.items ? (
              <IntentLink href={`?page=${c.itemsPage + 1}#items`} className="text-indigo-700 hover:underline">
                Next {c.itemsPerPage}
              </IntentLink>
            ) : null}
          </nav>
        ) : null}
      </Panel>

      <Panel title="Latest reviews: how each was covered" id="coverage">
        {c.recentReviews.length === 0 ? (
          <p className="text-sm text-zinc-500">No review yet.</p>
        ) : (
          <>
            <p className="mb-2 text-xs text-zinc-500">
              Watched: share of the video played on screen. Read: transcript steps read for their reading time ({c.readingWpm} words a
              minute). Time: from the claim to the submit, beside the least time reading and watching what the review reports takes; faster
              is {c.tooFast === 'refuse' ? 'refused' : 'flagged'}.
            </p>
            <DataTable
              frame="none"
              className="-mx-4 -my-1"
              edges
              testId="coverage-table"
              columns={['Reviewer', 'Task', right('Watched'), right('Read'), right('Time (least)'), '', 'Submitted']}
            >
              {c.recentReviews.map((r) => (
                <tr key={r.id} data-testid="coverage-row" data-too-fast={r.coverage.tooFast || undefined}>
                  <td className="px-4 py-1.5 font-medium text-zinc-900">{r.reviewer}</td>
                  <td className="max-w-xs truncate px-3 py-1.5 text-zinc-700" title={r.task}>
                    {r.task}
                    {r.revision > 1 ? <span className="ml-1 text-xs text-zinc-400">rev {r.revision}</span> : null}
                  </td>
                  <td className="px-3 py-1.5 text-right font-mono text-xs tabular-nums">
                    {r.coverage.watched === null ? '—' : `${Math.round(r.coverage.watched * 100)}%`}
                  </td>
                  <td className="px-3 py-1.5 text-right font-mono text-xs tabular-nums">
                    {r.coverage.read === null ? '—' : `${r.coverage.read.steps}/${r.coverage.read.of}`}
                  </td>
                  <td className="px-3 py-1.5 text-right font-mono text-xs tabular-nums">
                    {r.coverage.elapsedSeconds === null
                      ? '—'
                      : `${formatSeconds(r.coverage.elapsedSeconds)} (${formatSeconds(r.coverage.minimumSeconds ?? 0)})`}
                  </td>
                  <td className="px-3 py-1.5">
                    {r.coverage.tooFast ? (
                      <Badge className="bg-rose-50 text-rose-800 ring-rose-200" title="submitted faster than reading what it reports takes">
                        too fast
                      </Badge>
                    ) : null}
                  </td>
                  <td className="whitespace-nowrap px-4 py-1.5 text-xs text-zinc-500">{formatDateTime(r.submittedAt)}</td>
                </tr>
              ))}
            </DataTable>
          </>
        )}
      </Panel>
    </div>
  );
}
