import type { EncodedRatings, RatingKey, RatingValue } from './ratings';

/**
 * The reliability data matrix of Krippendorff's papers: one row per rater, one column per unit,
 * `null` where a rater did not rate a unit. For display, export and tests; the coefficients
 * themselves work from the encoded (unit-grouped) form.
 */
export interface ReliabilityMatrix {
  raters: RatingKey[];
  units: RatingKey[];
  /** values[rater][unit] */
  values: (RatingValue | null)[][];
}

export function reliabilityMatrix(data: EncodedRatings): ReliabilityMatrix {
  const values = data.raters.map(() => new Array<RatingValue | null>(data.units.length).fill(null));
  for (let u = 0; u < data.units.length; u++) {
    for (let p = data.unitStart[u]!; p < data.unitStart[u + 1]!; p++) {
      values[data.rater[p]!]![u] = data.categories[data.code[p]!]!;
    }
  }
  return { raters: data.raters, units: data.units, values };
}

/** Category codes as a dense raters x units Int32Array (row-major), -1 where missing. */
export function codeMatrix(data: EncodedRatings): Int32Array {
  const nUnits = data.units.length;
  const out = new Int32Array(data.raters.length * nUnits).fill(-1);
  for (let u = 0; u < nUnits; u++) {
    for (let p = data.unitStart[u]!; p < data.unitStart[u + 1]!; p++) out[data.rater[p]! * nUnits + u] = data.code[p]!;
  }
  return out;
}
