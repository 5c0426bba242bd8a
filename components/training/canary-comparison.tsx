import { DataTable, right } from '@/components/ui/table';
import type { CanaryComparison as CanaryComparisonView, CanaryFigure } from '@/lib/training/canary-schemas';

const clamp = (x: number) => Math.min(1, Math.max(0, x));

/** A 95% interval on an axis [lo, hi], its estimate as a tick and a reference line (0.5 for a win rate, 0 for a difference). */
function IntervalBar({ f, lo, hi, reference, testId }: { f: CanaryFigure; lo: number; hi: number; reference: number; testId: string }) {
  const at = (x: number) => `${clamp((x - lo) / (hi - lo)) * 100}%`;
  return (
    <div className="relative h-3 w-48" data-testid={testId} aria-hidden>
      <div className="absolute inset-y-1 left-0 right-0 rounded bg-zinc-100" />
      <div className="absolute inset-y-[-2px] w-px bg-zinc-400" style={{ left: at(reference) }} />
      {f.ci ? (
        <div
          className="absolute inset-y-0 rounded bg-indigo-500/70"
          style={{ left: at(f.ci[0]), width: `calc(${at(f.ci[1])} - ${at(f.ci[0])} + 2px)` }}
        />
      ) : null}
      {f.estimate !== null ? <div className="absolute inset-y-[-2px] w-0.5 bg-zinc-900" style={{ left: at(f.estimate) }} /> : null}
    </div>
  );
}

function Value({ f, signed }: { f: CanaryFigure; signed?: boolean }) {
  const fmt = (x: number) => `${signed && x > 0 ? '+' : ''}${x.toFixed(signed ? 3 : 2)}`;
  if (f.estimate === null) return <span className="text-zinc-400">—</span>;
  return (
    <span className="whitespace-nowrap font-mono tabular-nums">
      <span className="text-zinc-900">{fmt(f.estimate)}</span>{' '}
      <span className="text-[11px] text-zinc-500">{f.ci ? `[${fmt(f.ci[0])}, ${fmt(f.ci[1])}]` : 'no interval'}</span>
    </span>
  );
}

const verdictStyle = {
  promote: 'border-emerald-200 bg-emerald-50 text-emerald-900',
  reject: 'border-rose-200 bg-rose-50 text-rose-900',
  hold: 'border-amber-200 bg-amber-50 text-amber-900',
} as const;

/**
 * The canary comparison of a run (lib/training/view-canary-comparison.ts): the new checkpoint vs
 * its parent, each figure with its 95% interval bar and n, and the decision the project's rule
 * gives. Server-component friendly: props only, no state.
 */
export function CanaryComparison({ view }: { view: CanaryComparisonView }) {
  const rows: { key: string; label: string; note: string; f: CanaryFigure; unit: string; difference?: boolean }[] = [
    {
      key: 'reward',
      label: 'Verifier reward, new − parent',
      note: 'paired by task; mean, 95% t interval',
      f: view.rewardDifference,
      unit: 'tasks',
      difference: true,
    },
    { key: 'judge', label: 'Judge win rate', note: 'new vs parent per task, ties half; Wilson', f: view.judgeWinRate, unit: 'tasks' },
    {
      key: 'ppi',
      label: 'Prediction-powered win rate',
      note: `judge corrected by the human votes (PPI++), over ${view.ppiWinRate.population} judged tasks`,
      f: view.ppiWinRate,
      unit: 'tasks voted',
    },
    {
      key: 'human',
      label: 'Human blind win rate',
      note: 'current votes of the canary campaign, ties half; Wilson',
      f: view.humanWinRate,
      unit: 'votes',
    },
  ];
  const span = Math.max(
    1,
    ...[view.rewardDifference.estimate, ...(view.rewardDifference.ci ?? [])].filter((x): x is number => x !== null).map(Math.abs),
  );
  return (
    <section className="space-y-3" data-testid="canary-comparison">
      <div className="text-sm text-zinc-700">
        {view.child && view.parent ? (
          <>
            <span className="font-medium text-zinc-900">{view.child.name}</span> vs its parent{' '}
            <span className="font-medium text-zinc-900">{view.parent.name}</span> on {view.tasks} shared task{view.tasks === 1 ? '' : 's'}
            {view.campaign ? (
              <>
                {' '}
                · blind campaign{' '}
                <a className="text-indigo-700 underline" href={`/lead/campaigns/${view.campaign.id}`}>
                  {view.campaign.name}
                </a>{' '}
                ({view.campaign.items} items, {view.campaign.status})
              </>
            ) : (
              ' · no canary campaign yet'
            )}
          </>
        ) : (
          'No checkpoint with a parent yet: the comparison starts when the run registers one and its eval trajectories arrive.'
        )}
      </div>
      <DataTable columns={['Figure', 'Estimate [95% CI]', 'Interval', right('n')]} testId="canary-figures">
        {rows.map((r) => (
          <tr key={r.key} data-testid={`canary-${r.key}`}>
            <td className="px-3 py-2">
              <div className="text-zinc-900">{r.label}</div>
              <div className="text-[11px] text-zinc-500">{r.note}</div>
            </td>
            <td className="px-3 py-2 text-xs">
              <Value f={r.f} signed={r.difference} />
            </td>
            <td className="px-3 py-2">
              <IntervalBar
                f={r.f}
                lo={r.difference ? -span : 0}
                hi={r.difference ? span : 1}
                reference={r.difference ? 0 : view.decision.rule.above}
                testId={`canary-${r.key}-bar`}
              />
            </td>
            <td className="px-3 py-2 text-right text-[11px] text-zinc-500">
              n={r.f.n} {r.unit}
            </td>
          </tr>
        ))}
      </DataTable>
      <p className={`rounded border px-3 py-2 text-sm ${verdictStyle[view.decision.verdict]}`} data-testid="canary-decision">
        {view.decision.sentence}
      </p>
    </section>
  );
}
