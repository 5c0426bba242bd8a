import type { EstimateFigure } from '../estimates';
import { VERIFIER_PASS_THRESHOLD } from '../review-verdict';
import type { PpiMoments } from '../../stats/ppi';
import { sql } from '../../db/sql';
import { frameCtes, storedCampCte } from './insight-estimate-rows';
import { refreshQueuedInsight } from './insight-refresh';

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
  source: MomentSource = 'stored',
): Promise<GroupMoments[]> {
  await refreshQueuedInsight(); // what submits queued, before reading the summaries (lib/insight/queries/insight-refresh.ts)
  const { text, params } = groupMomentsSql(projectId, by, environmentId, source);
  const rows = await sql<MomentSqlRow>(text, params);
  return collect(rows);
}

/**
 * Where the rows come from: 'stored', the frame's per-combination counts kept by the write path's
 * triggers (insight_frame_stat, migration 20261202050510_insight_group_stats: every filter the pages
 * use, by environment and by policy within an environment, reads them); 'live', the frame built
 * from the sources (campaign items, trajectories, summaries, judge scores), which the stored rows
 * must equal (insight-estimates.db.test.ts, insight-group-stats.db.test.ts).
 */
export type MomentSource = 'stored' | 'live';

/** The statement (exported for EXPLAIN ANALYZE). */
export function groupMomentsSql(
  projectId: string,
  by: 'environment' | 'policy',
  environmentId: string | null,
  source: MomentSource = 'stored',
) {
  const params: unknown[] = [projectId];
  const threshold = source === 'live' ? `$${params.push(VERIFIER_PASS_THRESHOLD)}` : '';
  const inEnvironment = environmentId ? `$${params.push(environmentId)}` : null;
  const labelled = 'FILTER (WHERE x.y IS NOT NULL)';
  // Each row's group, probability, prediction, labels and count (`r`); then one row per distinct
  // combination with its count (`d`: at bench scale a few dozen rows per group instead of 100k),
  // and the sums over those, each term times its count.
  if (source === 'stored' && VERIFIER_PASS_THRESHOLD !== 1)
    throw new Error(
      `insight_frame_stat holds predictions for VERIFIER_PASS_THRESHOLD = 1, not ${VERIFIER_PASS_THRESHOLD}: a new migration must recompute them`,
    );
  const rows = source === 'live' ? liveRows(by, threshold, inEnvironment) : storedRows(by, inEnvironment);
  const text = `
    WITH ${rows}, d AS (
      SELECT g, picked, p, 1 / p AS w, f, judged, pass, hacking, leakage, sum(c)::float8 AS c
      FROM r GROUP BY g, picked, p, f, judged, pass, hacking, leakage
    )
    SELECT d.g, x.figure, d.f IS NOT NULL AS scored,
           sum(d.c)::int AS "N", sum(d.c * d.f) AS "sumF", sum(d.c * d.f * d.f) AS "sumFF",
           coalesce(sum(d.c) ${labelled}, 0)::int AS n,
           sum(d.c * d.w) ${labelled} AS "sumW", sum(d.c * d.w * d.w) ${labelled} AS "sumW2",
           sum(d.c * d.w * x.y) AS "sumWY", sum(d.c * d.w * d.f) ${labelled} AS "sumWF",
           sum(d.c * d.w * x.y * x.y) AS "sumWYY", sum(d.c * d.w * x.y * d.f) AS "sumWYF", sum(d.c * d.w * d.f * d.f) ${labelled} AS "sumWFF",
           sum(d.c * d.w * d.w * x.y) AS "sumW2Y", sum(d.c * d.w * d.w * d.f) ${labelled} AS "sumW2F",
           sum(d.c * d.w * d.w * x.y * x.y) AS "sumW2YY", sum(d.c * d.w * d.w * x.y * d.f) AS "sumW2YF",
           sum(d.c * d.w * d.w * d.f * d.f) ${labelled} AS "sumW2FF",
           bool_or(d.picked) AS picked, bool_or(d.judged) AS judged, min(d.p) AS "pMin", max(d.p) AS "pMax"
    FROM d
    CROSS JOIN LATERAL (VALUES ('reviewerPass', d.pass), ('rewardHacking', d.hacking), ('answerLeakage', d.leakage)) AS x(figure, y)
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3`;
  return { text, params };
}

/** The live frame's rows (CTEs ending in `r`), one per trajectory. */
function liveRows(by: 'environment' | 'policy', threshold: string, inEnvironment: string | null): string {
  const groupCol = by === 'environment' ? 't."environmentId"' : 'tr."policyId"';
  return `${frameCtes('')}, judged AS (
      -- the project's trajectories an LLM judge scored, once (an EXISTS per row cost 1.5 s of CPU at bench scale)
      SELECT DISTINCT j."trajectoryId" AS id FROM judge_score j JOIN trajectory jt ON jt.id = j."trajectoryId" WHERE jt."projectId" = $1
    ), r AS (
      SELECT ${groupCol} AS g, f.picked, f.probability::float8 AS p,
             -- (LEAST and GREATEST skip a NULL: an unscored row keeps f NULL by the CASE)
             CASE WHEN tr."verifierReward" IS NOT NULL THEN LEAST(1::float8, GREATEST(0::float8, tr."verifierReward" / ${threshold}::float8)) END AS f,
             js.id IS NOT NULL AS judged,
             CASE WHEN ti."passVotes" > ti."failVotes" THEN 1::float8 WHEN ti."passVotes" < ti."failVotes" THEN 0::float8 END AS pass,
             CASE WHEN coalesce(ti.reviews, 0) = 0 THEN NULL WHEN ti."rewardHacking" THEN 1::float8 ELSE 0::float8 END AS hacking,
             CASE WHEN coalesce(ti.reviews, 0) = 0 THEN NULL WHEN ti."answerLeakage" THEN 1::float8 ELSE 0::float8 END AS leakage,
             1 AS c
      FROM frame f
      JOIN trajectory tr ON tr.id = f.id
      JOIN task t ON t.id = tr."taskId"
      LEFT JOIN trajectory_insight ti ON ti."trajectoryId" = f.id
      LEFT JOIN judged js ON js.id = f.id
      WHERE ${groupCol} IS NOT NULL ${inEnvironment ? `AND t."environmentId" = ${inEnvironment}` : ''}
    )`;
}

/**
 * The same rows from the stored counts: the campaigns' selected and reviewed counts
 * (insight_campaign_stat: frameCtes' camp), each count's probability as the frame computes a one-campaign item's,
 * and the items of trajectories in more than one single-mode campaign (`shared`: their
 * probability combines their campaigns') read one by one from insight_frame_item and combined
 * as frameCtes does. The prediction was stored with VERIFIER_PASS_THRESHOLD = 1 (the migration's
 * literal; the db tests compare it with the live rows, which divide by it).
 */
function storedRows(by: 'environment' | 'policy', inEnvironment: string | null): string {
  const groupCol = by === 'environment' ? '"environmentId"' : '"policyId"';
  const where = (a: string) => `${a}.${groupCol} IS NOT NULL ${inEnvironment ? `AND ${a}."environmentId" = ${inEnvironment}` : ''}`;
  return `${storedCampCte('')}, solo AS (
      SELECT s.${groupCol} AS g, s.picked, LEAST(1.0, s.probability * c.reviewed::float8 / c.selected::float8) AS p,
             s.prediction AS f, s.judged, s.pass, s.hacking, s.leakage, sum(s.count) AS c
      FROM insight_frame_stat s JOIN camp c ON c.id = s."campaignId"
      WHERE s."projectId" = $1 AND NOT s.shared AND ${where('s')}
      -- a combination's count is the sum over its shards (one shard alone may be negative)
      GROUP BY s."campaignId", c.reviewed, c.selected, s.${groupCol}, s.picked, s.probability, s.prediction, s.judged, s.pass, s.hacking, s.leakage
      HAVING sum(s.count) > 0
    ), shared AS (
      SELECT i."trajectoryId", i.${groupCol} AS g, i.picked, LEAST(1.0, i.probability * c.reviewed::float8 / c.selected::float8) AS p,
             i.prediction AS f, i.judged, i.pass, i.hacking, i.leakage
      FROM insight_frame_item i JOIN camp c ON c.id = i."campaignId"
      WHERE i."projectId" = $1 AND i.shared AND ${where('i')}
    ), r AS (
      SELECT g, picked, (CASE WHEN p >= 1 THEN 1.0 ELSE 1 - exp(ln(1 - p)) END)::float8 AS p, f, judged, pass, hacking, leakage, c FROM solo
      UNION ALL
      SELECT g, bool_or(picked), (CASE WHEN bool_or(p >= 1) THEN 1.0 ELSE 1 - exp(coalesce(sum(ln(1 - p)) FILTER (WHERE p < 1), 0)) END)::float8,
             f, judged, pass, hacking, leakage, 1
      FROM shared GROUP BY "trajectoryId", g, f, judged, pass, hacking, leakage
    )`;
}

function collect(rows: MomentSqlRow[]): GroupMoments[] {
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
