import type { CriterionRow, OutcomeRow, PolicyRow, PolicyStatsRow } from './queries/insight-policies';
import { checkpointGroups, checkpointSeries, type CheckpointOf } from './checkpoints';
import { excludes, meanInterval, newcombeDifference, wilson, type MeanEstimate, type Proportion } from './intervals';
import { leaderboard } from './leaderboard';
import { moreNeeded, perGroupNeeded } from './power';
import { winRate, type WinRate } from './win-rate';
import { figureColumns, r4 } from './figure-columns';

/** One policy's row: Bradley-Terry rating (pairwise) and rubric/verifier figures, each with n and CI. */
export interface PolicyFigures {
  id: string;
  name: string;
  /** the other names of the same checkpoint, merged into this row (checkpointGroups) */
  aliases: string[];
  rank: number | null;
  rating: number | null;
  ratingCi: [number, number] | null;
  battles: number;
  rubricScore: MeanEstimate;
  verifierPass: Proportion;
  reviewerPass: Proportion;
  trajectories: number;
}

export interface PolicyReport {
  policies: PolicyFigures[];
  nComparisons: number;
  bootstrapRounds: number;
  priorUsed: boolean;
  trends: { family: string; points: (PolicyFigures & CheckpointOf)[] }[];
}

const STAT_FIELDS = [
  'trajectories',
  'scored',
  'verifierPasses',
  'humanPass',
  'humanJudged',
  'likertN',
  'likertSum',
  'likertSumSquares',
] as const;

/**
 * The leaderboard. Policies that are one checkpoint under several names (checkpointGroups:
 * `acme-coder-7b@ckpt-2000` and `acme/coder-7b@ckpt-2000 / generate`) are one row, named by the
 * group, the others its aliases: their counts summed, their comparisons one player's (a
 * comparison between two of them is left out: a checkpoint against itself).
 */
export function policyReport(
  allPolicies: readonly PolicyRow[],
  outcomes: readonly OutcomeRow[],
  allStats: readonly PolicyStatsRow[],
): PolicyReport {
  const groups = checkpointGroups(allPolicies);
  const groupName = new Map(groups.flatMap((g) => g.members.map((m) => [m.id, g.name] as const)));
  const aliasesOf = new Map(groups.map((g) => [g.name, g.members.map((m) => m.name).filter((n) => n !== g.name)]));
  const policies = groups.map((g) => g.members.find((m) => m.name === g.name)!);
  const stats = groups.map((g): PolicyStatsRow => {
    const rows = allStats.filter((x) => g.members.some((m) => m.id === x.policyId));
    const sum = Object.fromEntries(STAT_FIELDS.map((f) => [f, rows.reduce((acc, r) => acc + Number(r[f]), 0)])) as Record<
      (typeof STAT_FIELDS)[number],
      number
    >;
    return { policyId: policies.find((p) => p.name === g.name)!.id, ...sum };
  });
  const nameOf = (id: string) => groupName.get(id) ?? id;
  const bt = leaderboard(
    outcomes.map((o) => ({ ...o, policyA: nameOf(o.policyA), policyB: nameOf(o.policyB) })).filter((o) => o.policyA !== o.policyB),
  );
  const ratingOf = new Map(bt.ratings.map((r, i) => [r.model, { ...r, rank: i + 1 }]));
  const figures = policies
    .map((p): PolicyFigures => {
      const s = stats.find((x) => x.policyId === p.id);
      const r = ratingOf.get(p.name);
      return {
        id: p.id,
        name: p.name,
        aliases: aliasesOf.get(p.name) ?? [],
        rank: r?.rank ?? null,
        rating: r?.rating ?? null,
        ratingCi: r?.ci ?? null,
        battles: r?.battles ?? 0,
        rubricScore: meanInterval(s?.likertN ?? 0, s?.likertSum ?? 0, s?.likertSumSquares ?? 0),
        verifierPass: wilson(s?.verifierPasses ?? 0, s?.scored ?? 0),
        reviewerPass: wilson(s?.humanPass ?? 0, s?.humanJudged ?? 0),
        trajectories: s?.trajectories ?? 0,
      };
    })
    .filter((f) => f.trajectories > 0 || f.battles > 0)
    .sort(
      (a, b) =>
        (a.rank ?? Infinity) - (b.rank ?? Infinity) ||
        (b.rubricScore.mean ?? -1) - (a.rubricScore.mean ?? -1) ||
        (a.name < b.name ? -1 : 1),
    );
  const byId = new Map(figures.map((f) => [f.id, f]));
  const trends = checkpointSeries(policies.filter((p) => byId.has(p.id))).map((s) => ({
    family: s.family,
    points: s.points.map((p) => ({ ...byId.get(p.id)!, family: p.family, checkpoint: p.checkpoint, step: p.step })),
  }));
  return { policies: figures, nComparisons: bt.nBattles, bootstrapRounds: bt.bootstrapRounds, priorUsed: bt.priorUsed, trends };
}

export function policyTableRows(report: PolicyReport) {
  return report.policies.map((p) => ({
    rank: p.rank,
    policy: p.name,
    btRating: p.rating === null ? null : Math.round(p.rating * 10) / 10,
    btLow: p.ratingCi ? Math.round(p.ratingCi[0] * 10) / 10 : null,
    btHigh: p.ratingCi ? Math.round(p.ratingCi[1] * 10) / 10 : null,
    comparisons: p.battles,
    ...figureColumns('rubric', p.rubricScore.mean, p.rubricScore, 'Score'),
    ...figureColumns('verifierPass', p.verifierPass.rate, p.verifierPass),
    ...figureColumns('reviewerPass', p.reviewerPass.rate, p.reviewerPass),
    // the names before 0.2 (one naming now: <measure>Rate/Low/High/N, as the environments table), kept one version for scripts
    verifierLow: r4(p.verifierPass.ci?.[0]),
    verifierHigh: r4(p.verifierPass.ci?.[1]),
    verifierN: p.verifierPass.n,
    reviewerLow: r4(p.reviewerPass.ci?.[0]),
    reviewerHigh: r4(p.reviewerPass.ci?.[1]),
    reviewerN: p.reviewerPass.n,
  }));
}

// ------------------------------------------------------------------ canary comparison

export interface RateSideBySide {
  label: string;
  a: Proportion;
  b: Proportion;
  /** B - A with Newcombe's 95% interval */
  difference: { difference: number; ci: [number, number] } | null;
  distinguishable: boolean;
  /** per policy, for a two-sided test (alpha 0.05, power 0.8) at the observed rates */
  neededPerPolicy: number | null;
  /** more per policy beyond the smaller of the two samples */
  morePerPolicy: number | null;
}

export interface CompareReport {
  a: PolicyRow;
  b: PolicyRow;
  winRate: WinRate;
  rows: RateSideBySide[];
}

export function sideBySide(label: string, a: Proportion, b: Proportion): RateSideBySide {
  const difference = newcombeDifference(a, b);
  const needed = a.rate !== null && b.rate !== null ? perGroupNeeded(a.rate, b.rate) : null;
  return {
    label,
    a,
    b,
    difference,
    distinguishable: excludes(difference?.ci ?? null, 0),
    neededPerPolicy: needed,
    morePerPolicy: moreNeeded(needed, Math.min(a.n, b.n)),
  };
}

export function compareReport(
  a: PolicyRow,
  b: PolicyRow,
  outcomes: readonly OutcomeRow[],
  stats: readonly PolicyStatsRow[],
  criteria: readonly CriterionRow[],
): CompareReport {
  const tally = { bWins: 0, aWins: 0, ties: 0 };
  for (const o of outcomes) {
    const bIsItemB = o.policyA === a.id && o.policyB === b.id;
    const bIsItemA = o.policyA === b.id && o.policyB === a.id;
    if (!bIsItemB && !bIsItemA) continue;
    if (o.outcome === 'tie') tally.ties += o.count;
    else if ((o.outcome === 'b') === bIsItemB) tally.bWins += o.count;
    else tally.aWins += o.count;
  }
  const sa = stats.find((s) => s.policyId === a.id);
  const sb = stats.find((s) => s.policyId === b.id);
  const rows: RateSideBySide[] = [
    sideBySide(
      'Verifier pass (reward ≥ 1)',
      wilson(sa?.verifierPasses ?? 0, sa?.scored ?? 0),
      wilson(sb?.verifierPasses ?? 0, sb?.scored ?? 0),
    ),
    sideBySide(
      'Reviewers pass (all criteria)',
      wilson(sa?.humanPass ?? 0, sa?.humanJudged ?? 0),
      wilson(sb?.humanPass ?? 0, sb?.humanJudged ?? 0),
    ),
  ];
  const keys = [...new Set(criteria.map((c) => c.key))].sort();
  for (const key of keys) {
    const ca = criteria.find((c) => c.key === key && c.policyId === a.id);
    const cb = criteria.find((c) => c.key === key && c.policyId === b.id);
    rows.push(sideBySide(`Criterion: ${key}`, wilson(ca?.passes ?? 0, ca?.judged ?? 0), wilson(cb?.passes ?? 0, cb?.judged ?? 0)));
  }
  return { a, b, winRate: winRate(tally), rows };
}

export function compareTableRows(report: CompareReport) {
  return [
    {
      measure: `Win rate of ${report.b.name} over ${report.a.name} (ties half)`,
      a: null,
      aLow: null,
      aHigh: null,
      aN: null,
      b: r4(report.winRate.rate),
      bLow: r4(report.winRate.ci?.[0]),
      bHigh: r4(report.winRate.ci?.[1]),
      bN: report.winRate.n,
      difference: report.winRate.rate === null ? null : r4(report.winRate.rate - 0.5),
      differenceLow: report.winRate.ci ? r4(report.winRate.ci[0] - 0.5) : null,
      differenceHigh: report.winRate.ci ? r4(report.winRate.ci[1] - 0.5) : null,
      distinguishable: report.winRate.distinguishable,
      needed: report.winRate.needed,
      more: report.winRate.more,
    },
    ...report.rows.map((r) => ({
      measure: r.label,
      a: r4(r.a.rate),
      aLow: r4(r.a.ci?.[0]),
      aHigh: r4(r.a.ci?.[1]),
      aN: r.a.n,
      b: r4(r.b.rate),
      bLow: r4(r.b.ci?.[0]),
      bHigh: r4(r.b.ci?.[1]),
      bN: r.b.n,
      difference: r4(r.difference?.difference),
      differenceLow: r4(r.difference?.ci[0]),
      differenceHigh: r4(r.difference?.ci[1]),
      distinguishable: r.distinguishable,
      needed: r.neededPerPolicy,
      more: r.morePerPolicy,
    })),
  ];
}
