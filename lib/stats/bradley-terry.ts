import { percentileInterval } from './bootstrap';
import { aggregateBattles, type Battle, winMatrix } from './battles';
import { EXACT_LIMIT, multinomialInto } from './multinomial';
import { Mulberry32 } from './prng';

/**
 * Bradley-Terry ratings from pairwise battles, as LMArena computes them: on the Elo scale,
 *
 *   P(a beats b) = 1 / (1 + 10^((R_b - R_a) / 400)),
 *
 * fitted by maximum likelihood with ties ("tie", "tie (bothbad)") counted as half a win each
 * way, and reported as R = 400 * theta + 1000 with theta the base-10 log strengths centred so
 * that the mean rating is exactly 1000. (LMArena then shifts everything to pin one anchor model;
 * we keep the mean at 1000.)
 *
 * The fit is Newton's method on the aggregated win matrix (models x models), so its cost does
 * not depend on the number of battles. The maximum-likelihood estimate exists only when the
 * "beat or tied" graph is strongly connected (Zermelo/Ford); when it is not (a model that never
 * won or never lost, or groups never compared), every model also gets one virtual game against
 * a fixed 1000-rated reference, half won and half lost, which keeps all ratings finite (a model
 * that lost all of n games to average opponents lands near 1000 - 400 log10(2n)). `priorUsed`
 * says when that happened.
 *
 * Bootstrap: resample the battles with replacement (indices into the battle -> cell array; above
 * EXACT_LIMIT battles, one multinomial draw over the cells, lib/stats/multinomial.ts, so a round
 * costs O(cells) however many battles there are), refit from the point estimate, and take each
 * model's 2.5% / 97.5% percentiles.
 */
export interface ModelRating {
  model: string;
  rating: number;
  ci: [number, number] | null;
  battles: number;
}

export interface BradleyTerryOptions {
  /** bootstrap rounds; default 1000; 0 disables the intervals */
  bootstrap?: number;
  seed?: number;
}

export interface BradleyTerryResult {
  /** sorted by rating, highest first (ties by name) */
  ratings: ModelRating[];
  priorUsed: boolean;
  nBattles: number;
}

const SCALE = 400 / Math.LN10;
const PRIOR_GAMES = 1;

export function bradleyTerryRatings(battles: readonly Battle[], options: BradleyTerryOptions = {}): BradleyTerryResult {
  const agg = aggregateBattles(battles);
  const M = agg.models.length;
  const point = fitBradleyTerry(winMatrix(agg, agg.cellCounts), M);

  const rounds = options.bootstrap ?? 1000;
  let cis: ([number, number] | null)[] = agg.models.map(() => null);
  if (rounds > 0 && battles.length > 0) {
    const random = new Mulberry32(options.seed ?? 1);
    const n = battles.length;
    const counts = new Float64Array(agg.nCells);
    const samples = agg.models.map(() => new Float64Array(rounds));
    for (let b = 0; b < rounds; b++) {
      counts.fill(0);
      if (n <= EXACT_LIMIT) random.tally(agg.cellOf, counts, n);
      else multinomialInto(agg.cellCounts, n, random, counts);
      const fit = fitBradleyTerry(winMatrix(agg, counts), M, point.beta);
      for (let i = 0; i < M; i++) samples[i]![b] = fit.ratings[i]!;
    }
    cis = samples.map((s) => percentileInterval(s, 0.025, 0.975));
  }

  const ratings = agg.models.map((model, i) => ({
    model,
    rating: point.ratings[i]!,
    ci: cis[i] ?? null,
    battles: agg.battlesPerModel[i]!,
  }));
  ratings.sort((x, y) => y.rating - x.rating || (x.model < y.model ? -1 : x.model > y.model ? 1 : 0));
  return { ratings, priorUsed: point.priorUsed, nBattles: battles.length };
}

export interface BradleyTerryFit {
  /** natural-log strengths, centred (mean 0) */
  beta: Float64Array;
  /** Elo-scale ratings, mean 1000 */
  ratings: Float64Array;
  priorUsed: boolean;
  iterations: number;
}

/** Maximum-likelihood fit on a row-major M x M win matrix (W_ij: wins of i over j, ties as halves). */
export function fitBradleyTerry(W: Float64Array, M: number, start?: Float64Array): BradleyTerryFit {
  const prior = stronglyConnected(W, M) ? 0 : PRIOR_GAMES;
  const beta = start ? Float64Array.from(start) : new Float64Array(M);
  const g = new Float64Array(M);
  const A = new Float64Array(M * M);
  const step = new Float64Array(M);
  const trial = new Float64Array(M);
  let ll = logLikelihood(W, M, beta, prior);
  let iterations = 0;
  for (; iterations < 100 && M > 1; iterations++) {
    g.fill(0);
    A.fill(0);
    for (let i = 0; i < M; i++) {
      for (let j = i + 1; j < M; j++) {
        const wij = W[i * M + j]!;
        const n = wij + W[j * M + i]!;
        if (n === 0) continue;
        const p = sigmoid(beta[i]! - beta[j]!);
        const r = wij - n * p;
        const h = n * p * (1 - p);
        g[i]! += r;
        g[j]! -= r;
        A[i * M + i]! += h;
        A[j * M + j]! += h;
        A[i * M + j]! -= h;
        A[j * M + i]! -= h;
      }
    }
    if (prior > 0) {
      for (let i = 0; i < M; i++) {
        const p = sigmoid(beta[i]!);
        g[i]! += prior * (0.5 - p);
        A[i * M + i]! += prior * p * (1 - p);
      }
    } else {
      // The likelihood is invariant to a common shift: pin the mean by adding c * 11^T (g sums to 0).
      let trace = 0;
      for (let i = 0; i < M; i++) trace += A[i * M + i]!;
      const c = Math.max(trace / M, 1e-12) / M;
      for (let k = 0; k < M * M; k++) A[k]! += c;
    }
    solveSymmetric(A, g, step, M);
    let t = 1;
    let next = ll;
    for (let halvings = 0; halvings < 60; halvings++, t /= 2) {
      for (let i = 0; i < M; i++) trial[i] = beta[i]! + t * step[i]!;
      next = logLikelihood(W, M, trial, prior);
      if (next >= ll - 1e-12 * Math.abs(ll)) break;
    }
    let change = 0;
    for (let i = 0; i < M; i++) {
      change = Math.max(change, Math.abs(trial[i]! - beta[i]!));
      beta[i] = trial[i]!;
    }
    ll = next;
    if (change < 1e-10) {
      iterations++;
      break;
    }
  }
  let mean = 0;
  for (let i = 0; i < M; i++) mean += beta[i]!;
  mean = M > 0 ? mean / M : 0;
  const ratings = new Float64Array(M);
  for (let i = 0; i < M; i++) {
    beta[i]! -= mean;
    ratings[i] = SCALE * beta[i]! + 1000;
  }
  return { beta, ratings, priorUsed: prior > 0, iterations };
}

function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

function logSigmoid(x: number): number {
  return x >= 0 ? -Math.log1p(Math.exp(-x)) : x - Math.log1p(Math.exp(x));
}

function logLikelihood(W: Float64Array, M: number, beta: Float64Array, prior: number): number {
  let ll = 0;
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < M; j++) {
      const w = W[i * M + j]!;
      if (w > 0) ll += w * logSigmoid(beta[i]! - beta[j]!);
    }
    if (prior > 0) ll += (prior / 2) * (logSigmoid(beta[i]!) + logSigmoid(-beta[i]!));
  }
  return ll;
}

/** True when every model can reach every other along "i beat or tied j" edges (W_ij > 0). */
export function stronglyConnected(W: Float64Array, M: number): boolean {
  if (M <= 1) return true;
  const reach = (forward: boolean) => {
    const seen = new Uint8Array(M);
    const stack = [0];
    seen[0] = 1;
    let count = 1;
    while (stack.length > 0) {
      const i = stack.pop()!;
      for (let j = 0; j < M; j++) {
        if (seen[j] || (forward ? W[i * M + j]! : W[j * M + i]!) <= 0) continue;
        seen[j] = 1;
        count++;
        stack.push(j);
      }
    }
    return count === M;
  };
  return reach(true) && reach(false);
}

/** Solves A x = b for symmetric positive definite A (Gaussian elimination, partial pivoting); A and b are not kept. */
function solveSymmetric(A: Float64Array, b: Float64Array, x: Float64Array, M: number): void {
  const a = Float64Array.from(A);
  const y = Float64Array.from(b);
  for (let col = 0; col < M; col++) {
    let pivot = col;
    for (let r = col + 1; r < M; r++) if (Math.abs(a[r * M + col]!) > Math.abs(a[pivot * M + col]!)) pivot = r;
    if (pivot !== col) {
      for (let k = 0; k < M; k++) {
        const tmp = a[col * M + k]!;
        a[col * M + k] = a[pivot * M + k]!;
        a[pivot * M + k] = tmp;
      }
      const tmp = y[col]!;
      y[col] = y[pivot]!;
      y[pivot] = tmp;
    }
    const d = a[col * M + col]!;
    if (d === 0) continue;
    for (let r = col + 1; r < M; r++) {
      const f = a[r * M + col]! / d;
      if (f === 0) continue;
      for (let k = col; k < M; k++) a[r * M + k]! -= f * a[col * M + k]!;
      y[r]! -= f * y[col]!;
    }
  }
  for (let r = M - 1; r >= 0; r--) {
    let s = y[r]!;
    for (let k = r + 1; k < M; k++) s -= a[r * M + k]! * x[k]!;
    const d = a[r * M + r]!;
    x[r] = d === 0 ? 0 : s / d;
  }
}
