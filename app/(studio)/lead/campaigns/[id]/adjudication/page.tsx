import { firstValue } from '@/lib/parse-input';
import { IntentLink } from '@/components/ui/intent-link';
import { CampaignTabs } from '@/components/agreement/campaign-tabs';
import { CsvLink } from '@/components/agreement/csv-link';
import { inert } from '@/lib/rich-text/inert-text';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { z } from 'zod';
import { SnapshotStatus } from '@/components/campaigns/snapshot-status';
import { dashboardParams } from '@/lib/agreement/dashboard-params';
import type { Split } from '@/lib/agreement/disagreements';
import { DISAGREEMENTS_PER_PAGE as PER_PAGE, viewDisagreementQueue } from '@/lib/agreement/view-disagreement-queue';
import { orPageError } from '../../../../../_server/or-not-found';
import { requirePageUser } from '../../../../../_server/current-user';
import { DataTable } from '@/components/ui/table';

export const metadata = { title: 'Disagreements' };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const pageParam = z.preprocess(firstValue, z.coerce.number().int().min(0).max(1_000_000).catch(0));

/** The disagreement queue: items whose answers split beyond the thresholds, worst first; adjudicated ones marked. */
export default async function AdjudicationQueue({ params, searchParams }: Props) {
  const user = await requirePageUser('lead');
  const { id } = await params;
  const search = await searchParams;
  const options = dashboardParams(search);
  const page = pageParam.parse(search.page);
  // the queue is computed from every current review (1M at bench scale): the page reads one page
  // of the stored snapshot's rows (the campaign.snapshot job keeps it), adjudicated as of now
  const { campaign, view, variant, reopened, rows, adjudicated } = await orPageError(
    viewDisagreementQueue(user, id, options, page, new Date()),
  );
  const reopenedIds = new Set(reopened.map((r) => r.itemId));
  const snapshot = view.snapshot;
  const total = snapshot?.payload.count ?? 0;
  const open = total - adjudicated;
  const { cut, range } = variant;
  const query = new URLSearchParams({ cut: String(cut), range: String(range) }).toString();
  const status = (
    <SnapshotStatus
      state={view.state}
      count={snapshot?.reviews ?? null}
      noun={campaign.mode === 'pairwise' ? ['comparison', 'comparisons'] : ['review', 'reviews']}
      builtAt={snapshot?.builtAt.toISOString() ?? null}
      newer={view.newer}
    />
  );
  const pageLink = (p: number) => `?${new URLSearchParams({ cut: String(cut), range: String(range), page: String(p) })}`;

  return (
    <>
      <PageHeader
        title={inert(campaign.name)}
        description={
          <>
            Items whose reviewers split: see every answer, the evidence and the video, then record a final label.
            <span className="mt-1 block">{status}</span>
          </>
        }
      />
      <CampaignTabs campaignId={campaign.id} current="adjudication" disagreements={snapshot ? total : undefined} />
      <form method="get" className="mb-4 flex flex-wrap items-end gap-4 text-sm" aria-label="Disagreement thresholds">
        <label className="flex flex-col gap-1 text-xs text-zinc-600">
          Majority share below
          <input
            name="cut"
            type="number"
            step="0.05"
            min="0.05"
            max="1"
            defaultValue={cut}
            className="w-28 rounded-md border border-zinc-300 px-2 py-1 text-sm"
          />
        </label>
        <label className="flex flex-col gap-1 text-xs text-zinc-600">
          Likert / preference range at least
          <input
            name="range"
            type="number"
            step="1"
            min="1"
            max="20"
            defaultValue={range}
            className="w-28 rounded-md border border-zinc-300 px-2 py-1 text-sm"
          />
        </label>
        <button
          type="submit"
          className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-700 hover:border-indigo-300"
        >
          Apply
        </button>
        <span className="ml-auto flex items-center gap-2 text-xs text-zinc-500">
          {open} open · {adjudicated} adjudicated <CsvLink campaignId={campaign.id} table="disagreements" query={`?${query}`} />
        </span>
      </form>
      {reopened.length ? (
        <section className="mb-4 rounded-md border border-amber-200 bg-amber-50/60 p-3 text-sm" data-testid="reopened-items">
          <h2 className="font-medium text-amber-900">Revised after adjudication ({reopened.length})</h2>
          <p className="mb-2 text-xs text-amber-900/80">
            A reviewer revised their label after your decision, so the decision no longer counts: exports and training sinks use the reviews
            until you decide again.
          </p>
          <ul className="space-y-1">
            {reopened.map((r) => (
              <li key={r.itemId} data-testid="reopened-item">
                <IntentLink href={`/lead/campaigns/${campaign.id}/adjudication/${r.itemId}`} className="text-indigo-700 hover:underline">
                  {inert(r.taskName)}
                </IntentLink>{' '}
                <span className="text-xs text-zinc-500">
                  decision {r.revision} superseded {r.supersededAt.toISOString().slice(0, 16).replace('T', ' ')} UTC
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {!snapshot ? null : total === 0 ? (
        <EmptyState title="No disagreements">
          No item&apos;s answers split beyond these thresholds. Loosen them above to see closer calls.
        </EmptyState>
      ) : (
        <DataTable
          testId="disagreement-queue"
          columns={[
            { label: 'Item', className: 'px-4 py-2' },
            { label: 'Reviews', className: 'px-3 py-2 text-right' },
            'Where they split',
            'Status',
            { label: '', className: 'px-4 py-2' },
          ]}
        >
          {rows.map((q) => {
            const splits = q.splits as Split[];
            const item = { id: q.itemId, taskName: q.taskName, adjudicated: q.adjudicated };
            return (
              <tr key={q.itemId} data-testid="disagreement-row" className="align-top">
                <td className="max-w-xs px-4 py-2">
                  <div className="truncate font-medium text-zinc-900" title={inert(item.taskName)}>
                    {inert(item.taskName)}
                  </div>
                  <div className="font-mono text-[11px] text-zinc-400">{item.id}</div>
                </td>
                <td className="px-3 py-2 text-right tabular-nums">{q.reviews}</td>
                <td className="px-3 py-2">
                  <ul className="space-y-0.5 text-xs">
                    {splits.slice(0, 5).map((s, i) => (
                      <li key={i}>
                        <span className="font-medium text-zinc-800">{inert(s.label)}</span>
                        {s.detail ? <span className="text-zinc-500"> · {inert(s.detail)}</span> : null}:{' '}
                        <span className="font-mono text-zinc-700">{inert(s.answers)}</span>
                      </li>
                    ))}
                    {splits.length > 5 ? <li className="text-zinc-400">and {splits.length - 5} more</li> : null}
                  </ul>
                </td>
                <td className="px-3 py-2">
                  {reopenedIds.has(item.id) ? (
                    <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-inset ring-amber-600/20">
                      Revised after adjudication
                    </span>
                  ) : item.adjudicated ? (
                    <span className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700 ring-1 ring-inset ring-indigo-600/20">
                      Adjudicated
                    </span>
                  ) : (
                    <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-inset ring-amber-600/20">
                      Open
                    </span>
                  )}
                </td>
                <td className="px-4 py-2 text-right">
                  <IntentLink
                    href={`/lead/campaigns/${campaign.id}/adjudication/${item.id}`}
                    className="rounded-md bg-indigo-600 px-3 py-1 text-xs font-medium text-white hover:bg-indigo-700"
                  >
                    {item.adjudicated ? 'Review' : 'Adjudicate'}
                  </IntentLink>
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
      {total > PER_PAGE ? (
        <nav aria-label="Queue pages" className="mt-2 flex items-center gap-3 text-xs text-zinc-500" data-testid="queue-pages">
          <span>
            Showing {rows.length ? page * PER_PAGE + 1 : 0}–{page * PER_PAGE + rows.length} of {total} items, worst first.
          </span>
          {page > 0 ? (
            <IntentLink href={pageLink(page - 1)} className="text-indigo-700 hover:underline">
              Previous {PER_PAGE}
            </IntentLink>
          ) : null}
          {(page + 1) * PER_PAGE < total ? (
            <IntentLink href={pageLink(page + 1)} className="text-indigo-700 hover:underline">
              Next {PER_PAGE}
            </IntentLink>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}
