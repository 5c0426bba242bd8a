import type { Criterion } from '@/lib/formats/trajectory';
import { CriterionText } from '@/render/ui/criterion-text';

function Verdict({ verdict }: { verdict: boolean | null }) {
  if (verdict === true)
    return (
      <span
        className="mt-0.5 flex h-4 w-4 shrink-0 items-center justify-center rounded-full bg-emerald-600 text-[10px] font-bold text-white"
        title="Verifier: passed"
      >
        ✓<span className="sr-only">passed</span>
      </span>
    );
  if (verdict === false)
    return (
      <span
        className="mt-0.5 flex h-4 w-4 shrink-0 items-center justify-center rounded-full bg-rose-600 text-[10px] font-bold text-white"
        title="Verifier: failed"
      >
        ✕<span className="sr-only">failed</span>
      </span>
    );
  return (
    <span className="mt-0.5 h-4 w-4 shrink-0 rounded-full border-2 border-zinc-300" title="No verdict">
      <span className="sr-only">no verdict</span>
    </span>
  );
}

const originLabel: Record<Criterion['origin'], string> = { task: 'task', verifier: 'verifier', manual: 'added by a lead' };

/** The task's acceptance criteria with the verifier's verdicts where known. */
export function CriteriaChecklist({ criteria }: { criteria: Criterion[] }) {
  if (criteria.length === 0) return <p className="text-sm text-zinc-500">No acceptance criteria yet.</p>;
  return (
    <ul className="space-y-2" data-testid="criteria">
      {criteria.map((c) => (
        <li key={c.key} className="flex items-start gap-2 text-sm">
          <Verdict verdict={c.verdict} />
          <span className="min-w-0 flex-1">
            <CriterionText text={c.text} className="break-words text-zinc-800" />
            <span className="ml-1.5 whitespace-nowrap text-[11px] text-zinc-400">{originLabel[c.origin]}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
