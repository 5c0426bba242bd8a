import { wilson } from '../insight/intervals';

/**
 * Prediction-powered estimates of a rate (pass rate, flag rate, win rate): a predictor's score
 * on every item (an LLM judge, the verifier, or a cross-fitted combination), corrected by the
 * human labels on the reviewed items, with a valid 95% interval; beside it the human-only figure.
 *
 * Setting. N items (the figure's population); each has a prediction f_i in [0, 1]; n of them
 * carry a human label Y_i in [0, 1] (1 pass / 0 fail; 0.5 a tie in a win rate). Item i was
 * chosen for review with a known probability pi_i > 0 (1 for "review everything"). With no
 * probabilities at all the labelled items are taken to be a simple random sample of the N
 * (pi_i = n / N for every item: the classic PPI setting).
 *
 * Estimator (PPI++, Angelopoulos, Duchi & Zrnic 2023, with inverse-probability weights for labels
 * drawn with known probabilities, Zrnic & Candès 2024 "Active statistical inference"):
 *
 *     theta(lambda) = lambda * mean_all(f) + sum_lab w_i (Y_i - lambda f_i) / sum_lab w_i,   w_i = 1 / pi_i
 *
 * i.e. the predictor's mean over every item plus the weighted (Hájek) mean of the humans'
 * corrections. Under uniform sampling this is exactly the classic PPI estimator
 * lambda * mean(f) + mean_lab(Y - lambda f); with unequal probabilities it is the Horvitz-Thompson
 * form of Zrnic & Candès with normalised weights (Hájek), which removes the variance that a
 * random number of sampled items adds to the plain Horvitz-Thompson sum and, at lambda = 0, is
 * the usual weighted mean of the labels. Unbiased (to first order) for the population rate for
 * every lambda and every predictor, however biased: the predictor only moves the variance.
 *
 * Variance: the linearisation over items (sampling and population both),
 *     V(lambda) = sum_i psi_i^2 / N^2 * n / (n - 1),
 *     psi_i = w_i xi_i (Y_i - ybar_w) - lambda * (w_i xi_i (f_i - fbar_w) - (f_i - fbar))
 * (xi_i = 1 when labelled, ybar_w, fbar_w the weighted means over the labelled, fbar over all).
 * Under uniform sampling this is s_Y^2 / n + (1/n - 1/N)(lambda^2 s_f^2 - 2 lambda s_Yf), the
 * classic PPI++ variance. lambda is tuned by minimising V (power tuning): a_i - lambda b_i, so
 * lambda = sum a b / sum b^2, clipped to [0, 1] as PPI++ does. A predictor that tells nothing
 * about the labels gets lambda -> 0 and the estimate becomes the human-only one.
 *
 * Intervals (95% by default): every interval is the Wilson score interval of its estimate at its
 * effective number of labels m (so it stays in [0, 1], behaves at 0 and 1, and is the Wald
 * interval estimate +- z sqrt(V) for large m):
 * - effectiveLabels m = s_Y^2 / V(lambda), s_Y^2 the weighted variance of the labels: how many
 *   simple-random human labels give the estimate's variance (Kish's (sum w)^2 / sum w^2 when the
 *   labels do not vary);
 * - human: the labels alone (lambda = 0). Uniform sampling: m = n, the Wilson interval of the
 *   labels, the interval the insight pages already use for reviewer pass rates; unequal
 *   probabilities: m = s_Y^2 / V(0), the design's effective sample size;
 * - ppi: at the PPI estimate (clipped to [0, 1]) and its m; lambda = 0 gives the human figure
 *   exactly, and a small lambda an interval close to it (no jump between the two methods).
 * - variance, residualShare: s_Y^2 and Var_w(Y - lambda f) / s_Y^2, what the review planner
 *   (review-planning.ts) needs to predict widths at other budgets.
 */

export interface PpiItem {
  /** the predictor's score in [0, 1] (e.g. the judge's probability of "pass") */
  prediction: number;
  /** the human label in [0, 1]; absent (or null) when not reviewed */
  label?: number | null;
  /** probability the item had of being chosen for review, in (0, 1]; give it for all items or none */
  probability?: number | null;
}

export interface PpiOptions {
  /** 1 - coverage; default 0.05 */
  alpha?: number;
  /** 'tuned' (PPI++, default) or a fixed lambda in [0, 1] (1 = original PPI, 0 = human-only) */
  lambda?: 'tuned' | number;
}

export interface Interval {
  estimate: number;
  low: number;
  high: number;
}

export interface PpiMeanResult {
  labeled: number;
  unlabeled: number;
  /** 'uniform' when every item had the same probability (or none was given), else 'weighted' */
  design: 'uniform' | 'weighted';
  /** null when no item is labelled */
  human: Interval | null;
  ppi: (Interval & { lambda: number }) | null;
  effectiveLabels: number;
  /** weighted variance of the labels (planning input); NaN with fewer than 2 labels */
  variance: number;
  /** Var(Y - lambda f) / Var(Y) at the chosen lambda, in [0, 1] when tuned (planning input) */
  residualShare: number;
}

/** Columnar input: label NaN where not reviewed; probability omitted (uniform) or one per item. */
export interface PpiColumns {
  prediction: ArrayLike<number>;
  label: ArrayLike<number>;
  probability?: ArrayLike<number> | null;
}

function checkAlpha(alpha: number): void {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1); got ${alpha}`);
}

/** The estimate from objects; see the file comment. Throws RangeError naming the bad item. */
export function estimatePpiMean(items: readonly PpiItem[], options: PpiOptions = {}): PpiMeanResult {
  const n = items.length;
  const prediction = new Float64Array(n);
  const label = new Float64Array(n);
  const withProbability = items.filter((it) => it.probability !== undefined && it.probability !== null).length;
  if (withProbability !== 0 && withProbability !== n) {
    throw new RangeError(`probability must be given for every item or for none; ${withProbability} of ${n} items have one`);
  }
  const probability = withProbability === n && n > 0 ? new Float64Array(n) : null;
  for (let i = 0; i < n; i++) {
    const it = items[i]!;
    prediction[i] = it.prediction;
    label[i] = it.label === undefined || it.label === null ? Number.NaN : it.label;
    if (probability) probability[i] = it.probability!;
  }
  return estimatePpiMeanColumns({ prediction, label, probability }, options);
}

/** The same estimate from columns (no per-item objects: what the CLI uses on a million items). */
export function estimatePpiMeanColumns(columns: PpiColumns, options: PpiOptions = {}): PpiMeanResult {
  const { alpha, fixedLambda } = checkOptions(options);
  const { prediction: f, label: y } = columns;
  const p = columns.probability ?? null;
  const N = f.length;
  if (y.length !== N || (p && p.length !== N)) throw new RangeError('prediction, label and probability must have one entry per item');

  // Pass 1: validation, counts, means.
  let n = 0;
  let sumF = 0;
  let sumW = 0;
  let sumWY = 0;
  let sumWF = 0;
  let sumW2 = 0;
  let uniform = true;
  const p0 = p && N > 0 ? p[0]! : 1;
  for (let i = 0; i < N; i++) {
    const fi = f[i]!;
    if (!(fi >= 0 && fi <= 1)) throw new RangeError(`item ${i}: prediction must be a number in [0, 1]; got ${fi}`);
    sumF += fi;
    let wi = 1;
    if (p) {
      const pi = p[i]!;
      if (!(pi > 0 && pi <= 1)) throw new RangeError(`item ${i}: probability must be in (0, 1]; got ${pi}`);
      if (pi !== p0) uniform = false;
      wi = 1 / pi;
    }
    const yi = y[i]!;
    if (yi !== yi) continue; // NaN: not labelled
    if (!(yi >= 0 && yi <= 1)) throw new RangeError(`item ${i}: label must be in [0, 1]; got ${yi}`);
    n++;
    sumW += wi;
    sumW2 += wi * wi;
    sumWY += wi * yi;
    sumWF += wi * fi;
  }
  const first: FirstPass = { N, n, sumF, sumW, sumW2, sumWY, sumWF, uniform };
  if (n === 0) return emptyResult(first);

  const ybarW = sumWY / sumW;
  const fbarW = sumWF / sumW;
  const fbar = sumF / N;
  // Normalised weights (sum over the labelled = N): the Hájek linearisation; N / n each under uniform sampling.
  const wScale = N / sumW;

  // Pass 2: sums of a^2, a b, b^2 (a, b as in the file comment) and the weighted label moments.
  let saa = 0;
  let sab = 0;
  let sbb = 0;
  let swyy = 0;
  let swyf = 0;
  let swff = 0;
  for (let i = 0; i < N; i++) {
    const fi = f[i]!;
    const yi = y[i]!;
    const df = fi - fbar;
    if (yi !== yi) {
      sbb += df * df; // a = 0, b = -(f - fbar)
      continue;
    }
    const wi = (p ? 1 / p[i]! : 1) * wScale;
    const ey = yi - ybarW;
    const ef = fi - fbarW;
    const a = wi * ey;
    const b = wi * ef - df;
    saa += a * a;
    sab += a * b;
    sbb += b * b;
    swyy += wi * ey * ey;
    swyf += wi * ey * ef;
    swff += wi * ef * ef;
  }
  return finishPpiMean(first, { saa, sab, sbb, swyy, swyf, swff }, alpha, fixedLambda);
}

/**
 * The sufficient statistics of the estimate: plain sums over the items, what a database computes
 * with `count` and `sum` per group (lib/insight/queries/insight-estimate-stats.ts) so that a million
 * items never leave it. f the prediction, y the label, w = 1 / probability (1 for every item
 * when no probabilities are given). `N`, `sumF`, `sumFF` run over every item; every other sum
 * over the labelled items only.
 */
export interface PpiMoments {
  N: number;
  sumF: number;
  sumFF: number;
  n: number;
  sumW: number;
  sumW2: number;
  sumWY: number;
  sumWF: number;
  sumWYY: number;
  sumWYF: number;
  sumWFF: number;
  sumW2Y: number;
  sumW2F: number;
  sumW2YY: number;
  sumW2YF: number;
  sumW2FF: number;
  /** every item had the same probability (or none was given) */
  uniform: boolean;
}

/** The moments of items that all share one prediction `f`, from their sums that do not involve f (f = 0 or absent there). */
export function momentsAtPrediction(m: PpiMoments, f: number): PpiMoments {
  return {
    ...m,
    sumF: m.N * f,
    sumFF: m.N * f * f,
    sumWF: m.sumW * f,
    sumWYF: m.sumWY * f,
    sumWFF: m.sumW * f * f,
    sumW2F: m.sumW2 * f,
    sumW2YF: m.sumW2Y * f,
    sumW2FF: m.sumW2 * f * f,
  };
}

/** The moments of two disjoint sets of items together (`uniform` must be decided over the union by the caller). */
export function addMoments(a: PpiMoments, b: PpiMoments, uniform: boolean): PpiMoments {
  const out = { ...a, uniform };
  for (const k of Object.keys(a) as (keyof PpiMoments)[]) if (k !== 'uniform') out[k] = a[k] + b[k];
  return out;
}

/**
 * The estimate from its sufficient statistics: the same result as estimatePpiMeanColumns on the
 * items they sum (to rounding: the centred sums of its second pass are expanded into these
 * plain ones, and a centred sum at the level of rounding noise in its terms is taken as 0).
 */
export function estimatePpiMeanFromMoments(m: PpiMoments, options: PpiOptions = {}): PpiMeanResult {
  const { alpha, fixedLambda } = checkOptions(options);
  const bad = Object.entries(m).find(([k, v]) => k !== 'uniform' && !(typeof v === 'number' && Number.isFinite(v) && v >= 0));
  // every sum is of non-negative terms (f, y in [0, 1], w >= 1)
  if (bad) throw new RangeError(`moments: ${bad[0]} must be a finite number >= 0; got ${bad[1]}`);
  if (!Number.isInteger(m.N) || !Number.isInteger(m.n) || m.n > m.N)
    throw new RangeError(`moments: N and n must be whole numbers with n <= N; got N = ${m.N}, n = ${m.n}`);
  const first: FirstPass = {
    N: m.N,
    n: m.n,
    sumF: m.sumF,
    sumW: m.sumW,
    sumW2: m.sumW2,
    sumWY: m.sumWY,
    sumWF: m.sumWF,
    uniform: m.uniform,
  };
  if (m.n === 0) return emptyResult(first);
  const ybar = m.sumWY / m.sumW;
  const fbarW = m.sumWF / m.sumW;
  const fbar = m.sumF / m.N;
  const s = m.N / m.sumW;
  const s2 = s * s;
  // sum_lab w^2 (y - ybar)^2, sum_lab w^2 (y - ybar)(f - fbarW), sum_lab w^2 (f - fbarW)^2, as plain sums
  const w2yy = [m.sumW2YY, -2 * ybar * m.sumW2Y, ybar * ybar * m.sumW2];
  const w2yf = [m.sumW2YF, -fbarW * m.sumW2Y, -ybar * m.sumW2F, ybar * fbarW * m.sumW2];
  const w2ff = [m.sumW2FF, -2 * fbarW * m.sumW2F, fbarW * fbarW * m.sumW2];
  // sum_lab w (y - ybar)(f - fbar), sum_lab w (f - fbarW)(f - fbar), sum_all (f - fbar)^2
  const wyd = [m.sumWYF, -fbar * m.sumWY, -ybar * m.sumWF, ybar * fbar * m.sumW];
  const wfd = [m.sumWFF, -(fbarW + fbar) * m.sumWF, fbarW * fbar * m.sumW];
  const dd = [m.sumFF, -2 * fbar * m.sumF, m.N * fbar * fbar];
  const wyy = [m.sumWYY, -2 * ybar * m.sumWY, ybar * ybar * m.sumW];
  const wyf = [m.sumWYF, -fbarW * m.sumWY, -ybar * m.sumWF, ybar * fbarW * m.sumW];
  const wff = [m.sumWFF, -2 * fbarW * m.sumWF, fbarW * fbarW * m.sumW];
  const scaled = (k: number, terms: number[]) => terms.map((t) => k * t);
  const second: SecondPass = {
    saa: Math.max(0, centred(scaled(s2, w2yy))),
    sab: centred([...scaled(s2, w2yf), ...scaled(-s, wyd)]),
    sbb: Math.max(0, centred([...scaled(s2, w2ff), ...scaled(-2 * s, wfd), ...dd])),
    swyy: Math.max(0, centred(scaled(s, wyy))),
    swyf: centred(scaled(s, wyf)),
    swff: Math.max(0, centred(scaled(s, wff))),
  };
  return finishPpiMean(first, second, alpha, fixedLambda);
}

/** A sum of terms that cancel; 0 when what is left is within rounding of the terms' size. */
function centred(terms: number[]): number {
  let sum = 0;
  let size = 0;
  for (const t of terms) {
    sum += t;
    size += Math.abs(t);
  }
  return Math.abs(sum) <= CANCELLATION * size ? 0 : sum;
}
/** relative size below which an expanded centred sum is rounding noise (sums of 1e6 terms carry ~1e-13 relative error) */
const CANCELLATION = 1e-10;

interface FirstPass {
  N: number;
  n: number;
  sumF: number;
  sumW: number;
  sumW2: number;
  sumWY: number;
  sumWF: number;
  uniform: boolean;
}

interface SecondPass {
  saa: number;
  sab: number;
  sbb: number;
  swyy: number;
  swyf: number;
  swff: number;
}

function checkOptions(options: PpiOptions): { alpha: number; fixedLambda: 'tuned' | number } {
  const alpha = options.alpha ?? 0.05;
  checkAlpha(alpha);
  const fixedLambda = options.lambda ?? 'tuned';
  if (fixedLambda !== 'tuned' && !(fixedLambda >= 0 && fixedLambda <= 1))
    throw new RangeError(`lambda must be 'tuned' or in [0, 1]; got ${fixedLambda}`);
  return { alpha, fixedLambda };
}

function emptyResult({ N, n, uniform }: FirstPass): PpiMeanResult {
  return {
    labeled: n,
    unlabeled: N - n,
    design: uniform ? 'uniform' : 'weighted',
    human: null,
    ppi: null,
    effectiveLabels: 0,
    variance: Number.NaN,
    residualShare: Number.NaN,
  };
}

/** lambda, the variances and the intervals from the two passes' sums (the one place that maths lives). */
function finishPpiMean(first: FirstPass, second: SecondPass, alpha: number, fixedLambda: 'tuned' | number): PpiMeanResult {
  const { N, n, sumF, sumW, sumW2, sumWY, sumWF, uniform } = first;
  const { saa, sab, sbb, swyy, swyf, swff } = second;
  const design = uniform ? 'uniform' : 'weighted';
  const ybarW = sumWY / sumW;
  const fbarW = sumWF / sumW;
  const fbar = sumF / N;
  const wScale = N / sumW;
  const sw = sumW * wScale;
  const correction = n > 1 ? n / (n - 1) : Number.NaN;
  const variance = (swyy / sw) * correction; // weighted variance of the labels
  const sizeOf = (v: number) => (v / (N * N)) * correction;

  let lambda: number;
  if (fixedLambda !== 'tuned') lambda = fixedLambda;
  else if (n < 2 || !(sbb > 0)) lambda = 0;
  else lambda = Math.min(1, Math.max(0, sab / sbb));

  const residual = ((swyy - 2 * lambda * swyf + lambda * lambda * swff) / sw) * correction;
  const residualShare = variance > 0 ? residual / variance : Number.NaN;

  // Effective sizes: the labels' variance over the estimate's variance (n for the human-only
  // estimate under uniform sampling); Kish's (sum w)^2 / sum w^2 when the labels do not vary.
  const v0 = sizeOf(saa);
  const kish = uniform ? n : (sumW * sumW) / sumW2;
  const humanSize = uniform ? n : variance > 0 && v0 > 0 ? variance / v0 : kish;
  const rate = sumWY / sumW;
  const human = wilsonAt(rate, humanSize, alpha);
  let ppi: Interval & { lambda: number };
  let effectiveLabels: number;
  if (lambda === 0) {
    ppi = { ...human, lambda: 0 };
    effectiveLabels = humanSize;
  } else {
    const vPpi = sizeOf(saa - 2 * lambda * sab + lambda * lambda * sbb);
    effectiveLabels = variance > 0 && vPpi > 0 ? variance / vPpi : humanSize;
    ppi = { ...wilsonAt(clip01(lambda * fbar + (ybarW - lambda * fbarW)), effectiveLabels, alpha), lambda };
  }
  return { labeled: n, unlabeled: N - n, design, human, ppi, effectiveLabels, variance, residualShare };
}

/** The Wilson score interval of a rate estimated with the precision of `size` simple-random labels. */
function wilsonAt(rate: number, size: number, alpha: number): Interval {
  const w = wilson(Math.min(size, Math.max(0, rate * size)), size, 1 - alpha);
  return { estimate: rate, low: w.ci![0], high: w.ci![1] };
}

function clip01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

export interface PpiDifferenceResult {
  first: PpiMeanResult;
  second: PpiMeanResult;
  /** second - first, human-only; null when a group has no label */
  human: Interval | null;
  /** second - first, prediction-powered; null when a group has no label */
  ppi: Interval | null;
}

/**
 * The difference second - first of two independent groups' rates (a checkpoint against its
 * baseline), human-only and prediction-powered, each group estimated as in estimatePpiMean
 * (lambda tuned per group). The interval combines the two groups' intervals by MOVER
 * (Zou & Donner 2008; Newcombe's hybrid score interval when both are Wilson intervals, the
 * Wald difference interval when both are symmetric):
 *     [d - sqrt((e2 - l2)^2 + (u1 - e1)^2), d + sqrt((u2 - e2)^2 + (e1 - l1)^2)]
 */
export function estimatePpiDifference(
  first: readonly PpiItem[],
  second: readonly PpiItem[],
  options: PpiOptions = {},
): PpiDifferenceResult {
  const a = estimatePpiMean(first, options);
  const b = estimatePpiMean(second, options);
  return { first: a, second: b, human: moverDifference(a.human, b.human), ppi: moverDifference(a.ppi, b.ppi) };
}

/** MOVER interval for the difference second - first of two independent estimates. */
export function moverDifference(first: Interval | null, second: Interval | null): Interval | null {
  if (!first || !second) return null;
  const d = second.estimate - first.estimate;
  return {
    estimate: d,
    low: d - Math.hypot(second.estimate - second.low, first.high - first.estimate),
    high: d + Math.hypot(second.high - second.estimate, first.estimate - first.low),
  };
}
