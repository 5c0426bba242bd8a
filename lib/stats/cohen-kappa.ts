import { AppError } from '../errors';
import type { Coefficient } from './bootstrap';
import { type EncodedRatings, listKeys, requireNumeric } from './ratings';
import { groupSizes } from './unit-counts';
import { agreementWeights, rankPositions, type WeightScheme } from './weights';

/**
 * Cohen's kappa for exactly two raters, unweighted or with linear / quadratic weights:
 *
 *   kappa = 1 - sum_ij d_ij o_ij / sum_ij d_ij e_ij,   d = 1 - w,  e_ij = row_i col_j / N
 *
 * (for d = 1 - identity this is (p_o - p_e) / (1 - p_e)). Only units rated by both raters count.
 * Weights use each category's rank among the distinct values of those units (as R's irr and
 * scikit-learn do), so weighted kappa needs numeric values. NaN when p_e is 1.
 */
export function cohenKappa(data: EncodedRatings, weights: WeightScheme = 'none'): Coefficient {
  if (data.raters.length !== 2) {
    throw new AppError('BAD_INPUT', `Cohen's kappa needs exactly two raters; the data has ${data.raters.length}: ${listKeys(data.raters)}`);
  }
  if (weights !== 'none') requireNumeric(data, `Cohen's kappa with ${weights} weights`);

  // Paired units: codes of rater 0 and rater 1.
  const nUnits = data.units.length;
  const a = new Int32Array(nUnits);
  const b = new Int32Array(nUnits);
  let kept = 0;
  for (let u = 0; u < nUnits; u++) {
    const s = data.unitStart[u]!;
    if (data.unitStart[u + 1]! - s !== 2) continue;
    const first = data.rater[s] === 0 ? s : s + 1;
    a[kept] = data.code[first]!;
    b[kept] = data.code[first === s ? s + 1 : s]!;
    kept++;
  }
  if (kept === 0) {
    throw new AppError('BAD_INPUT', `Cohen's kappa needs units rated by both raters (${listKeys(data.raters)}); no unit is`);
  }

  // Ranks among the categories present in paired units.
  const rankOf = new Int32Array(data.categories.length).fill(-1);
  for (let i = 0; i < kept; i++) rankOf[a[i]!] = rankOf[b[i]!] = 0;
  let K = 0;
  for (let c = 0; c < rankOf.length; c++) if (rankOf[c] === 0) rankOf[c] = K++;
  const cellOf = new Int32Array(kept);
  for (let i = 0; i < kept; i++) cellOf[i] = rankOf[a[i]!]! * K + rankOf[b[i]!]!;

  const w = agreementWeights(rankPositions(K), weights);
  const statistic = (cells: Float64Array) => kappaFromTable(cells, K, w);
  return {
    value: statistic(groupSizes(cellOf, K * K)),
    nUnits: kept,
    resampling: () => ({ groupOf: cellOf, nGroups: K * K, statistic }),
  };
}

/** Weighted kappa of a K x K contingency table (row-major counts) with agreement weights w. */
export function kappaFromTable(cells: ArrayLike<number>, K: number, w: ArrayLike<number>): number {
  const rows = new Float64Array(K);
  const cols = new Float64Array(K);
  let total = 0;
  for (let i = 0; i < K; i++) {
    for (let j = 0; j < K; j++) {
      const x = cells[i * K + j]!;
      rows[i]! += x;
      cols[j]! += x;
      total += x;
    }
  }
  if (total === 0) return Number.NaN;
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < K; i++) {
    for (let j = 0; j < K; j++) {
      const d = 1 - w[i * K + j]!;
      if (d === 0) continue;
      observed += d * cells[i * K + j]!;
      expected += (d * rows[i]! * cols[j]!) / total;
    }
  }
  if (expected === 0) return Number.NaN;
  return 1 - observed / expected;
}
