import { sql } from '../../db/sql';
import { refreshQueuedInsight } from './insight-refresh';

/**
 * The stored per-group statistics of migration 20261202050510_insight_group_stats, checked against
 * a recount from their sources (the load test's and db tests' invariant, like insightDrift for the
 * summaries): how many stored rows differ from the recount, per table; 0 everywhere when every
 * write kept them exact.
 * - groups: insight_group_stat against trajectory + trajectory_insight per (task, policy);
 * - votes: insight_item_vote_stat against the summaries' itemVotes per (task, passes, fails);
 * - campaigns: insight_campaign_stat against each single-mode campaign's selected and reviewed items;
 * - frame: insight_frame_stat against the count of insight_frame_item per combination (the frame
 *   items themselves are checked through the estimates: insight-estimate-stats.ts 'stored' equals
 *   'live', insight-group-stats.db.test.ts).
 * Float sums (Likert) count as equal within a relative 1e-9 (an add and a subtract per write). The
 * stored group, vote and frame counts are summed over their 16 shards (migration
 * 20261202063000_insight_stat_shards) before the comparison.
 */
export interface GroupStatsDrift {
  campaigns: number;
  groups: number;
  votes: number;
  frame: number;
}

export async function insightGroupStatsDrift(projectId: string): Promise<GroupStatsDrift> {
  await refreshQueuedInsight(); // what submits queued, before reading the summaries (lib/insight/queries/insight-refresh.ts)
  const [row] = await sql<GroupStatsDrift>(
    `WITH want_g AS (
       SELECT tr."taskId", tr."policyId", count(*) AS trajectories, count(tr."verifierReward") AS scored,
              count(*) FILTER (WHERE tr."verifierReward" >= 1) AS "verifierPasses",
              count(*) FILTER (WHERE ti.reviews > 0) AS reviewed,
              count(*) FILTER (WHERE ti.reviews > 0 AND ti."passVotes" > ti."failVotes") AS "humanPass",
              count(*) FILTER (WHERE ti.reviews > 0 AND ti."passVotes" <> ti."failVotes") AS "humanJudged",
              count(*) FILTER (WHERE ti.reviews > 0 AND ti."rewardHacking") AS "rewardHacking",
              count(*) FILTER (WHERE ti.reviews > 0 AND ti."answerLeakage") AS "answerLeakage",
              count(*) FILTER (WHERE ti.reviews > 0 AND tr."verifierReward" >= 1 AND ti."passVotes" > ti."failVotes") AS "passPass",
              count(*) FILTER (WHERE ti.reviews > 0 AND tr."verifierReward" >= 1 AND ti."passVotes" < ti."failVotes") AS "passFail",
              count(*) FILTER (WHERE ti.reviews > 0 AND tr."verifierReward" < 1 AND ti."passVotes" > ti."failVotes") AS "failPass",
              count(*) FILTER (WHERE ti.reviews > 0 AND tr."verifierReward" < 1 AND ti."passVotes" < ti."failVotes") AS "failFail",
              coalesce(sum(ti."likertN") FILTER (WHERE ti.reviews > 0), 0) AS "likertN",
              coalesce(sum(ti."likertSum") FILTER (WHERE ti.reviews > 0), 0) AS "likertSum",
              coalesce(sum(ti."likertSumSquares") FILTER (WHERE ti.reviews > 0), 0) AS "likertSumSquares"
       FROM trajectory tr LEFT JOIN trajectory_insight ti ON ti."trajectoryId" = tr.id
       WHERE tr."projectId" = $1
       GROUP BY 1, 2
     ), have_g AS (
       SELECT "taskId", "policyId", sum(trajectories) AS trajectories, sum(scored) AS scored, sum("verifierPasses") AS "verifierPasses",
              sum(reviewed) AS reviewed, sum("humanPass") AS "humanPass", sum("humanJudged") AS "humanJudged",
              sum("rewardHacking") AS "rewardHacking", sum("answerLeakage") AS "answerLeakage", sum("passPass") AS "passPass",
              sum("passFail") AS "passFail", sum("failPass") AS "failPass", sum("failFail") AS "failFail", sum("likertN") AS "likertN",
              sum("likertSum") AS "likertSum", sum("likertSumSquares") AS "likertSumSquares"
       FROM insight_group_stat WHERE "projectId" = $1
       GROUP BY 1, 2
       HAVING sum(trajectories) <> 0
     ), groups AS (
       SELECT count(*) AS n FROM want_g w FULL JOIN have_g h ON h."taskId" = w."taskId" AND h."policyId" = w."policyId"
       WHERE (w.trajectories, w.scored, w."verifierPasses", w.reviewed, w."humanPass", w."humanJudged", w."rewardHacking",
              w."answerLeakage", w."passPass", w."passFail", w."failPass", w."failFail", w."likertN")
             IS DISTINCT FROM
             (h.trajectories, h.scored, h."verifierPasses", h.reviewed, h."humanPass", h."humanJudged", h."rewardHacking",
              h."answerLeakage", h."passPass", h."passFail", h."failPass", h."failFail", h."likertN")
          OR NOT abs(w."likertSum" - h."likertSum") <= 1e-9 * greatest(1, abs(w."likertSum"))
          OR NOT abs(w."likertSumSquares" - h."likertSumSquares") <= 1e-9 * greatest(1, abs(w."likertSumSquares"))
     ), want_v AS (
       SELECT tr."taskId", (v ->> 0)::int AS passes, (v ->> 1)::int AS fails, sum((v ->> 2)::int) AS units
       FROM trajectory_insight ti JOIN trajectory tr ON tr.id = ti."trajectoryId"
       CROSS JOIN LATERAL jsonb_array_elements(ti."itemVotes") v
       WHERE tr."projectId" = $1
       GROUP BY 1, 2, 3
     ), votes AS (
       SELECT count(*) AS n
       FROM want_v w FULL JOIN (SELECT "taskId", passes, fails, sum(units) AS units FROM insight_item_vote_stat WHERE "projectId" = $1
                                 GROUP BY 1, 2, 3 HAVING sum(units) <> 0) h
         ON h."taskId" = w."taskId" AND h.passes = w.passes AND h.fails = w.fails
       WHERE w.units IS DISTINCT FROM h.units
     ), campaigns AS (
       SELECT count(*) AS n FROM (
         SELECT c.id, count(*) FILTER (WHERE ci.selected) AS selected, count(*) FILTER (WHERE ci.selected AND ci."reviewCount" > 0) AS reviewed
         FROM campaign c JOIN campaign_item ci ON ci."campaignId" = c.id
         WHERE c."projectId" = $1 AND c.mode = 'single'
         GROUP BY c.id
       ) w FULL JOIN (
         SELECT s."campaignId" AS id, sum(s.selected) AS selected, sum(s.reviewed) AS reviewed
         FROM insight_campaign_stat s JOIN campaign c ON c.id = s."campaignId" AND c.mode = 'single'
         WHERE s."projectId" = $1
         GROUP BY 1
         HAVING sum(s.selected) <> 0 OR sum(s.reviewed) <> 0
       ) h ON h.id = w.id
       WHERE (w.selected, w.reviewed) IS DISTINCT FROM (h.selected, h.reviewed)
     ), frame AS (
       SELECT count(*) AS n FROM (
         SELECT 1 FROM (
           SELECT "campaignId", "environmentId", "policyId", probability, picked, prediction, judged, pass, hacking,
                  leakage, shared, 1 AS c
           FROM insight_frame_item WHERE "projectId" = $1
           UNION ALL
           SELECT "campaignId", "environmentId", "policyId", probability, picked, prediction, judged, pass, hacking,
                  leakage, shared, -count
           FROM insight_frame_stat WHERE "projectId" = $1
         ) x
         GROUP BY "campaignId", "environmentId", "policyId", probability, picked, prediction, judged, pass, hacking,
                  leakage, shared
         HAVING sum(c) <> 0
       ) d
     )
     SELECT (SELECT n FROM campaigns)::int AS campaigns, (SELECT n FROM groups)::int AS groups, (SELECT n FROM votes)::int AS votes, (SELECT n FROM frame)::int AS frame`,
    [projectId],
  );
  return row!;
}
