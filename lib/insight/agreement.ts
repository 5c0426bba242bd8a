import { kappaFromTable } from '../stats/cohen-kappa';
import { groupBootstrap } from '../stats/multinomial';

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
 * Both with a 95% percentile bootstrap over their units (items / trajectories), seeded; units
 * are resampled by group (lib/insight/multinomial.ts), so 1,000,000 units cost no more than 100.
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
  const sizes = groups.map((g) => g.units);
  const n = sizes.reduce((a, b) => a + b, 0);
  if (n === 0) return { value: null, ci: null, n: 0 };
  const statistic = (w: Float64Array) => alphaOf(groups, w);
  const value = alphaOf(groups, sizes);
  if (Number.isNaN(value)) return { value: null, ci: null, n };
  return { value, ci: groupBootstrap(sizes, statistic, REPLICATES, 7), n };
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
  const n = cells.reduce((a, b) => a + b, 0);
  if (n === 0) return { value: null, ci: null, n: 0 };
  const statistic = (w: Float64Array) => kappaFromTable(w, 2, IDENTITY);
  const value = statistic(Float64Array.from(cells));
  if (Number.isNaN(value)) return { value: null, ci: null, n };
  return { value, ci: groupBootstrap(cells, statistic, REPLICATES, 11), n };
}
