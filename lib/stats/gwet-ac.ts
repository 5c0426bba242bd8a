import type { Coefficient } from './bootstrap';
import { type EncodedRatings, requireNumeric } from './ratings';
import { type CountTable, countCoefficient, countTable } from './unit-counts';
import { agreementWeights, type WeightScheme } from './weights';

/**
 * Gwet's AC1 (weights `none`) and AC2 (linear / quadratic weights) for two or more raters with
 * missing ratings (Gwet 2014, Handbook of Inter-Rater Reliability, 4th ed., ch. 4):
 *
 *   r*_ik = sum_l w_kl r_il
 *   p_a   = (1/n') sum_{i: r_i >= 2} sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1))
 *   pi_k  = (1/n) sum_i r_ik / r_i                      (all n units with a rating)
 *   p_e   = T_w / (q (q - 1)) sum_k pi_k (1 - pi_k),   T_w = sum_kl w_kl
 *   AC    = (p_a - p_e) / (1 - p_e)
 *
 * q is the number of distinct values observed. AC2 weights use the category values, as
 * Gwet's irrCAC does (so they need numeric values). NaN when q < 2 or no unit has two ratings.
 */
export function gwetAc(data: EncodedRatings, weights: WeightScheme = 'none'): Coefficient {
  const positions =
    weights === 'none' ? new Float64Array(data.categories.length) : requireNumeric(data, `Gwet's AC2 with ${weights} weights`);
  const w = agreementWeights(positions, weights);
  const table = countTable(data, 1);
  return countCoefficient(table, (counts, rowWeights) => gwetFromCounts(counts, rowWeights, w));
}

/** AC1/AC2 from per-unit counts (all units with a rating), rows weighted, agreement weights w. */
export function gwetFromCounts(table: CountTable, rowWeights: Float64Array | null, w: Float64Array): number {
  const { nCategories: q, nRows, rowStart, cat, count, total } = table;
  if (q < 2) return Number.NaN;
  const pi = new Float64Array(q);
  let units = 0;
  let pairable = 0;
  let pa = 0;
  for (let r = 0; r < nRows; r++) {
    const rw = rowWeights ? rowWeights[r]! : 1;
    if (rw === 0) continue;
    const s = rowStart[r]!;
    const e = rowStart[r + 1]!;
    const m = total[r]!;
    units += rw;
    for (let j = s; j < e; j++) pi[cat[j]!]! += (rw * count[j]!) / m;
    if (m < 2) continue;
    pairable += rw;
    let sum = 0;
    for (let j = s; j < e; j++) {
      const k = cat[j]!;
      let star = 0;
      for (let l = s; l < e; l++) star += w[k * q + cat[l]!]! * count[l]!;
      sum += count[j]! * (star - 1);
    }
    pa += (rw * sum) / (m * (m - 1));
  }
  if (pairable === 0) return Number.NaN;
  pa /= pairable;
  let tw = 0;
  for (let i = 0; i < w.length; i++) tw += w[i]!;
  let spread = 0;
  for (let k = 0; k < q; k++) {
    const p = pi[k]! / units;
    spread += p * (1 - p);
  }
  const pe = (tw / (q * (q - 1))) * spread;
  if (pe === 1) return Number.NaN;
  return (pa - pe) / (1 - pe);
}
