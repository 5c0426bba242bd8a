import type { ReviewPlan } from '@/lib/campaigns/review-plan';
import { DataTable } from '@/components/ui/table';

const pts = (halfWidth: number) => `±${(halfWidth * 100).toFixed(1)} pts`;
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
/** a plan's target is a whole number of points (±5, ±30) */
const targetPts = (halfWidth: number) => `±${Math.round(halfWidth * 100)} pts`;

const MODES = [
  { key: 'everything', label: 'Everything' },
  { key: 'random', label: 'Random sample' },
  { key: 'active', label: 'Where it tells the most' },
] as const;

/**
 * The review planner's answer for one figure (reviewer pass rate over the campaign's items): the
 * 95% half-width expected at the budget under each way of choosing items, and how many reviewed
 * items each needs for the target (±5 points, or the first round width reviewing everything can reach). `reviewed` and `k` turn the total into "about N more reviews".
 */
export function ReviewPlanPanel({ plan, reviewed = 0, k }: { plan: ReviewPlan; reviewed?: number; k: number }) {
  const more = (total: number | null) => (total === null ? null : Math.max(0, total - reviewed));
  return (
    <div className="space-y-2 text-sm" data-testid="review-plan">
      <p className="text-xs text-zinc-600">
        Reviewer pass rate over {plan.population} items
        {plan.current?.ppi
          ? `: now ${pct(plan.current.ppi.estimate)} ${pts((plan.current.ppi.high - plan.current.ppi.low) / 2)} prediction-powered, ${pts((plan.current.human!.high - plan.current.human!.low) / 2)} from the ${plan.labeled} reviewed alone`
          : plan.current?.human
            ? `: now ${pct(plan.current.human.estimate)} ${pts((plan.current.human.high - plan.current.human.low) / 2)} from ${plan.labeled} reviewed`
            : ''}
        . Expected 95% interval at a budget of {plan.budget} items ({plan.budget * k} reviews at k={k}):
      </p>
      <DataTable
        frame="none"
        size="xs"
        label="Review plan"
        columns={[
          { label: 'Review', className: 'py-1' },
          { label: 'Interval at the budget', className: 'py-1' },
          { label: `To reach ${targetPts(plan.target)}`, className: 'py-1' },
        ]}
      >
        {MODES.map((m) => {
          const n = more(plan.toReach[m.key]);
          return (
            <tr key={m.key} data-testid={`plan-${m.key}`}>
              <td className="py-1 text-zinc-800">{m.label}</td>
              <td className="py-1 font-mono tabular-nums text-zinc-900">
                {m.key === 'everything' ? `${pts(plan.halfWidth.everything)} (all ${plan.population} items)` : pts(plan.halfWidth[m.key])}
              </td>
              <td className="py-1 text-zinc-700" data-testid={`reach-${m.key}`}>
                {n === null ? 'not reachable with these items' : n === 0 ? 'reached' : `about ${n * k} more reviews (${n} items)`}
              </td>
            </tr>
          );
        })}
      </DataTable>
      {plan.assumed ? (
        <p className="text-[11px] text-zinc-500">
          Fewer than two reviews so far: planned for a rate of one half and a predictor that explains nothing (the widest case); the plan
          tightens as reviews come in.
        </p>
      ) : (
        <p className="text-[11px] text-zinc-500">
          From the {plan.labeled} items reviewed so far: how much their labels vary and how much of it the judge and verifier scores
          explain.
        </p>
      )}
    </div>
  );
}
