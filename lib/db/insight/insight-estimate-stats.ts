import type { EstimateFigure } from '../../insight/estimates';
import { VERIFIER_PASS_THRESHOLD } from '../../insight/review-verdict';
import type { PpiMoments } from '../../stats/ppi';
import { sql } from '../infra/sql';
import { frameCtes } from './insight-estimate-rows';

/**
 * The prediction-powered figures' sufficient statistics per group, summed in Postgres over the
 * sampling frame that estimateRows reads row by row (insight-estimate-rows.ts): at bench scale
 * 100k rows stay in the database and the page gets a few dozen sums (lib/stats/ppi.ts
 * PpiMoments; lib/insight/estimates.ts groupEstimatesFromMoments turns them into the figures).
 *
 * Per (group, figure), the items in two blocks: those with a verifier reward (prediction
 * f = reward / VERIFIER_PASS_THRESHOLD clipped to [0, 1], as sourceScores computes it) and those
 * without (their sums with f left out: the caller puts in the fill, the scored block's mean).
 * The label y of each figure is figureLabel's rule (reviewer pass: the majority verdict, a tie
 * unlabelled; the flags: a current review flags it, unreviewed unlabelled); w = 1 / probability.
 *
 * Per group, besides: whether any item is of a hand-picked campaign (`picked`), whether any was
 * scored by an LLM judge (`judged`: then the predictor may be a judge or the cross-fitted
 * combination, which needs the rows; the caller reads that group's rows), and whether every item
 * had the same probability (`uniform`).
 */
export interface GroupMoments {
  groupId: string;
  picked: boolean;
  judged: boolean;
  uniform: boolean;
  /** per figure: the scored and the unscored block (null when the group has none of them) */
  figures: Map<EstimateFigure, { scored: PpiMoments | null; unscored: PpiMoments | null }>;
}

interface MomentSqlRow {
  g: string;
  figure: EstimateFigure;
  scored: boolean;
  N: number;
  sumF: number | null;
  sumFF: number | null;
  n: number;
  sumW: number | null;
  sumW2: number | null;
  sumWY: number | null;
  sumWF: number | null;
  sumWYY: number | null;
  sumWYF: number | null;
  sumWFF: number | null;
  sumW2Y: number | null;
  sumW2F: number | null;
  sumW2YY: number | null;
  sumW2YF: number | null;
  sumW2FF: number | null;
  picked: boolean;
  judged: boolean;
  pMin: number;
  pMax: number;
}

const SUMS = ['sumF', 'sumFF', 'sumW', 'sumW2', 'sumWY', 'sumWF', 'sumWYY', 'sumWYF', 'sumWFF'] as const;
const SUMS2 = ['sumW2Y', 'sumW2F', 'sumW2YY', 'sumW2YF', 'sumW2FF'] as const;

/**
 * The sums per environment (`by: 'environment'`) or per policy (`by: 'policy'`, within
 * `environmentId` when given). Groups with no item in the frame are absent.
 */
export async function estimateGroupMoments(
  projectId: string,
  by: 'environment' | 'policy',
  environmentId: string | null = null,
): Promise<GroupMoments[]> {
  const params: unknown[] = [projectId, VERIFIER_PASS_THRESHOLD];
  const groupCol = by === 'environment' ? 't."environmentId"' : 'tr."policyId"';
  const inEnvironment = environmentId ? `AND t."environmentId" = $${params.push(environmentId)}` : '';
  const labelled = 'FILTER (WHERE x.y IS NOT NULL)';
  const rows = await sql<MomentSqlRow>(
    `
    WITH ${frameCtes('')}, r AS (
      SELECT ${groupCol} AS g, f.picked, f.probability::float8 AS p, 1 / f.probability::float8 AS w,
             -- (LEAST and GREATEST skip a NULL: an unscored row keeps f NULL by the CASE)
             CASE WHEN tr."verifierReward" IS NOT NULL THEN LEAST(1::float8, GREATEST(0::float8, tr."verifierReward" / $2::float8)) END AS f,
             EXISTS (SELECT 1 FROM judge_score j WHERE j."trajectoryId" = f.id) AS judged,
             CASE WHEN ti."passVotes" > ti."failVotes" THEN 1::float8 WHEN ti."passVotes" < ti."failVotes" THEN 0::float8 END AS pass,
             CASE WHEN coalesce(ti.reviews, 0) = 0 THEN NULL WHEN ti."rewardHacking" THEN 1::float8 ELSE 0::float8 END AS hacking,
             CASE WHEN coalesce(ti.reviews, 0) = 0 THEN NULL WHEN ti."answerLeakage" THEN 1::float8 ELSE 0::float8 END AS leakage
      FROM frame f
      JOIN trajectory tr ON tr.id = f.id
      JOIN task t ON t.id = tr."taskId"
      LEFT JOIN trajectory_insight ti ON ti."trajectoryId" = f.id
      WHERE ${groupCol} IS NOT NULL ${inEnvironment}
    )
    SELECT r.g, x.figure, r.f IS NOT NULL AS scored,
           count(*)::int AS "N", sum(r.f) AS "sumF", sum(r.f * r.f) AS "sumFF",
           count(x.y)::int AS n,
           sum(r.w) ${labelled} AS "sumW", sum(r.w * r.w) ${labelled} AS "sumW2",
           sum(r.w * x.y) AS "sumWY", sum(r.w * r.f) ${labelled} AS "sumWF",
           sum(r.w * x.y * x.y) AS "sumWYY", sum(r.w * x.y * r.f) AS "sumWYF", sum(r.w * r.f * r.f) ${labelled} AS "sumWFF",
           sum(r.w * r.w * x.y) AS "sumW2Y", sum(r.w * r.w * r.f) ${labelled} AS "sumW2F",
           sum(r.w * r.w * x.y * x.y) AS "sumW2YY", sum(r.w * r.w * x.y * r.f) AS "sumW2YF", sum(r.w * r.w * r.f * r.f) ${labelled} AS "sumW2FF",
           bool_or(r.picked) AS picked, bool_or(r.judged) AS judged, min(r.p) AS "pMin", max(r.p) AS "pMax"
    FROM r
    CROSS JOIN LATERAL (VALUES ('reviewerPass', r.pass), ('rewardHacking', r.hacking), ('answerLeakage', r.leakage)) AS x(figure, y)
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3`,
    params,
  );
  const groups = new Map<string, GroupMoments & { pMin: number; pMax: number }>();
  for (const row of rows) {
    let g = groups.get(row.g);
    if (!g) {
      g = { groupId: row.g, picked: false, judged: false, uniform: true, figures: new Map(), pMin: row.pMin, pMax: row.pMax };
      groups.set(row.g, g);
    }
    g.picked ||= row.picked;
    g.judged ||= row.judged;
    g.pMin = Math.min(g.pMin, row.pMin);
    g.pMax = Math.max(g.pMax, row.pMax);
    const m = { N: row.N, n: row.n, uniform: true } as PpiMoments;
    for (const k of [...SUMS, ...SUMS2]) m[k] = row[k] ?? 0;
    const blocks = g.figures.get(row.figure) ?? { scored: null, unscored: null };
    blocks[row.scored ? 'scored' : 'unscored'] = m;
    g.figures.set(row.figure, blocks);
  }
  return [...groups.values()].map(({ pMin, pMax, ...g }) => {
    const uniform = pMin === pMax;
    for (const blocks of g.figures.values()) for (const b of [blocks.scored, blocks.unscored]) if (b) b.uniform = uniform;
    return { ...g, uniform };
  });
}
