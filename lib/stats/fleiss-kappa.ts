import { AppError } from '../errors';
import type { Coefficient } from './bootstrap';
import { describeKey, type EncodedRatings } from './ratings';
import { type CountTable, countCoefficient, countTable } from './unit-counts';

/**
 * Fleiss' kappa (Fleiss 1971): every unit is rated by the same number m >= 2 of raters, not
 * necessarily the same raters.
 *
 *   P_i = (sum_j n_ij^2 - m) / (m (m - 1)),  p_j = sum_i n_ij / (N m),
 *   kappa = (mean P_i - sum_j p_j^2) / (1 - sum_j p_j^2)
 *
 * Throws BAD_INPUT when units have different numbers of ratings. NaN when sum_j p_j^2 is 1.
 */
export function fleissKappa(data: EncodedRatings): Coefficient {
  const table = countTable(data, 1);
  if (table.nRows === 0) throw new AppError('BAD_INPUT', "Fleiss' kappa needs at least one rated unit");
  const m = table.total[0]!;
  for (let r = 1; r < table.nRows; r++) {
    if (table.total[r] !== m) {
      throw new AppError(
        'BAD_INPUT',
        `Fleiss' kappa needs the same number of ratings for every unit; unit ${describeKey(data.units[0])} has ${m} but unit ${describeKey(data.units[r])} has ${table.total[r]}`,
      );
    }
  }
  if (m < 2) throw new AppError('BAD_INPUT', "Fleiss' kappa needs at least two ratings per unit; every unit has one");
  return countCoefficient(table, fleissFromCounts);
}

/** Fleiss' kappa from per-unit counts (all rows with the same total), rows weighted. */
export function fleissFromCounts(table: CountTable, weights: Float64Array | null): number {
  const { nCategories: C, nRows, rowStart, cat, count, total } = table;
  const p = new Float64Array(C);
  let units = 0;
  let agreement = 0;
  let ratings = 0;
  for (let r = 0; r < nRows; r++) {
    const w = weights ? weights[r]! : 1;
    if (w === 0) continue;
    const m = total[r]!;
    let squares = 0;
    for (let j = rowStart[r]!; j < rowStart[r + 1]!; j++) {
      squares += count[j]! * count[j]!;
      p[cat[j]!]! += w * count[j]!;
    }
    agreement += (w * (squares - m)) / (m * (m - 1));
    units += w;
    ratings += w * m;
  }
  if (units === 0) return Number.NaN;
  let pe = 0;
  for (let c = 0; c < C; c++) pe += (p[c]! / ratings) ** 2;
  if (pe === 1) return Number.NaN;
  return (agreement / units - pe) / (1 - pe);
}
