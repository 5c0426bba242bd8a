import type { PairMatrix } from '@/lib/agreement/pair-matrix';
import { cellFor } from '@/lib/agreement/pair-matrix';
import { inert } from '@/lib/rich-text/inert-text';
import { formatAlpha, formatShare } from './format';

function heat(alpha: number | null): string {
  if (alpha === null) return 'bg-zinc-50 text-zinc-400';
  if (alpha >= 0.8) return 'bg-emerald-200 text-emerald-950';
  if (alpha >= 0.667) return 'bg-amber-100 text-amber-950';
  if (alpha >= 0.4) return 'bg-rose-100 text-rose-950';
  return 'bg-rose-300 text-rose-950';
}

/** Reviewer x reviewer agreement as a heat grid: alpha (colour), percent agreement and shared items per cell. */
export function ReviewerMatrix({ matrix, names }: { matrix: PairMatrix; names: Record<string, string> }) {
  const { raters } = matrix;
  if (raters.length < 2) return <p className="text-sm text-zinc-500">Fewer than two reviewers answered this question.</p>;
  return (
    <div className="overflow-x-auto">
      {/* eslint-disable-next-line no-restricted-syntax -- a heatmap grid of coloured cells, not a data table of rows */}
      <table className="border-separate border-spacing-1 text-xs" data-testid="reviewer-matrix">
        <thead>
          <tr>
            <th />
            {raters.map((r) => (
              <th
                key={r}
                scope="col"
                className="max-w-28 truncate px-1 pb-1 text-left font-medium text-zinc-600"
                title={inert(names[r] ?? r)}
              >
                {inert(names[r] ?? r)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {raters.map((a) => (
            <tr key={a}>
              <th scope="row" className="max-w-36 truncate pr-2 text-right font-medium text-zinc-600" title={inert(names[a] ?? a)}>
                {inert(names[a] ?? a)}
              </th>
              {raters.map((b) => {
                if (a === b) return <td key={b} className="h-14 w-24 rounded bg-zinc-100" aria-label="same reviewer" />;
                const cell = cellFor(matrix, a, b)!;
                return (
                  <td
                    key={b}
                    className={`h-14 w-24 rounded px-2 text-center align-middle ${heat(cell.alpha)}`}
                    title={`${cell.shared} shared items`}
                  >
                    <div className="font-mono text-sm font-semibold tabular-nums">{formatAlpha(cell.alpha)}</div>
                    <div className="text-[11px] opacity-80">
                      {formatShare(cell.percent)} · n={cell.shared}
                    </div>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-xs text-zinc-500">
        Each cell: Krippendorff&apos;s alpha of the two reviewers, percent exact agreement, and n items both rated.
      </p>
    </div>
  );
}
