/**
 * A predictor combined from several scores (the judge's and the verifier's), fitted on the
 * reviewed items by cross-fitting so that no item's prediction comes from a fit that saw its
 * label (cross-prediction-powered inference, Zrnic & Candès 2024, PNAS):
 * - the labelled items are split into K folds (item i in fold i mod K of the labelled, in input
 *   order); fold k's items get the prediction of the model fitted on the other K - 1 folds;
 * - unlabelled items get the average of the K fold models' predictions.
 * The model is logistic regression of the label on [1, scores...] (labels in [0, 1]: a tie's
 * 0.5 is a half-success), fitted by Newton's method with a small ridge penalty (1e-4 per
 * labelled item, intercept unpenalised) so that separable folds stay finite. A missing score is
 * replaced by that column's mean over the fitting items plus a "missing" indicator column.
 *
 * The result feeds estimatePpiMean as the `prediction` of every item; PPI stays valid for any
 * predictor, and the cross-fit keeps the fitted one from flattering itself on its own labels.
 */
export interface CombinedItem {
  /** the scores, same length for every item; null where an item lacks one */
  scores: readonly (number | null)[];
  label?: number | null;
}

export interface CombinedPredictor {
  /** one prediction in (0, 1) per item, cross-fitted */
  predictions: Float64Array;
  /** the model fitted on all labelled items: [intercept, score coefficients..., missing indicators...] (for display) */
  coefficients: number[];
  folds: number;
}

const RIDGE = 1e-4;

/** Null when there are too few labels to fit (fewer than 10 per parameter in a fold's training set, or one class only). */
export function fitCombinedPredictor(items: readonly CombinedItem[], options: { folds?: number } = {}): CombinedPredictor | null {
  const folds = options.folds ?? 5;
  if (!(Number.isInteger(folds) && folds >= 2)) throw new RangeError(`folds must be an integer >= 2; got ${folds}`);
  if (items.length === 0) return null;
  const k = items[0]!.scores.length;
  items.forEach((it, i) => {
    if (it.scores.length !== k) throw new RangeError(`item ${i}: expected ${k} scores, got ${it.scores.length}`);
    it.scores.forEach((s, j) => {
      if (s !== null && !Number.isFinite(s)) throw new RangeError(`item ${i}: score ${j} must be a finite number or null; got ${s}`);
    });
    const y = it.label;
    if (y !== undefined && y !== null && !(y >= 0 && y <= 1)) throw new RangeError(`item ${i}: label must be in [0, 1]; got ${y}`);
  });
  const hasMissing = Array.from({ length: k }, (_, j) => items.some((it) => it.scores[j] === null));
  const labelled = items.flatMap((it, i) => (it.label === undefined || it.label === null ? [] : [i]));
  const params = 1 + k + hasMissing.filter(Boolean).length;
  const perFold = Math.floor((labelled.length * (folds - 1)) / folds);
  if (perFold < 10 * params) return null;
  const ys = labelled.map((i) => items[i]!.label!);
  if (ys.every((y) => y === ys[0])) return null;

  const design = (means: number[]) => (i: number) => {
    const x = [1];
    const s = items[i]!.scores;
    for (let j = 0; j < k; j++) x.push(s[j] ?? means[j]!);
    for (let j = 0; j < k; j++) if (hasMissing[j]) x.push(s[j] === null ? 1 : 0);
    return x;
  };
  const fit = (rows: number[]) => {
    const means = Array.from({ length: k }, (_, j) => {
      const present = rows.map((i) => items[i]!.scores[j]).filter((s): s is number => s !== null);
      return present.length ? present.reduce((a, b) => a + b, 0) / present.length : 0;
    });
    const row = design(means);
    const X = rows.map(row);
    const Y = rows.map((i) => items[i]!.label!);
    return { beta: logistic(X, Y), row };
  };

  const predictions = new Float64Array(items.length);
  const foldOf = new Map<number, number>();
  labelled.forEach((i, r) => foldOf.set(i, r % folds));
  const models = Array.from({ length: folds }, (_, f) => fit(labelled.filter((i) => foldOf.get(i) !== f)));
  for (let i = 0; i < items.length; i++) {
    const f = foldOf.get(i);
    if (f !== undefined) predictions[i] = predict(models[f]!, i);
    else predictions[i] = models.reduce((acc, m) => acc + predict(m, i), 0) / folds;
  }
  return { predictions, coefficients: fit(labelled).beta, folds };
}

function predict(model: { beta: number[]; row: (i: number) => number[] }, i: number): number {
  const x = model.row(i);
  let eta = 0;
  for (let j = 0; j < x.length; j++) eta += model.beta[j]! * x[j]!;
  return 1 / (1 + Math.exp(-eta));
}

/** Ridge-penalised logistic regression by Newton's method (labels in [0, 1]). */
export function logistic(X: number[][], Y: number[], iterations = 50): number[] {
  const m = X.length;
  const p = X[0]!.length;
  const beta = new Array<number>(p).fill(0);
  const penalty = RIDGE * m;
  for (let it = 0; it < iterations; it++) {
    const grad = new Array<number>(p).fill(0);
    const hess = Array.from({ length: p }, () => new Array<number>(p).fill(0));
    for (let r = 0; r < m; r++) {
      const x = X[r]!;
      let eta = 0;
      for (let j = 0; j < p; j++) eta += beta[j]! * x[j]!;
      const mu = 1 / (1 + Math.exp(-eta));
      const w = mu * (1 - mu);
      for (let j = 0; j < p; j++) {
        grad[j]! += (Y[r]! - mu) * x[j]!;
        for (let l = 0; l < p; l++) hess[j]![l]! += w * x[j]! * x[l]!;
      }
    }
    for (let j = 1; j < p; j++) {
      grad[j]! -= penalty * beta[j]!;
      hess[j]![j]! += penalty;
    }
    hess[0]![0]! += 1e-12;
    const step = solve(hess, grad);
    let change = 0;
    for (let j = 0; j < p; j++) {
      beta[j]! += step[j]!;
      change = Math.max(change, Math.abs(step[j]!));
    }
    if (change < 1e-10) break;
  }
  return beta;
}

/** Solves A x = b for a small symmetric positive-definite A (Gaussian elimination, partial pivoting). */
function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[pivot]![c]!)) pivot = r;
    [M[c], M[pivot]] = [M[pivot]!, M[c]!];
    const d = M[c]![c]!;
    if (d === 0) throw new RangeError('logistic: singular design (a score is constant or duplicates another)');
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const factor = M[r]![c]! / d;
      for (let j = c; j <= n; j++) M[r]![j]! -= factor * M[c]![j]!;
    }
  }
  return M.map((row, i) => row[n]! / row[i]!);
}
