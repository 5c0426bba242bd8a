import { Prisma } from '@prisma/client';
import { db } from '../../db/client';
import { sql } from '../../db/sql';
import { agentJudgeScores, type AgentReviewInput } from '../agent-predictions';
import { refreshQueuedInsight } from './insight-refresh';

/**
 * The inputs of the prediction-powered estimates (lib/insight/estimates.ts): one row per
 * trajectory of the project's sampling frame, i.e. every trajectory that is an item of a
 * single-item campaign with at least one review so far (selected by the campaign's draw or not),
 * with its automated signals, its human labels (its trajectory_insight summary, as the pages
 * read them) and the probability it had of being reviewed.
 *
 * That probability combines, over the campaigns the trajectory is an item of, the recorded
 * probability of being chosen (campaign_item.probability: 1 for "review everything" and gold
 * items, the draw's for a random or active sample) with the share of the campaign's selected
 * items reviewed so far (the queue hands selected items out in a random order per reviewer,
 * lib/db/assignments.ts, so the reviewed ones are a random part of them):
 *   p = 1 - prod_c (1 - probability_c * reviewed_c / selected_c)
 * `picked` is true when one of them is a campaign of hand-picked items (not a random sample).
 *
 * Reads trajectory_insight and campaign_item once each for the project (no human review answers).
 * Agent reviewers' current reviews (agent_review: never human labels) join the LLM judges as
 * predictions, a judge `agent:<model>` each (lib/insight/agent-predictions.ts).
 */
export interface EstimateRow {
  trajectoryId: string;
  environmentId: string | null;
  policyId: string;
  verifierReward: number | null;
  judges: { judge: string; score: number | null; label: string | null }[];
  probability: number;
  picked: boolean;
  /** current single-mode reviews (0: not reviewed) */
  reviews: number;
  passVotes: number;
  failVotes: number;
  rewardHacking: boolean;
  answerLeakage: boolean;
}

export interface PickedCampaign {
  id: string;
  name: string;
}

interface EstimateSqlRow {
  id: string;
  environmentId: string | null;
  policyId: string;
  verifierReward: number | null;
  judges: EstimateRow['judges'] | null;
  probability?: number;
  picked?: boolean;
  reviews: number | null;
  passVotes: number | null;
  failVotes: number | null;
  rewardHacking: boolean | null;
  answerLeakage: boolean | null;
}

const toEstimateRow = (r: EstimateSqlRow): EstimateRow => ({
  trajectoryId: r.id,
  environmentId: r.environmentId,
  policyId: r.policyId,
  verifierReward: r.verifierReward,
  judges: r.judges ?? [],
  probability: r.probability === undefined ? 1 : Number(r.probability),
  picked: r.picked ?? false,
  reviews: r.reviews ?? 0,
  passVotes: r.passVotes ?? 0,
  failVotes: r.failVotes ?? 0,
  rewardHacking: Boolean(r.rewardHacking),
  answerLeakage: Boolean(r.answerLeakage),
});

/**
 * Each trajectory's judge scores as one JSON array, for the trajectories `$1` (an id list) names,
 * aggregated once and joined (a correlated sub-select per row ran 100k times at bench scale: 4 s
 * of the 7.6 s statement).
 */
const judgesCte = `judges AS (
  SELECT j."trajectoryId" AS id,
         jsonb_agg(jsonb_build_object('judge', j.judge, 'score', j.score, 'label', j.label) ORDER BY j.judge) AS judges
  FROM judge_score j JOIN trajectory jt ON jt.id = j."trajectoryId"
  WHERE jt."projectId" = $1
  GROUP BY j."trajectoryId"
)`;

/** The project's current agent reviews of single-item campaigns (their criteria answers): the `agent:<model>` judges. */
function agentReviewInputs(projectId: string, trajectoryIds?: string[]): Promise<AgentReviewInput[]> {
  return sql<AgentReviewInput>(
    // only the answer of the rubric's criteria question (its id read from the definition: lib/insight/trajectory-summary.ts insightKeys)
    `SELECT ci."trajectoryId", ar.model, ar.answers -> k.id AS criteria
     FROM agent_review ar
     JOIN campaign c ON c.id = ar."campaignId"
     JOIN campaign_item ci ON ci.id = ar."campaignItemId"
     JOIN rubric_version v ON v.id = ar."rubricVersionId"
     JOIN LATERAL (
       SELECT q->>'id' AS id FROM jsonb_array_elements(v.definition->'questions') q WHERE q->>'type' = 'criteria' LIMIT 1
     ) k ON true
     WHERE c."projectId" = $1 AND c.mode = 'single' AND ar."isCurrent" ${trajectoryIds ? 'AND ci."trajectoryId" = ANY($2)' : ''}`,
    trajectoryIds ? [projectId, trajectoryIds] : [projectId],
  );
}

/** Rows with their agent judges added beside the LLM judges' (in judge name order, as the judges CTE orders them). */
function withAgentJudges(rows: EstimateRow[], agents: readonly AgentReviewInput[]): EstimateRow[] {
  if (agents.length === 0) return rows;
  const scores = agentJudgeScores(agents);
  return rows.map((r) => {
    const more = scores.get(r.trajectoryId);
    return more ? { ...r, judges: [...r.judges, ...more].sort((a, b) => (a.judge < b.judge ? -1 : a.judge > b.judge ? 1 : 0)) } : r;
  });
}

/**
 * The groups (environment and policy) of the project's trajectories with a current agent review in
 * a single-item campaign: their estimates have an `agent:<model>` judge, so they are estimated from
 * their rows (lib/insight/load-insight-estimates.ts), as the groups an LLM judge scored.
 */
export function agentReviewedGroups(projectId: string): Promise<{ environmentId: string | null; policyId: string }[]> {
  return sql<{ environmentId: string | null; policyId: string }>(
    `SELECT DISTINCT t."environmentId", tr."policyId"
     FROM agent_review ar
     JOIN campaign c ON c.id = ar."campaignId"
     JOIN campaign_item ci ON ci.id = ar."campaignItemId"
     JOIN trajectory tr ON tr.id = ci."trajectoryId"
     JOIN task t ON t.id = tr."taskId"
     WHERE c."projectId" = $1 AND c.mode = 'single' AND ar."isCurrent"`,
    [projectId],
  );
}

/**
 * The sampling frame (see the file comment) as CTEs `camp`, `item`, `frame` (id, picked,
 * probability) over the single-mode campaigns of project `$1`; `only` narrows the campaigns,
 * `itemsOf` (conditions on `it` = the item's trajectory and `ik` = its task) the trajectories.
 * estimateRows and the per-group sums (insight-estimate-stats.ts) read the same frame.
 */
export function frameCtes(only: string, itemsOf = ''): string {
  return `camp AS (
        SELECT c.id, c.sampling,
               count(*) FILTER (WHERE ci.selected) AS selected,
               count(*) FILTER (WHERE ci.selected AND ci."reviewCount" > 0) AS reviewed
        FROM campaign c JOIN campaign_item ci ON ci."campaignId" = c.id
        WHERE c."projectId" = $1 AND c.mode = 'single' ${only}
        GROUP BY c.id
        HAVING count(*) FILTER (WHERE ci.selected AND ci."reviewCount" > 0) > 0
      ), item AS (
        SELECT ci."trajectoryId" AS id, c.sampling = 'picked' AS picked,
               LEAST(1.0, ci.probability * c.reviewed::float8 / c.selected::float8) AS p
        FROM campaign_item ci JOIN camp c ON c.id = ci."campaignId"
        ${itemsOf ? `JOIN trajectory it ON it.id = ci."trajectoryId" JOIN task ik ON ik.id = it."taskId" WHERE true ${itemsOf}` : ''}
      ), frame AS (
        SELECT id, bool_or(picked) AS picked,
               CASE WHEN bool_or(p >= 1) THEN 1.0 ELSE 1 - exp(coalesce(sum(ln(1 - p)) FILTER (WHERE p < 1), 0)) END AS probability
        FROM item GROUP BY id
      )`;
}

/**
 * frameCtes' `camp` from the stored per-campaign counts (insight_campaign_stat, 16 shards a
 * campaign, kept by the write path's triggers: migration 20261202050510_insight_group_stats):
 * a few rows instead of every campaign item. `only` as in frameCtes (conditions on `c`, the campaign).
 */
export function storedCampCte(only: string): string {
  return `camp AS (
        SELECT c.id, c.sampling, sum(s.selected) AS selected, sum(s.reviewed) AS reviewed
        FROM insight_campaign_stat s JOIN campaign c ON c.id = s."campaignId"
        WHERE s."projectId" = $1 AND c."projectId" = $1 AND c.mode = 'single' ${only}
        GROUP BY c.id
        HAVING sum(s.reviewed) > 0
      )`;
}

/**
 * frameCtes from the stored frame: storedCampCte, and the items from insight_frame_item (each
 * single-mode campaign item's inputs, kept by the same triggers). The same CTEs and columns;
 * `itemsOf` conditions are on `i` (insight_frame_item: environmentId, policyId).
 * insight-group-stats.db.test.ts checks the stored frame against the live one.
 */
export function storedFrameCtes(only: string, itemsOf = ''): string {
  return `${storedCampCte(only)}, item AS (
        SELECT i."trajectoryId" AS id, c.sampling = 'picked' AS picked,
               LEAST(1.0, i.probability * c.reviewed::float8 / c.selected::float8) AS p
        FROM insight_frame_item i JOIN camp c ON c.id = i."campaignId"
        WHERE i."projectId" = $1 ${itemsOf}
      ), frame AS (
        SELECT id, bool_or(picked) AS picked,
               CASE WHEN bool_or(p >= 1) THEN 1.0 ELSE 1 - exp(coalesce(sum(ln(1 - p)) FILTER (WHERE p < 1), 0)) END AS probability
        FROM item GROUP BY id
      )`;
}

/** The project's hand-picked single-mode campaigns (all, or `campaignId` when it is one). */
export function pickedCampaigns(projectId: string, campaignId?: string): Promise<PickedCampaign[]> {
  return sql<PickedCampaign>(
    `SELECT c.id, c.name FROM campaign c
     WHERE c."projectId" = $1 AND c.mode = 'single' AND c.sampling = 'picked' ${campaignId ? 'AND c.id = $2' : ''}
     ORDER BY c."createdAt"`,
    campaignId ? [projectId, campaignId] : [projectId],
  );
}

/**
 * With `campaignId`, the frame is that campaign's items only (its own figure, on the campaign page);
 * `environmentIds` / `policyIds` keep the rows of those groups only.
 * Plain SQL on the pool (lib/db/sql.ts): at bench scale the frame is 100k rows, and
 * Prisma's raw-query decoding of them took longer than the statement. The frame is the stored one
 * (storedFrameCtes).
 */
export async function estimateRows(
  projectId: string,
  options: { campaignId?: string; environmentIds?: string[]; policyIds?: string[] } = {},
): Promise<{ rows: EstimateRow[]; picked: PickedCampaign[] }> {
  await refreshQueuedInsight(); // what submits queued, before reading the summaries (lib/insight/queries/insight-refresh.ts)
  const params: unknown[] = [projectId];
  const only = options.campaignId ? `AND c.id = $${params.push(options.campaignId)}` : '';
  // the groups asked for, applied to the frame's items (the frame of 100k items is not built whole for a few groups)
  const inEnvironments = options.environmentIds ? `AND i."environmentId" = ANY($${params.push(options.environmentIds)})` : '';
  const inPolicies = options.policyIds ? `AND i."policyId" = ANY($${params.push(options.policyIds)})` : '';
  const [rows, picked, agents] = await Promise.all([
    sql<EstimateSqlRow>(
      `
      WITH ${storedFrameCtes(only, `${inEnvironments} ${inPolicies}`.trim())}, ${judgesCte}
      SELECT f.id, t."environmentId", tr."policyId", tr."verifierReward", f.probability, f.picked,
             ti.reviews, ti."passVotes", ti."failVotes", ti."rewardHacking", ti."answerLeakage", j.judges
      FROM frame f
      JOIN trajectory tr ON tr.id = f.id
      JOIN task t ON t.id = tr."taskId"
      LEFT JOIN trajectory_insight ti ON ti."trajectoryId" = f.id
      LEFT JOIN judges j ON j.id = f.id
      ORDER BY f.id`,
      params,
    ),
    pickedCampaigns(projectId, options.campaignId),
    agentReviewInputs(projectId),
  ]);
  return { rows: withAgentJudges(rows.map(toEstimateRow), agents), picked };
}

/**
 * The same columns for trajectories before a campaign exists (the create form's planner): their
 * signals and current labels, probability 1 (planning only reads the spread of the labels and
 * how much of it the predictor explains).
 */
export async function trajectoryEstimateRows(projectId: string, trajectoryIds: string[]): Promise<EstimateRow[]> {
  await refreshQueuedInsight(); // what submits queued, before reading the summaries (lib/insight/queries/insight-refresh.ts)
  if (trajectoryIds.length === 0) return [];
  const [rows, agents] = await Promise.all([
    sql<EstimateSqlRow>(
      `
    WITH ${judgesCte}
    SELECT tr.id, t."environmentId", tr."policyId", tr."verifierReward",
           ti.reviews, ti."passVotes", ti."failVotes", ti."rewardHacking", ti."answerLeakage", j.judges
    FROM trajectory tr
    JOIN task t ON t.id = tr."taskId"
    LEFT JOIN trajectory_insight ti ON ti."trajectoryId" = tr.id
    LEFT JOIN judges j ON j.id = tr.id
    WHERE tr."projectId" = $1 AND tr.id = ANY($2)
    ORDER BY tr.id`,
      [projectId, trajectoryIds],
    ),
    agentReviewInputs(projectId, trajectoryIds),
  ]);
  return withAgentJudges(rows.map(toEstimateRow), agents);
}

/**
 * A checkpoint comparison's frame: every item of a pairwise campaign with comparisons that pairs
 * a run of policy A with a run of policy B (either side), with both sides' signals, the current
 * comparisons' tally in B's favour (a tie or "both bad" counts half) and the item's probability
 * of review (recorded probability x the share of the campaign's drawn items compared so far).
 */
export interface PairEstimateRow {
  itemId: string;
  /** policy B's run and policy A's run, whichever side of the item they are on */
  forB: { verifierReward: number | null; judges: EstimateRow['judges'] };
  forA: { verifierReward: number | null; judges: EstimateRow['judges'] };
  comparisons: number;
  /** comparisons won by policy B's run (ties half) */
  bWins: number;
  probability: number;
  picked: boolean;
}

export async function pairEstimateRows(
  projectId: string,
  policyA: string,
  policyB: string,
  environmentId: string | null,
): Promise<PairEstimateRow[]> {
  await refreshQueuedInsight(); // what submits queued, before reading the summaries (lib/insight/queries/insight-refresh.ts)
  const env = environmentId ? Prisma.sql`AND t."environmentId" = ${environmentId}` : Prisma.empty;
  const rows = await db().$queryRaw<
    {
      id: string;
      aIsB: boolean;
      ra: number | null;
      rb: number | null;
      ja: EstimateRow['judges'] | null;
      jb: EstimateRow['judges'] | null;
      n: bigint;
      itemBWins: number | null;
      probability: number;
      picked: boolean;
    }[]
  >`
    WITH camp AS (
      SELECT c.id, c.sampling,
             count(*) FILTER (WHERE ci.selected) AS selected,
             count(*) FILTER (WHERE ci.selected AND ci."reviewCount" > 0) AS reviewed
      FROM campaign c JOIN campaign_item ci ON ci."campaignId" = c.id
      WHERE c."projectId" = ${projectId} AND c.mode = 'pairwise'
      GROUP BY c.id
      HAVING count(*) FILTER (WHERE ci.selected AND ci."reviewCount" > 0) > 0
    )
    SELECT ci.id, ta."policyId" = ${policyB} AS "aIsB", ta."verifierReward" AS ra, tb."verifierReward" AS rb,
           (SELECT jsonb_agg(jsonb_build_object('judge', j.judge, 'score', j.score, 'label', j.label) ORDER BY j.judge)
              FROM judge_score j WHERE j."trajectoryId" = ta.id) AS ja,
           (SELECT jsonb_agg(jsonb_build_object('judge', j.judge, 'score', j.score, 'label', j.label) ORDER BY j.judge)
              FROM judge_score j WHERE j."trajectoryId" = tb.id) AS jb,
           (SELECT count(*) FROM pairwise_comparison pc WHERE pc."campaignItemId" = ci.id AND pc."isCurrent") AS n,
           (SELECT sum(CASE WHEN pc."bothBad" OR pc.preference = 0 THEN 0.5 WHEN pc.preference > 0 THEN 1 ELSE 0 END)
              FROM pairwise_comparison pc WHERE pc."campaignItemId" = ci.id AND pc."isCurrent") AS "itemBWins",
           LEAST(1.0, ci.probability * c.reviewed::float8 / c.selected::float8) AS probability,
           c.sampling = 'picked' AS picked
    FROM campaign_item ci
    JOIN camp c ON c.id = ci."campaignId"
    JOIN trajectory ta ON ta.id = ci."trajectoryId"
    JOIN trajectory tb ON tb.id = ci."trajectoryBId"
    JOIN task t ON t.id = ta."taskId"
    WHERE ((ta."policyId" = ${policyA} AND tb."policyId" = ${policyB}) OR (ta."policyId" = ${policyB} AND tb."policyId" = ${policyA})) ${env}
    ORDER BY ci.id`;
  return rows.map((r) => {
    const n = Number(r.n);
    const itemB = Number(r.itemBWins ?? 0);
    const a = { verifierReward: r.ra, judges: r.ja ?? [] };
    const b = { verifierReward: r.rb, judges: r.jb ?? [] };
    return {
      itemId: r.id,
      forB: r.aIsB ? a : b,
      forA: r.aIsB ? b : a,
      comparisons: n,
      bWins: r.aIsB ? n - itemB : itemB,
      probability: Number(r.probability),
      picked: r.picked,
    };
  });
}
