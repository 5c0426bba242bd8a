/**
 * Agreement weights for weighted coefficients (Cohen's weighted kappa, Gwet's AC2):
 * w_kl = 1 on the diagonal, falling with the distance between category positions x_k, x_l:
 * linear 1 - |x_k - x_l| / (max - min), quadratic 1 - (x_k - x_l)^2 / (max - min)^2;
 * `none` is the identity (exact agreement only).
 */
export type WeightScheme = 'none' | 'linear' | 'quadratic';
export const weightSchemes: readonly WeightScheme[] = ['none', 'linear', 'quadratic'];

/** K x K row-major agreement weights for categories at `positions` (ascending). */
export function agreementWeights(positions: ArrayLike<number>, scheme: WeightScheme): Float64Array {
  const K = positions.length;
  const w = new Float64Array(K * K);
  const range = K > 0 ? positions[K - 1]! - positions[0]! : 0;
  for (let k = 0; k < K; k++) {
    for (let l = 0; l < K; l++) {
      if (k === l || scheme === 'none' || range === 0) {
        w[k * K + l] = k === l ? 1 : 0;
        continue;
      }
      const d = Math.abs(positions[k]! - positions[l]!) / range;
      w[k * K + l] = scheme === 'linear' ? 1 - d : 1 - d * d;
    }
  }
  return w;
}

/** Positions 0, 1, ..., K-1 (the rank convention of R's irr and scikit-learn). */
export function rankPositions(K: number): Float64Array {
  const x = new Float64Array(K);
  for (let k = 0; k < K; k++) x[k] = k;
  return x;
}
