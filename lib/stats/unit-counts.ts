import type { Coefficient } from './bootstrap';
import type { EncodedRatings } from './ratings';

/**
 * Per-unit category counts n_uc in a sparse row layout: the sufficient statistic of alpha,
 * Fleiss' kappa, Gwet's AC1/AC2 and percent agreement. One row per unit (or, after
 * `groupIdenticalRows`, per distinct count profile, which makes bootstrap replicates cheap).
 */
export interface CountTable {
  nCategories: number;
  nRows: number;
  /** entries of row r are rowStart[r] .. rowStart[r+1]-1 of `cat` and `count` (cat ascending) */
  rowStart: Int32Array;
  cat: Int32Array;
  count: Float64Array;
  /** number of ratings in each row (m_u) */
  total: Float64Array;
}

/** One row per unit that has at least `minRatings` ratings. */
export function countTable(data: EncodedRatings, minRatings: number): CountTable {
  const nUnits = data.units.length;
  const C = data.categories.length;
  const { unitStart, code } = data;
  let nRows = 0;
  let nEntries = 0;
  for (let u = 0; u < nUnits; u++) {
    const m = unitStart[u + 1]! - unitStart[u]!;
    if (m >= minRatings) {
      nRows++;
      nEntries += m;
    }
  }
  const rowStart = new Int32Array(nRows + 1);
  const cat = new Int32Array(nEntries);
  const count = new Float64Array(nEntries);
  const total = new Float64Array(nRows);
  const scratch = new Float64Array(C);
  let row = 0;
  let e = 0;
  for (let u = 0; u < nUnits; u++) {
    const start = unitStart[u]!;
    const end = unitStart[u + 1]!;
    if (end - start < minRatings) continue;
    const first = e;
    for (let p = start; p < end; p++) {
      const c = code[p]!;
      if (scratch[c] === 0) {
        // insertion into the row's sorted list of categories
        let j = e++;
        while (j > first && cat[j - 1]! > c) {
          cat[j] = cat[j - 1]!;
          j--;
        }
        cat[j] = c;
      }
      scratch[c]!++;
    }
    for (let j = first; j < e; j++) {
      const c = cat[j]!;
      count[j] = scratch[c]!;
      scratch[c] = 0;
    }
    total[row] = end - start;
    rowStart[++row] = e;
  }
  return { nCategories: C, nRows, rowStart, cat: cat.subarray(0, e), count: count.subarray(0, e), total };
}

/**
 * Merges rows with identical counts. Returns the distinct rows and, for every original row, the
 * index of its distinct row; a statistic then takes a weight (multiplicity) per distinct row.
 */
export function groupIdenticalRows(table: CountTable): { groups: CountTable; groupOf: Int32Array } {
  const ids = new Map<string, number>();
  const groupOf = new Int32Array(table.nRows);
  const firstRow: number[] = [];
  for (let r = 0; r < table.nRows; r++) {
    let key = '';
    for (let j = table.rowStart[r]!; j < table.rowStart[r + 1]!; j++) key += `${table.cat[j]}:${table.count[j]},`;
    let g = ids.get(key);
    if (g === undefined) {
      g = firstRow.length;
      ids.set(key, g);
      firstRow.push(r);
    }
    groupOf[r] = g;
  }
  const nRows = firstRow.length;
  let nEntries = 0;
  for (const r of firstRow) nEntries += table.rowStart[r + 1]! - table.rowStart[r]!;
  const rowStart = new Int32Array(nRows + 1);
  const cat = new Int32Array(nEntries);
  const count = new Float64Array(nEntries);
  const total = new Float64Array(nRows);
  let e = 0;
  firstRow.forEach((r, g) => {
    for (let j = table.rowStart[r]!; j < table.rowStart[r + 1]!; j++, e++) {
      cat[e] = table.cat[j]!;
      count[e] = table.count[j]!;
    }
    total[g] = table.total[r]!;
    rowStart[g + 1] = e;
  });
  return { groups: { nCategories: table.nCategories, nRows, rowStart, cat, count, total }, groupOf };
}

/**
 * A coefficient that is a statistic of a count table with a weight per row: its value with every
 * row weighted 1, and a bootstrap over the distinct count profiles (each weighted by how often it
 * is drawn).
 */
export function countCoefficient(table: CountTable, statistic: (table: CountTable, weights: Float64Array | null) => number): Coefficient {
  return {
    value: statistic(table, null),
    nUnits: table.nRows,
    resampling: () => {
      const { groups, groupOf } = groupIdenticalRows(table);
      return { groupOf, nGroups: groups.nRows, statistic: (w) => statistic(groups, w) };
    },
  };
}

/** Multiplicity of each group (the weights that reproduce the ungrouped table). */
export function groupSizes(groupOf: Int32Array, nGroups: number): Float64Array {
  const w = new Float64Array(nGroups);
  for (let i = 0; i < groupOf.length; i++) w[groupOf[i]!]!++;
  return w;
}
