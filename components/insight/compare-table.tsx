import type { CompareReport } from '@/lib/insight/policy-report';
import { RateCell } from './figures';
import { DataTable } from '@/components/ui/table';

const pp = (x: number) => `${x > 0 ? '+' : ''}${Math.round(x * 100)} pp`;

/** Rates of A and B side by side, the difference B − A with its interval, and what would settle it. */
export function CompareTable({ report }: { report: CompareReport }) {
  return (
    <DataTable columns={['Measure', 'A', 'B', 'B − A (95% CI)', 'Verdict']}>
      {report.rows.map((r) => (
        <tr key={r.label} data-testid="compare-row">
          <td className="px-3 py-2 text-zinc-900">{r.label}</td>
          <RateCell p={r.a} />
          <RateCell p={r.b} />
          <td className="px-3 py-2 font-mono text-xs tabular-nums text-zinc-700">
            {r.difference ? (
              <>
                {pp(r.difference.difference)}{' '}
                <span className="text-zinc-500">
                  [{pp(r.difference.ci[0])}, {pp(r.difference.ci[1])}]
                </span>
              </>
            ) : (
              <span className="text-zinc-400">—</span>
            )}
          </td>
          <td className="px-3 py-2 text-xs">
            {!r.difference ? (
              <span className="text-zinc-400">no data on one side</span>
            ) : r.distinguishable ? (
              <span className="font-medium text-emerald-700">{r.difference.difference > 0 ? 'B better' : 'A better'}, beyond noise</span>
            ) : r.neededPerPolicy === null ? (
              <span className="text-zinc-600">no difference seen; any real one is smaller than the noise</span>
            ) : (
              <span className="text-zinc-600">
                within noise; about <b>{r.morePerPolicy}</b> more {r.label.startsWith('Verifier') ? 'scored' : 'reviewed'} trajectories per
                policy would settle a {pp(Math.abs(r.difference.difference))} gap (needs {r.neededPerPolicy} each)
              </span>
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
