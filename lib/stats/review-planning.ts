import { zFor } from '../insight/intervals';
import { probabilitiesFromScores } from './active-sampling';

/**
 * Review planning: the interval width a figure can expect at a review budget, and "about N more
 * reviews to reach +-h", under the three ways of choosing what to review:
 *   everything  every item reviewed (the predictor adds nothing);
 *   random      a simple random sample of `budget` items, PPI estimate;
 *   active      items drawn with the active probabilities (active-sampling.ts), PPI estimate
 *               weighted by them.
 *
 * From the variance in ppi.ts (to first order, lambda fixed at the fitted value):
 *   V = (s2 / N) * [ (1 - D) + D * mean_i(r_i / pi_i) ]
 * with s2 the labels' variance, D = Var(Y - lambda f) / s2 the share of it the predictor leaves
 * (both returned by estimatePpiMean: `variance`, `residualShare`; D = 1 for human-only),
 * pi_i the item's selection probability and r_i its share of the residual variance (mean 1).
 * everything: pi = 1 -> V = s2 / N. random: pi = b / N -> V = s2 (1 - D) / N + s2 D / b.
 * active: r_i is taken proportional to score_i^2 (the active scores are proxies of the
 * predictor's error on the item, the assumption that makes pi proportional to score optimal);
 * where the proxies are wrong the realised interval is wider than planned, never invalid.
 */
export type ReviewMode = 'everything' | 'random' | 'active';

export interface PlanInput {
  /** items in the figure's population */
  n: number;
  mode: ReviewMode;
  /** the labels' variance (estimatePpiMean's `variance`; p (1 - p) for a rate p) */
  variance: number;
  /** share of the variance the predictor leaves, in [0, 1] (estimatePpiMean's `residualShare`); default 1 (human-only) */
  residualShare?: number;
  /** active mode: the active score of each of the n items (activeScore) */
  scores?: ArrayLike<number>;
  /** active mode: the floor probability (as in activeSamplingProbabilities; default budget / (2 n)), lowered to budget / n when above it */
  floor?: number;
  /** 1 - coverage; default 0.05 */
  alpha?: number;
}

export interface PlannedWidth {
  budget: number;
  /** expected half-width of the interval (estimate +- halfWidth) */
  halfWidth: number;
  /** expected variance of the estimate */
  variance: number;
}

function check(input: PlanInput): void {
  if (!(Number.isInteger(input.n) && input.n > 0)) throw new RangeError(`n must be a positive integer; got ${input.n}`);
  if (!(input.variance >= 0)) throw new RangeError(`variance must be >= 0; got ${input.variance}`);
  const d = input.residualShare ?? 1;
  if (!(d >= 0 && d <= 1)) throw new RangeError(`residualShare must be in [0, 1]; got ${d}`);
  if (input.mode === 'active' && (!input.scores || input.scores.length !== input.n)) {
    throw new RangeError(`active mode needs one score per item (${input.n}); got ${input.scores?.length ?? 0}`);
  }
}

/** Expected interval at a budget of reviews (items); budget is capped at n. */
export function expectedIntervalWidth(input: PlanInput & { budget: number }): PlannedWidth {
  check(input);
  if (!(input.budget > 0)) throw new RangeError(`budget must be > 0; got ${input.budget}`);
  const { n, variance: s2, mode } = input;
  const d = input.residualShare ?? 1;
  const budget = Math.min(input.budget, n);
  let meanInverse: number; // mean_i(r_i / pi_i)
  if (mode === 'everything') meanInverse = 1;
  else if (mode === 'random') meanInverse = n / budget;
  else {
    const scores = input.scores!;
    const floor = Math.min(input.floor ?? budget / (2 * n), budget / n);
    const pi = probabilitiesFromScores(scores, { budget, floor });
    let sumR = 0;
    for (let i = 0; i < n; i++) sumR += scores[i]! * scores[i]!;
    let acc = 0;
    if (sumR === 0) for (let i = 0; i < n; i++) acc += 1 / pi[i]!;
    else for (let i = 0; i < n; i++) acc += (scores[i]! * scores[i]! * n) / sumR / pi[i]!;
    meanInverse = acc / n;
  }
  const v = (s2 / n) * (1 - d + d * meanInverse);
  const z = zFor(1 - (input.alpha ?? 0.05));
  return { budget: mode === 'everything' ? n : budget, halfWidth: z * Math.sqrt(v), variance: v };
}

/**
 * The smallest budget (total reviews, an integer <= n) whose expected half-width is <= halfWidth;
 * null when not even reviewing everything gets there. Subtract the reviews in hand for "N more".
 */
export function reviewsToReach(halfWidth: number, input: PlanInput): number | null {
  check(input);
  if (!(halfWidth > 0)) throw new RangeError(`halfWidth must be > 0; got ${halfWidth}`);
  const at = (b: number) => expectedIntervalWidth({ ...input, budget: b }).halfWidth;
  if (input.mode === 'everything') return at(input.n) <= halfWidth ? input.n : null;
  if (at(input.n) > halfWidth) return null;
  // half-width falls as the budget grows (every pi grows with it): bisect on integers
  let lo = 0; // at(lo) > halfWidth (or lo = 0)
  let hi = input.n; // at(hi) <= halfWidth
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (at(mid) <= halfWidth) hi = mid;
    else lo = mid;
  }
  return hi;
}
