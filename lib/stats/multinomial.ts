import { percentileInterval } from './bootstrap';
import { Mulberry32 } from './prng';

/**
 * Bootstrap over units that fall into a few groups (e.g. items by their (passes, fails) counts,
 * trajectories by their 2 x 2 cell): a resample of n units is a multinomial draw of n over the
 * groups' shares, so a replicate costs O(groups) instead of O(units). Up to EXACT_LIMIT units it
 * draws unit by unit (the textbook bootstrap, Mulberry32.tally); above, by sequential
 * conditional binomials: exact (inversion) when the expected count or its complement is under
 * 30, otherwise the normal approximation (rounded, clamped), whose error at that size is far
 * below the bootstrap's own Monte Carlo error. Returns the 95% percentile interval.
 */
export const EXACT_LIMIT = 1_000;

export function groupBootstrap(
  sizes: readonly number[],
  statistic: (weights: Float64Array) => number,
  replicates: number,
  seed: number,
): [number, number] | null {
  const n = sizes.reduce((a, b) => a + b, 0);
  if (n === 0 || replicates <= 0) return null;
  const random = new Mulberry32(seed);
  const weights = new Float64Array(sizes.length);
  const out = new Float64Array(replicates);
  let groupOf: Int32Array | null = null;
  if (n <= EXACT_LIMIT) {
    groupOf = new Int32Array(n);
    let k = 0;
    sizes.forEach((s, g) => {
      for (let i = 0; i < s; i++) groupOf![k++] = g;
    });
  }
  for (let b = 0; b < replicates; b++) {
    weights.fill(0);
    if (groupOf) random.tally(groupOf, weights, n);
    else multinomialInto(sizes, n, random, weights);
    out[b] = statistic(weights);
  }
  return percentileInterval(out, 0.025, 0.975);
}

/** One multinomial draw of n over the shares sizes/sum(sizes), by conditional binomials. */
export function multinomialInto(sizes: ArrayLike<number>, n: number, random: Mulberry32, out: Float64Array): void {
  let remaining = n;
  let mass = 0;
  for (let g = 0; g < sizes.length; g++) mass += sizes[g]!;
  for (let g = 0; g < sizes.length; g++) {
    if (remaining <= 0 || mass <= 0) break;
    const p = g === sizes.length - 1 ? 1 : Math.min(1, sizes[g]! / mass);
    const x = binomial(remaining, p, random);
    out[g] = x;
    remaining -= x;
    mass -= sizes[g]!;
  }
}

export function binomial(m: number, p: number, random: Mulberry32): number {
  if (p <= 0 || m <= 0) return 0;
  if (p >= 1) return m;
  if (p > 0.5) return m - binomial(m, 1 - p, random);
  const mean = m * p;
  if (mean < 30) {
    // inversion: walk the pmf from 0 (expected steps ~ mean)
    const u = random.next();
    const q = p / (1 - p);
    let pmf = Math.exp(m * Math.log1p(-p));
    let cdf = pmf;
    let k = 0;
    while (u > cdf && k < m) {
      pmf *= (q * (m - k)) / (k + 1);
      k++;
      cdf += pmf;
    }
    return k;
  }
  // Box-Muller normal approximation
  const u1 = Math.max(random.next(), 1e-300);
  const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * random.next());
  return Math.min(m, Math.max(0, Math.round(mean + z * Math.sqrt(mean * (1 - p)))));
}
