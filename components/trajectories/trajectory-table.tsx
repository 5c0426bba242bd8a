import { IntentLink } from '@/components/ui/intent-link';
import type { JudgeSummary, TrajectoryRow } from '@/lib/trajectories/queries/trajectory-queries';
import { RewardBadge, SplitBadge } from './badges';
import { formatDateTime, formatReward } from '../ui/format';
import { formatCount } from '../../lib/video/text';
import { inert } from '@/lib/rich-text/inert-text';
import { center, DataTable, right } from '@/components/ui/table';

function JudgeCell({ judge }: { judge: JudgeSummary }) {
  if (judge.count === 0) return <span className="text-zinc-400">—</span>;
  const title = judge.judges.map((j) => `${inert(j.judge)}: ${j.score ?? j.label ?? '—'}`).join('\n');
  const labels = judge.judges.map((j) => j.label).filter((l): l is string => l !== null);
  return (
    <span title={title} className="whitespace-nowrap">
      <span className="font-mono tabular-nums">
        {judge.mean !== null ? formatReward(judge.mean) : inert(labels.slice(0, 2).join(', '))}
      </span>
      {judge.count > 1 ? <span className="ml-1 text-xs text-zinc-400">×{judge.count}</span> : null}
    </span>
  );
}

/** One page of trajectories; the task name links to the detail page. */
export function TrajectoryTable({ rows, showProject }: { rows: TrajectoryRow[]; showProject: boolean }) {
  return (
    <DataTable
      edges
      columns={['Task', 'Environment', 'Policy', 'Split', right('Steps'), center('Reward'), 'Judges', 'Reviews', 'Format', 'Imported']}
    >
      {rows.map((r) => (
        <tr key={r.id} className="group hover:bg-indigo-50/40" data-testid="trajectory-row">
          <td className="max-w-xs px-4 py-2">
            <IntentLink
              href={`/trajectories/${r.id}`}
              className="block truncate font-medium text-zinc-900 group-hover:text-indigo-700 hover:underline"
              title={inert(r.taskName)}
            >
              {inert(r.taskName)}
            </IntentLink>
            {showProject ? <span className="font-mono text-[11px] text-zinc-400">{r.projectSlug}</span> : null}
          </td>
          <td className="max-w-40 truncate px-3 py-2 text-zinc-600" title={r.environment ? inert(r.environment) : undefined}>
            {r.environment ? inert(r.environment) : <span className="text-zinc-400">—</span>}
          </td>
          <td className="max-w-56 truncate px-3 py-2 font-mono text-xs text-zinc-700" title={inert(r.policy)}>
            {inert(r.policy)}
          </td>
          <td className="px-3 py-2">
            <SplitBadge split={r.split} />
          </td>
          <td className="px-3 py-2 text-right font-mono text-xs tabular-nums text-zinc-600">{formatCount(r.steps)}</td>
          <td className="px-3 py-2 text-center">
            <RewardBadge value={r.verifierReward} />
          </td>
          <td className="px-3 py-2 text-xs text-zinc-700">
            <JudgeCell judge={r.judge} />
          </td>
          <td className="px-3 py-2 text-xs">
            {r.reviews > 0 ? <span className="text-emerald-700">{r.reviews} reviewed</span> : <span className="text-zinc-400">none</span>}
          </td>
          <td className="px-3 py-2 font-mono text-xs text-zinc-500">{r.format}</td>
          <td className="whitespace-nowrap px-4 py-2 text-xs leading-tight text-zinc-500" title={r.createdAt}>
            {/* date over time: the column stays narrow, so the zone is never cut off at 1280 px */}
            <time dateTime={r.createdAt} className="block">
              {formatDateTime(r.createdAt).slice(0, 10)}
            </time>
            <span className="block text-zinc-400">{formatDateTime(r.createdAt).slice(11)}</span>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
