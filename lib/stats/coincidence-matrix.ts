import { AppError } from '../errors';
import type { EncodedRatings } from './ratings';
import { countTable } from './unit-counts';

/**
 * The dense coincidence matrix o_ck = sum_u n_uc (n_uk - [c = k]) / (m_u - 1) over units with at
 * least two ratings (Krippendorff 2011), row-major categories x categories. For inspection and
 * reports; alpha itself never materialises it.
 */
export function coincidenceMatrix(data: EncodedRatings, maxCategories = 4096): Float64Array {
  const C = data.categories.length;
  if (C > maxCategories) {
    throw new AppError('BAD_INPUT', `The coincidence matrix of ${C} distinct values is too large to show (limit ${maxCategories})`);
  }
  const table = countTable(data, 2);
  const o = new Float64Array(C * C);
  for (let r = 0; r < table.nRows; r++) {
    const s = table.rowStart[r]!;
    const e = table.rowStart[r + 1]!;
    const scale = 1 / (table.total[r]! - 1);
    for (let j = s; j < e; j++) {
      const c = table.cat[j]!;
      for (let l = s; l < e; l++) {
        const k = table.cat[l]!;
        o[c * C + k]! += table.count[j]! * (table.count[l]! - (j === l ? 1 : 0)) * scale;
      }
    }
  }
  return o;
}
