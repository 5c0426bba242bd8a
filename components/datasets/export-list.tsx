'use client';

import { useQuery } from '@tanstack/react-query';
import type { ExportView } from '@/lib/datasets/export-view';
import { DataTable } from '@/components/ui/table';
import { IntentLink } from '@/components/ui/intent-link';
import { LinkedText } from './label-scope-fields';

const running = (r: ExportView) => r.status === 'queued' || r.status === 'running';

function Status({ row }: { row: ExportView }) {
  if (row.status === 'done')
    return <span className="rounded bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 ring-1 ring-emerald-200">done</span>;
  if (row.status === 'failed')
    return <span className="rounded bg-red-50 px-2 py-0.5 text-xs font-medium text-red-700 ring-1 ring-red-200">failed</span>;
  return (
    <span
      className="flex items-center gap-2"
      role="progressbar"
      aria-label={`Export ${row.status}`}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(row.progress * 100)}
    >
      <span className="h-2 w-32 overflow-hidden rounded bg-zinc-200">
        <span className="block h-full bg-indigo-500 transition-all" style={{ width: `${Math.round(row.progress * 100)}%` }} />
      </span>
      <span className="text-xs tabular-nums text-zinc-600">
        {row.status === 'queued' ? 'queued' : `${Math.round(row.progress * 100)}%`}
      </span>
    </span>
  );
}

function describe(params: Record<string, unknown>, campaigns: Record<string, string>): string {
  const id = params.campaignId ? String(params.campaignId) : null;
  const parts = [id ? `campaign ${campaigns[id] ?? `${id.slice(0, 10)}…`}` : 'all campaigns'];
  parts.push(params.split ? `split ${String(params.split)}` : 'all splits');
  if (Number(params.minAgreement) > 0) parts.push(`agreement ≥ ${String(params.minAgreement)}`);
  if (Number(params.minReviews) > 1) parts.push(`reviews ≥ ${String(params.minReviews)}`);
  return parts.join(' · ');
}

/** Every version of the project's datasets, newest first; running ones poll until they finish. */
export function ExportList({
  initial,
  campaigns,
  runs = {},
}: {
  initial: ExportView[];
  campaigns: Record<string, string>;
  /** the training runs built on each export (by export id): their frozen label set is that version */
  runs?: Record<string, { id: string; status: string; checkpointName: string | null }[]>;
}) {
  const active = initial.filter(running).map((r) => r.id);
  // the running ones re-read every second until each has finished
  const { data: fresh } = useQuery({
    queryKey: ['exports', active],
    enabled: active.length > 0,
    queryFn: () =>
      Promise.all(
        active.map(async (id) => {
          const response = await fetch(`/api/v1/exports/${id}`, { headers: { accept: 'application/json' } });
          return response.ok ? ((await response.json()) as { export: ExportView }).export : null;
        }),
      ),
    refetchInterval: (query) => (query.state.data?.every((r) => r && !running(r)) ? false : 1000),
  });
  const rows = initial.map((r) => fresh?.find((f) => f?.id === r.id) ?? r);

  return (
    <DataTable
      columns={[
        { label: 'Format', className: 'px-4 py-2' },
        'Definition',
        'Status',
        { label: 'Rows', className: 'px-3 py-2 text-right' },
        'sha256',
        'Created',
        { label: 'Files', className: 'px-4 py-2' },
      ]}
    >
      {rows.map((r) => (
        <tr key={r.id} data-testid="export-row" data-status={r.status} className="align-top">
          <td className="px-4 py-2">
            <span className="font-mono text-xs font-medium text-zinc-900">{r.format}</span>
            {r.purpose === 'evaluation' ? (
              <span className="ml-2 rounded bg-amber-50 px-1.5 py-0.5 text-[11px] font-semibold text-amber-800 ring-1 ring-amber-200">
                EVAL SET
              </span>
            ) : null}
          </td>
          <td className="px-3 py-2 text-xs text-zinc-600">{describe(r.params, campaigns)}</td>
          <td className="px-3 py-2">
            <Status row={r} />
            {r.error ? (
              <p className="mt-1 max-w-md whitespace-pre-wrap break-words text-xs text-red-700">
                <LinkedText text={r.error} />
              </p>
            ) : null}
          </td>
          <td className="px-3 py-2 text-right font-mono text-xs tabular-nums text-zinc-700">{r.rows ?? '—'}</td>
          <td className="px-3 py-2 font-mono text-xs text-zinc-500" title={r.sha256 ?? undefined}>
            {r.sha256 ? r.sha256.slice(0, 12) : '—'}
          </td>
          <td className="whitespace-nowrap px-3 py-2 text-xs text-zinc-500">{r.createdAt.slice(0, 16).replace('T', ' ')} UTC</td>
          <td className="whitespace-nowrap px-4 py-2 text-xs">
            {r.status === 'done' ? (
              <span className="flex gap-3">
                <a href={`/api/v1/exports/${r.id}/file`} download className="font-semibold text-indigo-700 hover:underline">
                  Download JSONL
                </a>
                <a href={`/api/v1/exports/${r.id}/card`} target="_blank" rel="noreferrer" className="text-zinc-600 hover:underline">
                  Card
                </a>
              </span>
            ) : (
              <span className="text-zinc-400">—</span>
            )}
            {runs[r.id]?.length ? (
              <span className="mt-1 block text-zinc-600" data-testid="export-runs">
                Trained:{' '}
                {runs[r.id]!.map((run, i) => (
                  <span key={run.id}>
                    {i > 0 ? ', ' : ''}
                    <IntentLink href={`/training/runs/${run.id}`} className="text-indigo-700 hover:underline" title={run.status}>
                      {run.checkpointName ?? `run ${run.id.slice(0, 8)} (${run.status})`}
                    </IntentLink>
                  </span>
                ))}
              </span>
            ) : null}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
