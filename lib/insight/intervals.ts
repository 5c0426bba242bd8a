/**
 * Confidence intervals for the insight pages. Pure; every figure on those pages goes through
 * one of these so that it carries its sample size and its interval.
 */

/** An estimated proportion with its sample size and interval; rate and interval are null when n is 0. */
export interface Proportion {
  k: number;
  n: number;
  rate: number | null;
  ci: [number, number] | null;
}

/** A mean with its sample size and interval (null when n is 0; interval null when n < 2). */
export interface MeanEstimate {
  n: number;
  mean: number | null;
  ci: [number, number] | null;
}

/** The standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile needs 0 < p < 1; got ${p}`);
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
    );
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

/** Two-sided z for a central coverage level (0.95 -> 1.959964). */
export function zFor(level = 0.95): number {
  return normalQuantile(1 - (1 - level) / 2);
}

/**
 * Wilson score interval for k successes in n trials (k may be fractional, e.g. ties counted as
 * halves). Unlike the Wald interval it stays inside [0, 1] and behaves at k = 0 and k = n.
 */
export function wilson(k: number, n: number, level = 0.95): Proportion {
  if (!(n > 0)) return { k, n: Math.max(0, n), rate: null, ci: null };
  if (k < 0 || k > n) throw new RangeError(`wilson: k must be within 0..n; got k=${k}, n=${n}`);
  const z = zFor(level);
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // at k = 0 (k = n) the score interval's low (high) end is exactly 0 (1); computed, it can be left ~1e-17 off by rounding,
  // which put a low end above a 0 estimate
  return { k, n, rate: p, ci: [k === 0 ? 0 : Math.max(0, centre - half), k === n ? 1 : Math.min(1, centre + half)] };
}

/** Student t quantiles t_{0.975, df} for df 1..30; above 30 the normal quantile is within 2%. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086,
  2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/**
 * Mean with a 95% t interval from the sufficient statistics (n, sum, sum of squares), so that
 * the database can aggregate and only three numbers reach Node.
 */
export function meanInterval(n: number, sum: number, sumSquares: number): MeanEstimate {
  if (!(n > 0)) return { n: 0, mean: null, ci: null };
  const mean = sum / n;
  if (n < 2) return { n, mean, ci: null };
  const variance = Math.max(0, (sumSquares - n * mean * mean) / (n - 1));
  const t = n - 1 <= 30 ? T975[n - 2]! : zFor(0.95);
  const half = t * Math.sqrt(variance / n);
  return { n, mean, ci: [mean - half, mean + half] };
}

/**
 * Newcombe's hybrid score interval (his method 10) for the difference p2 - p1 of two
 * independent proportions, built from the two Wilson intervals. Null when either n is 0.
 */
export function newcombeDifference(first: Proportion, second: Proportion): { difference: number; ci: [number, number] } | null {
  if (first.rate === null || second.rate === null || !first.ci || !second.ci) return null;
  const [l1, u1] = first.ci;
  const [l2, u2] = second.ci;
  const p1 = first.rate;
  const p2 = second.rate;
  const d = p2 - p1;
  return { difference: d, ci: [d - Math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + Math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)] };
}

/** True when an interval lies wholly on one side of `value`. */
export function excludes(ci: [number, number] | null, value: number): boolean {
  return ci !== null && (ci[0] > value || ci[1] < value);
}
