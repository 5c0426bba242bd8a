import { bootstrap } from '../stats/bootstrap';
import { kappaFromTable } from '../stats/cohen-kappa';

/**
 * Agreement figures for the environment table, computed from counts the database aggregates.
 *
 * Reviewer agreement: Krippendorff's alpha (nominal) on the pass/fail verdicts of items with at
 * least two verdicts, from per-item counts (p_u passes, f_u fails, m_u = p_u + f_u):
 *   alpha = 1 - (n - 1) * sum_u (2 p_u f_u / (m_u - 1)) / (2 n_p n_f)
 * with n = sum m_u over those items. Equal to lib/stats/krippendorff-alpha on the same data.
 *
 * Verifier vs reviewers: Cohen's kappa on the 2 x 2 table of trajectories (verifier pass/fail
 * x reviewers' majority pass/fail; majority ties are left out).
 *
 * Both with a 95% percentile bootstrap over their units (items / trajectories), seeded.
 */
export interface AgreementEstimate {
  value: number | null;
  ci: [number, number] | null;
  /** units that entered the coefficient */
  n: number;
}

export interface VerdictCounts {
  passes: number;
  fails: number;
  /** how many units have exactly these counts */
  units: number;
}

const REPLICATES = 1000;

function alphaOf(groups: readonly VerdictCounts[], weights: ArrayLike<number>): number {
  let n = 0;
  let np = 0;
  let nf = 0;
  let disagree = 0;
  groups.forEach((g, i) => {
    const w = weights[i]!;
    const m = g.passes + g.fails;
    n += w * m;
    np += w * g.passes;
    nf += w * g.fails;
    disagree += (w * (2 * g.passes * g.fails)) / (m - 1);
  });
  if (np === 0 || nf === 0) return Number.NaN;
  return 1 - ((n - 1) * disagree) / (2 * np * nf);
}

export function binaryAlpha(counts: readonly VerdictCounts[]): AgreementEstimate {
  const groups = counts.filter((g) => g.passes + g.fails >= 2 && g.units > 0);
  const groupOf = expand(groups.map((g) => g.units));
  if (groupOf.length === 0) return { value: null, ci: null, n: 0 };
  const statistic = (w: Float64Array) => alphaOf(groups, w);
  const value = alphaOf(
    groups,
    groups.map((g) => g.units),
  );
  const boot = bootstrap({ groupOf, nGroups: groups.length, statistic }, { replicates: REPLICATES, seed: 7 });
  return { value: Number.isNaN(value) ? null : value, ci: Number.isNaN(value) ? null : boot.ci, n: groupOf.length };
}

export interface TwoByTwo {
  /** verifier pass, reviewers pass */
  pp: number;
  /** verifier pass, reviewers fail */
  pf: number;
  /** verifier fail, reviewers pass */
  fp: number;
  /** verifier fail, reviewers fail */
  ff: number;
}

const IDENTITY = [1, 0, 0, 1];

export function verifierKappa(t: TwoByTwo): AgreementEstimate {
  const cells = [t.pp, t.pf, t.fp, t.ff];
  const groupOf = expand(cells);
  if (groupOf.length === 0) return { value: null, ci: null, n: 0 };
  const statistic = (w: Float64Array) => kappaFromTable(w, 2, IDENTITY);
  const value = statistic(Float64Array.from(cells));
  const boot = bootstrap({ groupOf, nGroups: 4, statistic }, { replicates: REPLICATES, seed: 11 });
  return { value: Number.isNaN(value) ? null : value, ci: Number.isNaN(value) ? null : boot.ci, n: groupOf.length };
}

function expand(sizes: readonly number[]): Int32Array {
  const total = sizes.reduce((a, b) => a + b, 0);
  const out = new Int32Array(total);
  let k = 0;
  sizes.forEach((s, g) => {
    for (let i = 0; i < s; i++) out[k++] = g;
  });
  return out;
}

