import { IntentLink } from '@/components/ui/intent-link';
import type { PolicyFigures } from '@/lib/insight/policy-report';
import { inert } from '@/lib/rich-text/inert-text';
import { MeanCell, RateCell } from './figures';
import { DataTable } from '@/components/ui/table';

export function PolicyTable({ policies, compareHref }: { policies: PolicyFigures[]; compareHref: (name: string) => string | null }) {
  return (
    <DataTable columns={['#', 'Policy', 'Bradley-Terry (pairwise)', 'Rubric score', 'Verifier pass', 'Reviewers pass', '']}>
      {policies.map((p) => {
        const href = compareHref(p.name);
        return (
          <tr key={p.id} data-testid="policy-row">
            <td className="px-3 py-2 font-mono text-xs text-zinc-500">{p.rank ?? '—'}</td>
            <td className="max-w-72 px-3 py-2 font-mono text-xs text-zinc-900" title={inert([p.name, ...p.aliases].join('\n'))}>
              <span className="block truncate">{inert(p.name)}</span>
              {p.aliases.length ? (
                <span className="block truncate font-sans text-[11px] text-zinc-500" data-testid="policy-aliases">
                  also {p.aliases.map(inert).join(', ')}
                </span>
              ) : null}
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
            <MeanCell m={p.rubricScore} />
            <RateCell p={p.verifierPass} />
            <RateCell p={p.reviewerPass} />
            <td className="px-3 py-2 text-right text-xs">
              {href ? (
                <IntentLink href={href} className="text-indigo-700 hover:underline">
                  compare
                </IntentLink>
              ) : null}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
