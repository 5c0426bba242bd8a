import { AppError } from '../errors';
import { compareValues, type RatingKey, type RatingValue } from './ratings';

/**
 * Dawid-Skene consensus (Dawid & Skene 1979): latent true class per item, one confusion matrix
 * per rater (pi_j[k][l] = P(rater j answers l | truth k)), class priors p_k; fitted by EM.
 *
 * - initialisation: each item's posterior is its vote shares (soft majority vote);
 * - M-step: p_k and pi_j from the posteriors, plus `smoothing` pseudo-counts in every cell so no
 *   probability is 0;
 * - E-step: posterior_ik proportional to p_k prod_(answers of item i) pi_j[k][l] (in log space);
 * - stops when no posterior moves by more than `tolerance`, or after `maxIterations`.
 *
 * Classes are the distinct labels, sorted (numbers ascending, then strings); the MAP label breaks
 * ties toward the first class in that order. A rater's `accuracy` is sum_k p_k pi_j[k][k], the
 * estimated probability that they answer an item correctly.
 */
export interface Annotation {
  item: RatingKey;
  rater: RatingKey;
  label: RatingValue;
}

export interface DawidSkeneOptions {
  /** default 100 */
  maxIterations?: number;
  /** default 1e-6 */
  tolerance?: number;
  /** pseudo-count added to every confusion cell and prior; default 0.01 */
  smoothing?: number;
}

export interface DawidSkeneItem {
  item: RatingKey;
  /** posterior probability of each class, in `classes` order */
  posterior: number[];
  label: RatingValue;
}

export interface DawidSkeneRater {
  rater: RatingKey;
  accuracy: number;
  /** confusion[true class][given label], rows sum to 1 */
  confusion: number[][];
  answers: number;
}

export interface DawidSkeneResult {
  classes: RatingValue[];
  priors: number[];
  items: DawidSkeneItem[];
  raters: DawidSkeneRater[];
  iterations: number;
  converged: boolean;
  logLikelihood: number;
}

export function dawidSkene(annotations: readonly Annotation[], options: DawidSkeneOptions = {}): DawidSkeneResult {
  const maxIterations = options.maxIterations ?? 100;
  const tolerance = options.tolerance ?? 1e-6;
  const smoothing = options.smoothing ?? 0.01;
  if (annotations.length === 0) throw new AppError('BAD_INPUT', 'Dawid-Skene needs at least one annotation');
  if (!(smoothing >= 0)) throw new AppError('BAD_INPUT', 'Dawid-Skene smoothing must be non-negative');

  // Encode.
  const itemIds = new Map<RatingKey, number>();
  const raterIds = new Map<RatingKey, number>();
  const labelIds = new Map<RatingValue, number>();
  const items: RatingKey[] = [];
  const raters: RatingKey[] = [];
  const labels: RatingValue[] = [];
  const n = annotations.length;
  const obsItem = new Int32Array(n);
  const obsRater = new Int32Array(n);
  const obsLabel = new Int32Array(n);
  const id = <K>(map: Map<K, number>, list: K[], key: K) => {
    let v = map.get(key);
    if (v === undefined) {
      v = list.length;
      map.set(key, v);
      list.push(key);
    }
    return v;
  };
  annotations.forEach((a, i) => {
    for (const [field, value] of [
      ['item', a.item],
      ['rater', a.rater],
      ['label', a.label],
    ] as const) {
      if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) {
        throw new AppError('BAD_INPUT', `Annotation ${i + 1}: ${field} must be a string or a finite number`);
      }
    }
    obsItem[i] = id(itemIds, items, a.item);
    obsRater[i] = id(raterIds, raters, a.rater);
    obsLabel[i] = id(labelIds, labels, a.label);
  });
  const order = labels.map((_, i) => i).sort((x, y) => compareValues(labels[x]!, labels[y]!));
  const classOf = new Int32Array(labels.length);
  order.forEach((provisional, k) => (classOf[provisional] = k));
  for (let i = 0; i < n; i++) obsLabel[i] = classOf[obsLabel[i]!]!;
  const classes = order.map((i) => labels[i]!);
  const I = items.length;
  const J = raters.length;
  const K = classes.length;

  // Posteriors T (I x K), initialised to vote shares.
  const T = new Float64Array(I * K);
  const votes = new Float64Array(I);
  for (let o = 0; o < n; o++) {
    T[obsItem[o]! * K + obsLabel[o]!]!++;
    votes[obsItem[o]!]!++;
  }
  for (let i = 0; i < I; i++) for (let k = 0; k < K; k++) T[i * K + k]! /= votes[i]!;

  const priors = new Float64Array(K);
  const confusion = new Float64Array(J * K * K); // [j][k][l]
  const logPrior = new Float64Array(K);
  const logConfusion = new Float64Array(J * K * K);
  const logPost = new Float64Array(I * K);
  let iterations = 0;
  let converged = false;
  let logLikelihood = Number.NaN;

  const mStep = () => {
    priors.fill(smoothing);
    for (let i = 0; i < I; i++) for (let k = 0; k < K; k++) priors[k]! += T[i * K + k]!;
    let total = 0;
    for (let k = 0; k < K; k++) total += priors[k]!;
    for (let k = 0; k < K; k++) {
      priors[k]! /= total;
      logPrior[k] = Math.log(priors[k]!);
    }
    confusion.fill(smoothing);
    for (let o = 0; o < n; o++) {
      const base = obsRater[o]! * K * K + obsLabel[o]!;
      const t = obsItem[o]! * K;
      for (let k = 0; k < K; k++) confusion[base + k * K]! += T[t + k]!;
    }
    for (let row = 0; row < J * K; row++) {
      let s = 0;
      for (let l = 0; l < K; l++) s += confusion[row * K + l]!;
      for (let l = 0; l < K; l++) {
        const v = s > 0 ? confusion[row * K + l]! / s : 1 / K;
        confusion[row * K + l] = v;
        logConfusion[row * K + l] = Math.log(v);
      }
    }
  };

  const eStep = (): number => {
    for (let i = 0; i < I; i++) for (let k = 0; k < K; k++) logPost[i * K + k] = logPrior[k]!;
    for (let o = 0; o < n; o++) {
      const base = obsRater[o]! * K * K + obsLabel[o]!;
      const t = obsItem[o]! * K;
      for (let k = 0; k < K; k++) logPost[t + k]! += logConfusion[base + k * K]!;
    }
    let change = 0;
    logLikelihood = 0;
    for (let i = 0; i < I; i++) {
      let max = -Infinity;
      for (let k = 0; k < K; k++) max = Math.max(max, logPost[i * K + k]!);
      let s = 0;
      for (let k = 0; k < K; k++) s += Math.exp(logPost[i * K + k]! - max);
      logLikelihood += max + Math.log(s);
      for (let k = 0; k < K; k++) {
        const v = Math.exp(logPost[i * K + k]! - max) / s;
        change = Math.max(change, Math.abs(v - T[i * K + k]!));
        T[i * K + k] = v;
      }
    }
    return change;
  };

  while (iterations < maxIterations) {
    iterations++;
    mStep();
    if (eStep() <= tolerance) {
      converged = true;
      break;
    }
  }
  if (iterations === 0) mStep();

  const answers = new Float64Array(J);
  for (let o = 0; o < n; o++) answers[obsRater[o]!]!++;
  return {
    classes,
    priors: Array.from(priors),
    items: items.map((item, i) => {
      const posterior = Array.from(T.subarray(i * K, (i + 1) * K));
      let best = 0;
      for (let k = 1; k < K; k++) if (posterior[k]! > posterior[best]!) best = k;
      return { item, posterior, label: classes[best]! };
    }),
    raters: raters.map((rater, j) => {
      const matrix: number[][] = [];
      let accuracy = 0;
      for (let k = 0; k < K; k++) {
        const row = Array.from(confusion.subarray(j * K * K + k * K, j * K * K + (k + 1) * K));
        matrix.push(row);
        accuracy += priors[k]! * row[k]!;
      }
      return { rater, accuracy, confusion: matrix, answers: answers[j]! };
    }),
    iterations,
    converged,
    logLikelihood,
  };
}

/** Majority vote per item (ties toward the first class in sorted order), for comparison. */
export function majorityVote(annotations: readonly Annotation[]): Map<RatingKey, RatingValue> {
  const counts = new Map<RatingKey, Map<RatingValue, number>>();
  for (const a of annotations) {
    let c = counts.get(a.item);
    if (!c) counts.set(a.item, (c = new Map()));
    c.set(a.label, (c.get(a.label) ?? 0) + 1);
  }
  const out = new Map<RatingKey, RatingValue>();
  for (const [item, c] of counts) {
    let best: RatingValue | undefined;
    let bestCount = -1;
    for (const [label, count] of c) {
      if (count > bestCount || (count === bestCount && compareValues(label, best!) < 0)) {
        best = label;
        bestCount = count;
      }
    }
    out.set(item, best!);
  }
  return out;
}
