import { Mulberry32 } from './prng';

/**
 * Unit bootstrap for agreement coefficients: draw the coefficient's units with replacement,
 * recompute, repeat; the interval is the 2.5% and 97.5% percentiles of the replicates that are
 * defined (NaN replicates, e.g. a resample with no variation, are skipped).
 *
 * A coefficient exposes its resampling view: each resampled unit belongs to a group (units with
 * the same sufficient statistic share one), and `statistic` recomputes the coefficient from a
 * weight (multiplicity) per group. A replicate is then O(units) draws + O(groups) arithmetic.
 */
export interface Resampling {
  /** group of each unit that enters the coefficient */
  groupOf: Int32Array;
  nGroups: number;
  statistic: (groupWeights: Float64Array) => number;
}

export interface Coefficient {
  /** the point estimate; NaN when undefined (e.g. no variation at all) */
  value: number;
  /** units that enter the coefficient (and that a bootstrap resamples) */
  nUnits: number;
  resampling: () => Resampling;
}

export interface BootstrapOptions {
  /** number of replicates; default 1000 */
  replicates?: number;
  seed?: number;
  /** central coverage of the interval; default 0.95 */
  level?: number;
}

export interface BootstrapResult {
  ci: [number, number] | null;
  /** replicate values in draw order (NaN where undefined) */
  replicates: Float64Array;
  /** how many replicates were defined */
  valid: number;
}

/** Runs the bootstrap of one resampling view. */
export function bootstrap(resampling: Resampling, options: BootstrapOptions = {}): BootstrapResult {
  const replicates = options.replicates ?? 1000;
  const level = options.level ?? 0.95;
  const random = new Mulberry32(options.seed ?? 1);
  const { groupOf, nGroups, statistic } = resampling;
  const n = groupOf.length;
  const weights = new Float64Array(nGroups);
  const out = new Float64Array(replicates);
  for (let b = 0; b < replicates; b++) {
    weights.fill(0);
    random.tally(groupOf, weights, n);
    out[b] = n === 0 ? Number.NaN : statistic(weights);
  }
  const ci = percentileInterval(out, (1 - level) / 2, 1 - (1 - level) / 2);
  let valid = 0;
  for (const v of out) if (!Number.isNaN(v)) valid++;
  return { ci, replicates: out, valid };
}

/** Bootstraps a coefficient; null interval when replicates is 0 or no replicate is defined. */
export function bootstrapCoefficient(coefficient: Coefficient, options: BootstrapOptions = {}): BootstrapResult {
  if ((options.replicates ?? 1000) <= 0) return { ci: null, replicates: new Float64Array(0), valid: 0 };
  return bootstrap(coefficient.resampling(), options);
}

/** Quantile with linear interpolation between order statistics (numpy's default, R type 7). */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** The [lower, upper] percentiles of the non-NaN values, or null when there are none. */
export function percentileInterval(values: ArrayLike<number>, lower: number, upper: number): [number, number] | null {
  const kept: number[] = [];
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i]!)) kept.push(values[i]!);
  if (kept.length === 0) return null;
  const sorted = Float64Array.from(kept).sort();
  return [quantileSorted(sorted, lower), quantileSorted(sorted, upper)];
}
