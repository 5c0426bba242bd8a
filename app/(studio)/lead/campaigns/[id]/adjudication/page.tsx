import Link from 'next/link';
import { CampaignTabs } from '@/components/agreement/campaign-tabs';
import { CsvLink } from '@/components/agreement/csv-link';
import { inert } from '@/components/ui/inert-text';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { dashboardParams } from '@/lib/agreement/dashboard-params';
import { findDisagreements } from '@/lib/agreement/disagreements';
import { questionRatings } from '@/lib/agreement/question-ratings';
import { loadAgreementData } from '@/lib/db/agreement/agreement-data';
import { orNotFound } from '../../../../../_server/or-not-found';
import { requirePageProjectRole, requirePageUser } from '../../../../../_server/current-user';
import { DataTable } from '@/components/ui/table';

export const metadata = { title: 'Disagreements' };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The disagreement queue: items whose answers split beyond the thresholds, worst first; adjudicated ones marked. */
export default async function AdjudicationQueue({ params, searchParams }: Props) {
  const user = await requirePageUser('lead');
  const { id } = await params;
  await requirePageProjectRole(user, 'campaign', id, 'lead');
  const options = dashboardParams(await searchParams);
  const data = await orNotFound(loadAgreementData(id));
  const queue = findDisagreements(questionRatings(data), options);
  const items = new Map(data.items.map((i) => [i.id, i]));
  const open = queue.filter((q) => !items.get(q.itemId)?.adjudicated).length;
  const cut = options.majorityCut ?? 0.75;
  const range = options.ordinalRange ?? 2;
  const query = new URLSearchParams({ cut: String(cut), range: String(range) }).toString();

  return (
    <>
      <PageHeader
        title={inert(data.name)}
        description="Items whose reviewers split: see every answer, the evidence and the video, then record a final label."
      />
      <CampaignTabs campaignId={data.id} current="adjudication" disagreements={queue.length} />
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
          {open} open · {queue.length - open} adjudicated <CsvLink campaignId={data.id} table="disagreements" query={`?${query}`} />
        </span>
      </form>
      {queue.length === 0 ? (
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
          {queue.map((q) => {
            const item = items.get(q.itemId)!;
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
                    {q.splits.slice(0, 5).map((s, i) => (
                      <li key={i}>
                        <span className="font-medium text-zinc-800">{inert(s.label)}</span>
                        {s.detail ? <span className="text-zinc-500"> · {inert(s.detail)}</span> : null}:{' '}
                        <span className="font-mono text-zinc-700">{inert(s.answers)}</span>
                      </li>
                    ))}
                    {q.splits.length > 5 ? <li className="text-zinc-400">and {q.splits.length - 5} more</li> : null}
                  </ul>
                </td>
                <td className="px-3 py-2">
                  {item.adjudicated ? (
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
                  <Link
                    href={`/lead/campaigns/${data.id}/adjudication/${item.id}`}
                    className="rounded-md bg-indigo-600 px-3 py-1 text-xs font-medium text-white hover:bg-indigo-700"
                  >
                    {item.adjudicated ? 'Review' : 'Adjudicate'}
                  </Link>
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
    </>
  );
}
