/**
 * Active allocation ("review where it tells the most"): the probability each item gets of being
 * chosen for review, favouring the items whose human label would move the estimate most
 * (Zrnic & Candès 2024, "Active statistical inference"). Their variance-optimal rule for a mean
 * is pi(x) proportional to sqrt(E[(Y - f(x))^2 | x]), the predictor's expected error on the item;
 * for a calibrated score that is sqrt(f (1 - f)), largest at the threshold. We score each item
 * with proxies of that error and hand out the budget in proportion, with a floor so every item
 * keeps a non-zero chance (needed for the inverse-probability weights of ppi.ts to stay finite
 * and the estimate unbiased):
 *
 *   score = (uncertainty + disagreement + flagged) / (1 + reviews)
 *   uncertainty  = sqrt(1 - d^2), d = |prediction - threshold| / max(threshold, 1 - threshold)
 *                  (2 sqrt(p (1 - p)) at threshold 0.5: the calibrated-error rule above)
 *   disagreement = |prediction - verifier| when the item has a verifier score, else 0
 *   flagged      = 1 when a reviewer or the judge flagged the item, else 0
 *   reviews      = human reviews the item already has (each one makes another less informative)
 *
 *   pi_i = min(1, max(floor, c * score_i)), c chosen so that sum pi = budget (expected reviews);
 *   floor defaults to half the uniform rate, budget / (2 n).
 *
 * The probabilities are a design, not an estimate: record each item's pi when it is drawn and
 * ppi.ts weights by it, so a score that misjudges an item costs width, never validity.
 */

export interface ActiveItem {
  /** the predictor's score in [0, 1] */
  prediction: number;
  /** the verifier's score in [0, 1], when there is one */
  verifier?: number | null;
  flagged?: boolean;
  /** human reviews so far */
  reviews?: number;
  /** the score's decision threshold; default 0.5 */
  threshold?: number;
}

export interface ActiveOptions {
  /** expected number of items to review: the probabilities sum to it */
  budget: number;
  /**
   * the smallest probability any item gets, > 0; default half the uniform rate, budget / (2 n):
   * at least half the budget is spread evenly, so a predictor confidently wrong on some items
   * (a judge saturating at 1 on items that do fail) cannot leave them with huge weights
   * (defensive mixing; in the seeded simulations a floor of a tenth of the uniform rate let
   * coverage fall to 83% with such a judge, half of it kept it at 93%).
   */
  floor?: number;
}

/** The item's informativeness score (see the file comment); >= 0. */
export function activeScore(item: ActiveItem, index = 0): number {
  const t = item.threshold ?? 0.5;
  const p = item.prediction;
  if (!(p >= 0 && p <= 1)) throw new RangeError(`item ${index}: prediction must be in [0, 1]; got ${p}`);
  if (!(t > 0 && t < 1)) throw new RangeError(`item ${index}: threshold must be in (0, 1); got ${t}`);
  const d = Math.abs(p - t) / Math.max(t, 1 - t);
  const uncertainty = Math.sqrt(Math.max(0, 1 - d * d));
  const v = item.verifier;
  if (v !== undefined && v !== null && !(v >= 0 && v <= 1)) throw new RangeError(`item ${index}: verifier must be in [0, 1]; got ${v}`);
  const disagreement = v === undefined || v === null ? 0 : Math.abs(p - v);
  const reviews = item.reviews ?? 0;
  if (!(reviews >= 0)) throw new RangeError(`item ${index}: reviews must be >= 0; got ${reviews}`);
  return (uncertainty + disagreement + (item.flagged ? 1 : 0)) / (1 + reviews);
}

/** Selection probabilities for the items (see the file comment), in item order. */
export function activeSamplingProbabilities(items: readonly ActiveItem[], options: ActiveOptions): Float64Array {
  const scores = new Float64Array(items.length);
  for (let i = 0; i < items.length; i++) scores[i] = activeScore(items[i]!, i);
  return probabilitiesFromScores(scores, options);
}

/**
 * pi_i = min(1, max(floor, c * score_i)) with sum pi = budget: c found by bisection on the
 * monotone sum, then solved exactly on the final bracket (where the clipped sets are fixed).
 * All scores 0: every item gets budget / n. Budget >= n: every item 1.
 */
export function probabilitiesFromScores(scores: ArrayLike<number>, options: ActiveOptions): Float64Array {
  const n = scores.length;
  const out = new Float64Array(n);
  if (n === 0) return out;
  const budget = options.budget;
  if (!(budget > 0)) throw new RangeError(`budget must be > 0; got ${budget}`);
  const floor = options.floor ?? Math.min(1, budget / (2 * n));
  if (!(floor > 0 && floor <= 1)) throw new RangeError(`floor must be in (0, 1]; got ${floor}`);
  if (budget >= n) return out.fill(1);
  if (floor * n > budget) {
    throw new RangeError(`a floor of ${floor} on ${n} items needs a budget of at least ${floor * n}; got ${budget} (lower the floor)`);
  }
  let maxScore = 0;
  for (let i = 0; i < n; i++) {
    const s = scores[i]!;
    if (!(s >= 0) || !Number.isFinite(s)) throw new RangeError(`item ${i}: score must be a finite number >= 0; got ${s}`);
    if (s > maxScore) maxScore = s;
  }
  if (maxScore === 0) return out.fill(budget / n);
  const total = (c: number) => {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += Math.min(1, Math.max(floor, c * scores[i]!));
    return sum;
  };
  // total(0) = n floor <= budget < n = total(c) for c >= 1 / min positive score
  let lo = 0;
  let hi = 1 / maxScore;
  while (total(hi) < budget) hi *= 2;
  for (let k = 0; k < 200 && hi - lo > 1e-15 * hi; k++) {
    const mid = (lo + hi) / 2;
    if (total(mid) < budget) lo = mid;
    else hi = mid;
  }
  // exact on the bracket: items at the floor and at 1 stay there; the rest are c * score
  let fixed = 0;
  let free = 0;
  for (let i = 0; i < n; i++) {
    const s = scores[i]!;
    if (hi * s <= floor) fixed += floor;
    else if (lo * s >= 1) fixed += 1;
    else free += s;
  }
  const c = free > 0 ? (budget - fixed) / free : hi;
  for (let i = 0; i < n; i++) out[i] = Math.min(1, Math.max(floor, c * scores[i]!));
  return out;
}
