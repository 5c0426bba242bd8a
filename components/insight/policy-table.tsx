import Link from 'next/link';
import type { PolicyFigures } from '@/lib/insight/policy-report';
import { inert } from '@/components/trajectories/inert-text';
import { MeanFigure, RateFigure } from './figures';

export function PolicyTable({ policies, compareHref }: { policies: PolicyFigures[]; compareHref: (name: string) => string | null }) {
  return (
    <div className="overflow-x-auto rounded-xl border border-zinc-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-zinc-200 bg-zinc-50 text-xs uppercase tracking-wide text-zinc-500">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              #
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Policy
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Bradley-Terry (pairwise)
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Rubric score
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Verifier pass
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Reviewers pass
            </th>
            <th scope="col" className="px-3 py-2 font-medium" />
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {policies.map((p) => {
            const href = compareHref(p.name);
            return (
              <tr key={p.id} data-testid="policy-row">
                <td className="px-3 py-2 font-mono text-xs text-zinc-500">{p.rank ?? '—'}</td>
                <td className="max-w-72 truncate px-3 py-2 font-mono text-xs text-zinc-900" title={inert(p.name)}>
                  {inert(p.name)}
                </td>
                <td className="px-3 py-2 text-xs">
                  {p.rating === null ? (
                    <span className="text-zinc-400">
                      no comparisons <span className="text-[11px]">n=0</span>
                    </span>
                  ) : (
                    <span className="whitespace-nowrap" title="Elo scale, mean 1000; 95% bootstrap interval">
                      <span className="font-mono tabular-nums text-zinc-900">{Math.round(p.rating)}</span>{' '}
                      {p.ratingCi ? (
                        <span className="font-mono text-[11px] tabular-nums text-zinc-500">
                          [{Math.round(p.ratingCi[0])}, {Math.round(p.ratingCi[1])}]
                        </span>
                      ) : null}{' '}
                      <span className="text-[11px] text-zinc-400">n={p.battles}</span>
                    </span>
                  )}
                </td>
                <td className="px-3 py-2 text-xs">
                  <MeanFigure m={p.rubricScore} />
                </td>
                <td className="px-3 py-2 text-xs">
                  <RateFigure p={p.verifierPass} />
                </td>
                <td className="px-3 py-2 text-xs">
                  <RateFigure p={p.reviewerPass} />
                </td>
                <td className="px-3 py-2 text-right text-xs">
                  {href ? (
                    <Link href={href} className="text-indigo-700 hover:underline">
                      compare
                    </Link>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
