import type { Coefficient } from './bootstrap';
import type { EncodedRatings } from './ratings';
import { type CountTable, countCoefficient, countTable } from './unit-counts';

/**
 * Percent agreement: for each unit with at least two ratings, the share of ordered rater pairs
 * that gave the same value, sum_k r_ik (r_ik - 1) / (r_i (r_i - 1)); averaged over those units.
 * Not chance-corrected. NaN when no unit has two ratings.
 */
export function percentAgreement(data: EncodedRatings): Coefficient {
  return countCoefficient(countTable(data, 2), percentFromCounts);
}

export function percentFromCounts(table: CountTable, weights: Float64Array | null): number {
  let units = 0;
  let sum = 0;
  for (let r = 0; r < table.nRows; r++) {
    const w = weights ? weights[r]! : 1;
    if (w === 0) continue;
    const m = table.total[r]!;
    let same = 0;
    for (let j = table.rowStart[r]!; j < table.rowStart[r + 1]!; j++) same += table.count[j]! * (table.count[j]! - 1);
    sum += (w * same) / (m * (m - 1));
    units += w;
  }
  return units === 0 ? Number.NaN : sum / units;
}
