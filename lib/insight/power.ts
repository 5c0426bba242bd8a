import { zFor } from './intervals';

/**
 * Sample sizes ("how many more reviews would settle it"). Both assume the observed rates are
 * the true ones and ask how many observations a two-sided test at alpha = 0.05 needs to reject
 * "no difference" with probability 0.8 (power). Normal approximations, the textbook formulas:
 *
 * - one proportion against 0.5 (B's win rate over A):
 *     n = ((z_{1-a/2} * 0.5 + z_{power} * sqrt(p (1 - p))) / (p - 0.5))^2
 * - two independent proportions (a criterion's pass rate for A vs B), per group:
 *     n = (z_{1-a/2} sqrt(2 pbar qbar) + z_{power} sqrt(p1 q1 + p2 q2))^2 / (p1 - p2)^2
 *
 * When the observed difference is exactly zero no finite sample settles it: the result is null
 * and the page says so (any real difference is smaller than the noise seen so far).
 */
export interface PowerOptions {
  alpha?: number;
  power?: number;
}

export function comparisonsNeeded(winRate: number, options: PowerOptions = {}): number | null {
  const za = zFor(1 - (options.alpha ?? 0.05));
  const zb = zFor(2 * (options.power ?? 0.8) - 1);
  const effect = Math.abs(winRate - 0.5);
  if (!(effect > 0)) return null;
  return Math.ceil(((za * 0.5 + zb * Math.sqrt(winRate * (1 - winRate))) / effect) ** 2);
}

export function perGroupNeeded(p1: number, p2: number, options: PowerOptions = {}): number | null {
  const za = zFor(1 - (options.alpha ?? 0.05));
  const zb = zFor(2 * (options.power ?? 0.8) - 1);
  const effect = Math.abs(p1 - p2);
  if (!(effect > 0)) return null;
  const pbar = (p1 + p2) / 2;
  const n = (za * Math.sqrt(2 * pbar * (1 - pbar)) + zb * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2 / effect ** 2;
  return Math.ceil(n);
}

/** More observations needed beyond those already in hand (0 when already enough; null when unsettleable). */
export function moreNeeded(needed: number | null, have: number): number | null {
  return needed === null ? null : Math.max(0, needed - have);
}
