import { AppError } from '../errors';
import type { Coefficient } from './bootstrap';
import { type EncodedRatings, type MeasurementLevel, requireNumeric } from './ratings';
import { type CountTable, countTable, groupIdenticalRows } from './unit-counts';

/**
 * Krippendorff's alpha for any number of raters with missing ratings, by the coincidence-matrix
 * method (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability"):
 *
 *   alpha = 1 - (n - 1) * sum_ck o_ck delta_ck / sum_ck n_c n_k delta_ck
 *
 * where o_ck = sum_u n_uc n_uk / (m_u - 1) (c != k) over units with m_u >= 2 ratings (units with
 * fewer drop out), n_c are its marginals and n their total. The observed part is accumulated
 * per unit over the pairs of categories present in it, O(ratings + sum_u distinct_u^2); the
 * expected part comes from the marginals: O(categories) for nominal, interval and ordinal (the
 * ordinal metric is the interval metric on the cumulative mid-ranks G_(c-1) + n_c/2), and
 * O(categories^2) for ratio. NaN when undefined (fewer than two pairable values, or no variation).
 */
export function krippendorffAlpha(data: EncodedRatings, level: MeasurementLevel): Coefficient {
  const numeric = level === 'nominal' ? null : requireNumeric(data, `Krippendorff's alpha at the ${level} level`);
  if (level === 'ratio' && numeric && numeric.length > 0 && numeric[0]! < 0) {
    throw new AppError('BAD_INPUT', `Krippendorff's alpha at the ratio level needs non-negative values; the data has ${numeric[0]}`);
  }
  const { value, nUnits } = alphaFromEncoded(data, level, numeric);
  return {
    value,
    nUnits,
    resampling: () => {
      const { groups, groupOf } = groupIdenticalRows(countTable(data, 2));
      return { groupOf, nGroups: groups.nRows, statistic: (w) => alphaFromCounts(groups, w, level, numeric) };
    },
  };
}

/**
 * The point estimate straight from the unit-grouped ratings (no count table is materialised):
 * per unit, count values into a scratch array, then add the pairs of distinct categories.
 * Same arithmetic as `alphaFromCounts` with unit weights.
 */
function alphaFromEncoded(data: EncodedRatings, level: MeasurementLevel, numeric: Float64Array | null): { value: number; nUnits: number } {
  const C = data.categories.length;
  const { unitStart, code } = data;
  const nUnitsAll = data.units.length;
  // Marginals n_c: a first pass only for the ordinal metric (its positions depend on them);
  // the other levels accumulate them in the main pass.
  const nc = new Float64Array(C);
  const ordinal = level === 'ordinal';
  if (ordinal) {
    for (let u = 0; u < nUnitsAll; u++) {
      const s = unitStart[u]!;
      const e = unitStart[u + 1]!;
      if (e - s >= 2) for (let p = s; p < e; p++) nc[code[p]!]!++;
    }
  }
  const x = positions(level, numeric, nc);
  let nUnits = 0;

  const counts = new Float64Array(C);
  const present = new Int32Array(C);
  let observed = 0;
  for (let u = 0; u < nUnitsAll; u++) {
    const s = unitStart[u]!;
    const e = unitStart[u + 1]!;
    const m = e - s;
    if (m < 2) continue;
    nUnits++;
    let d = 0;
    for (let p = s; p < e; p++) {
      const c = code[p]!;
      if (counts[c] === 0) present[d++] = c;
      counts[c]!++;
    }
    if (!ordinal) for (let j = 0; j < d; j++) nc[present[j]!]! += counts[present[j]!]!;
    let sum = 0;
    if (d > 1) {
      if (x === null) {
        let squares = 0;
        for (let j = 0; j < d; j++) squares += counts[present[j]!]! ** 2;
        sum = m * m - squares;
      } else if (level === 'ratio') {
        for (let j = 0; j < d; j++) {
          const cj = present[j]!;
          for (let l = j + 1; l < d; l++) {
            const cl = present[l]!;
            const t = x[cj]! + x[cl]!;
            const q = t === 0 ? 0 : (x[cj]! - x[cl]!) / t;
            sum += 2 * counts[cj]! * counts[cl]! * q * q;
          }
        }
      } else {
        for (let j = 0; j < d; j++) {
          const cj = present[j]!;
          for (let l = j + 1; l < d; l++) {
            const cl = present[l]!;
            const q = x[cj]! - x[cl]!;
            sum += 2 * counts[cj]! * counts[cl]! * q * q;
          }
        }
      }
      observed += sum / (m - 1);
    }
    for (let j = 0; j < d; j++) counts[present[j]!] = 0;
  }
  let n = 0;
  for (let c = 0; c < C; c++) n += nc[c]!;
  if (n < 2) return { value: Number.NaN, nUnits };
  return { value: finish(level, x, nc, n, observed), nUnits };
}

/** Category positions for the difference function (null: nominal). */
function positions(level: MeasurementLevel, numeric: Float64Array | null, nc: Float64Array): Float64Array | null {
  if (level === 'interval' || level === 'ratio') return numeric;
  if (level === 'nominal') return null;
  const x = new Float64Array(nc.length);
  let cumulative = 0;
  for (let c = 0; c < nc.length; c++) {
    x[c] = cumulative + nc[c]! / 2;
    cumulative += nc[c]!;
  }
  return x;
}

/** alpha = 1 - (n-1) observed / expected, with expected = sum_ck n_c n_k delta_ck from the marginals. */
function finish(level: MeasurementLevel, x: Float64Array | null, nc: Float64Array, n: number, observed: number): number {
  const C = nc.length;
  let expected = 0;
  if (x === null) {
    let squares = 0;
    for (let c = 0; c < C; c++) squares += nc[c]! * nc[c]!;
    expected = n * n - squares;
  } else if (level === 'ratio') {
    for (let c = 0; c < C; c++) {
      if (nc[c] === 0) continue;
      for (let k = c + 1; k < C; k++) {
        if (nc[k] === 0) continue;
        const s = x[c]! + x[k]!;
        const d = s === 0 ? 0 : (x[c]! - x[k]!) / s;
        expected += 2 * nc[c]! * nc[k]! * d * d;
      }
    }
  } else {
    let mean = 0;
    for (let c = 0; c < C; c++) mean += nc[c]! * x[c]!;
    mean /= n;
    for (let c = 0; c < C; c++) {
      const d = x[c]! - mean;
      expected += nc[c]! * d * d;
    }
    expected *= 2 * n;
  }
  if (expected === 0) return Number.NaN;
  return 1 - ((n - 1) * observed) / expected;
}

/**
 * Alpha from per-unit counts (rows of units with >= 2 ratings), each row weighted by
 * `weights[r]` (null: weight 1). `numeric` holds category values for the non-nominal levels.
 */
export function alphaFromCounts(
  table: CountTable,
  weights: Float64Array | null,
  level: MeasurementLevel,
  numeric: Float64Array | null,
): number {
  const { nCategories: C, nRows, rowStart, cat, count, total } = table;

  // Marginals n_c of the coincidence matrix: weighted value counts of pairable units.
  const nc = new Float64Array(C);
  for (let r = 0; r < nRows; r++) {
    const w = weights ? weights[r]! : 1;
    if (w === 0) continue;
    for (let j = rowStart[r]!; j < rowStart[r + 1]!; j++) nc[cat[j]!]! += w * count[j]!;
  }
  let n = 0;
  for (let c = 0; c < C; c++) n += nc[c]!;
  if (n < 2) return Number.NaN;

  const x = positions(level, numeric, nc);

  // Observed: sum_ck o_ck delta_ck, unit by unit.
  let observed = 0;
  for (let r = 0; r < nRows; r++) {
    const w = weights ? weights[r]! : 1;
    if (w === 0) continue;
    const s = rowStart[r]!;
    const e = rowStart[r + 1]!;
    if (e - s < 2) continue; // a single category: no disagreement
    const m = total[r]!;
    let sum = 0;
    if (x === null) {
      let squares = 0;
      for (let j = s; j < e; j++) squares += count[j]! * count[j]!;
      sum = m * m - squares;
    } else if (level === 'ratio') {
      for (let j = s; j < e; j++) {
        const xj = x[cat[j]!]!;
        for (let l = j + 1; l < e; l++) {
          const xl = x[cat[l]!]!;
          const d = xj + xl === 0 ? 0 : (xj - xl) / (xj + xl);
          sum += 2 * count[j]! * count[l]! * d * d;
        }
      }
    } else {
      for (let j = s; j < e; j++) {
        const xj = x[cat[j]!]!;
        for (let l = j + 1; l < e; l++) {
          const d = xj - x[cat[l]!]!;
          sum += 2 * count[j]! * count[l]! * d * d;
        }
      }
    }
    observed += (w * sum) / (m - 1);
  }

  return finish(level, x, nc, n, observed);
}
