import { zFor } from '../insight/intervals';
import { comparisonsNeeded, moreNeeded } from '../insight/power';
import type { CanaryDecision, CanaryFigure, CanaryRule } from './canary-schemas';

const figureName: Record<CanaryRule['figure'], string> = {
  human: 'human win rate',
  ppi: 'PPI win rate',
  judge: 'judge win rate',
};

function fmt(x: number): string {
  return x.toFixed(2);
}

/**
 * Observations a two-sided test at alpha 0.05 with power 0.8 needs to tell the rate from the
 * threshold: lib/insight/power.ts comparisonsNeeded at 0.5 (the usual threshold), and its textbook
 * formula n = ((z_a sqrt(p0 q0) + z_b sqrt(p q)) / (p - p0))^2 at another p0. Null when p = p0.
 */
export function decidingCount(rate: number, threshold: number): number | null {
  if (threshold === 0.5) return comparisonsNeeded(rate);
  const effect = Math.abs(rate - threshold);
  if (!(effect > 0)) return null;
  const za = zFor(0.95);
  const zb = zFor(2 * 0.8 - 1);
  return Math.ceil(((za * Math.sqrt(threshold * (1 - threshold)) + zb * Math.sqrt(rate * (1 - rate))) / effect) ** 2);
}

/**
 * The lead's rule applied to a figure of the canary comparison (pure): promote when the figure's
 * 95% lower bound is above `rule.above`, reject when its upper bound is below it, hold otherwise.
 * A hold says about how many more observations would decide it (human votes for the human and PPI
 * figures, judged tasks for the judge's): `decidingCount` at the observed rate minus `have`, the
 * observations in hand (lib/insight/power.ts moreNeeded).
 */
export function canaryDecision(figure: CanaryFigure, rule: CanaryRule, have: number): CanaryDecision {
  const label = figureName[rule.figure];
  const unit = rule.figure === 'judge' ? 'judged tasks' : 'votes';
  if (figure.estimate === null || figure.ci === null) {
    return { verdict: 'hold', rule, moreVotes: null, sentence: `Hold: no ${label} yet (n = ${figure.n}).` };
  }
  const at = `${label} ${fmt(figure.estimate)} [${fmt(figure.ci[0])}, ${fmt(figure.ci[1])}] (n = ${figure.n})`;
  if (figure.ci[0] > rule.above) {
    return { verdict: 'promote', rule, moreVotes: null, sentence: `Promote: the ${at} is above ${fmt(rule.above)}.` };
  }
  if (figure.ci[1] < rule.above) {
    return { verdict: 'reject', rule, moreVotes: null, sentence: `Reject: the ${at} is below ${fmt(rule.above)}.` };
  }
  const more = moreNeeded(decidingCount(figure.estimate, rule.above), have);
  const tail =
    more === null
      ? `it sits on the threshold: no number of ${unit} would decide it at this rate`
      : more === 0
        ? `the ${unit} in hand are about enough at this rate; keep reviewing`
        : `about ${more} more ${unit} would decide it`;
  return { verdict: 'hold', rule, moreVotes: more, sentence: `Hold: the ${at} includes ${fmt(rule.above)}; ${tail}.` };
}
