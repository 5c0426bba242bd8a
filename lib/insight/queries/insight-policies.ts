import { Prisma } from '@prisma/client';
import { db } from '../../db/client';
import { sql } from '../../db/sql';
import { num } from './insight-sql';
import { refreshQueuedInsight } from './insight-refresh';

/**
 * The policies and compare pages' data, aggregated in Postgres (reviews and criteria from the
 * trajectory summaries of lib/insight/queries/insight-summary.ts):
 * - comparison counts per (policy of A, policy of B, outcome) from current pairwise comparisons
 *   (outcome: "b" when preference > 0, "a" when < 0, "tie" when 0 or both bad);
 * - per policy: trajectories, verifier passes, reviewer verdicts (a trajectory's majority) and
 *   the sufficient statistics of the normalised Likert score (n, sum, sum of squares) of each
 *   current single-mode review (the first Likert question of its rubric version);
 * - per policy and criterion key: trajectories whose reviewers' majority passed / judged it
 *   (the criteria question of single-mode reviews, and the pairwise comparisons' per-side criteria).
 * An optional environment id restricts everything to that environment's tasks.
 */
export interface PolicyRow {
  id: string;
  name: string;
  model: string | null;
  checkpoint: string | null;
}

export interface OutcomeRow {
  policyA: string;
  policyB: string;
  outcome: 'a' | 'b' | 'tie';
  count: number;
}

export interface PolicyStatsRow {
  policyId: string;
  trajectories: number;
  scored: number;
  verifierPasses: number;
  humanPass: number;
  humanJudged: number;
  likertN: number;
  likertSum: number;
  likertSumSquares: number;
}

export interface CriterionRow {
  policyId: string;
  key: string;
  passes: number;
  judged: number;
}

const envFilter = (environmentId: string | null, taskAlias: string) =>
  environmentId ? Prisma.sql`AND ${Prisma.raw(taskAlias)}."environmentId" = ${environmentId}` : Prisma.empty;

export async function insightPolicies(projectId: string): Promise<PolicyRow[]> {
  return db().policy.findMany({
    where: { projectId },
    select: { id: true, name: true, model: true, checkpoint: true },
    orderBy: { name: 'asc' },
  });
}

export async function insightEnvironments(projectId: string) {
  return db().environment.findMany({ where: { projectId }, select: { id: true, name: true }, orderBy: { name: 'asc' } });
}

/** Comparison counts, in a fixed order (the leaderboard's seeded bootstrap resamples them in order); with `pair`, only comparisons between those two policy ids. */
export async function comparisonOutcomes(projectId: string, environmentId: string | null, pair?: [string, string]): Promise<OutcomeRow[]> {
  const pairFilter = pair
    ? Prisma.sql`AND ((ta."policyId" = ${pair[0]} AND tb."policyId" = ${pair[1]}) OR (ta."policyId" = ${pair[1]} AND tb."policyId" = ${pair[0]}))`
    : Prisma.empty;
  const rows = await db().$queryRaw<{ policyA: string; policyB: string; outcome: 'a' | 'b' | 'tie'; count: bigint }[]>`
    SELECT ta."policyId" AS "policyA", tb."policyId" AS "policyB",
           CASE WHEN pc."bothBad" OR pc.preference = 0 THEN 'tie' WHEN pc.preference > 0 THEN 'b' ELSE 'a' END AS outcome,
           count(*) AS count
    FROM pairwise_comparison pc
    JOIN campaign_item ci ON ci.id = pc."campaignItemId"
    JOIN campaign c ON c.id = ci."campaignId"
    JOIN trajectory ta ON ta.id = ci."trajectoryId"
    JOIN trajectory tb ON tb.id = ci."trajectoryBId"
    JOIN task t ON t.id = ta."taskId"
    WHERE pc."isCurrent" AND c."projectId" = ${projectId} ${envFilter(environmentId, 't')} ${pairFilter}
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3`;
  return rows.map((r) => ({ policyA: r.policyA, policyB: r.policyB, outcome: r.outcome, count: num(r.count) }));
}

/**
 * Per policy, from the stored per-(task, policy) counts (insight_group_stat, kept by the write
 * path's triggers: migration 20261202050510_insight_group_stats; insight-group-stats.db.test.ts
 * recounts them): at bench scale ~1,100 rows instead of a join of 100k trajectories, their tasks
 * and summaries.
 */
export async function policyStats(projectId: string, environmentId: string | null, policyIds?: string[]): Promise<PolicyStatsRow[]> {
  await refreshQueuedInsight(); // what submits queued, before reading the summaries (lib/insight/queries/insight-refresh.ts)
  const params: unknown[] = [projectId];
  const inEnvironment = environmentId ? `AND t."environmentId" = $${params.push(environmentId)}` : '';
  const inPolicies = policyIds ? `AND s."policyId" = ANY($${params.push(policyIds)}::text[])` : '';
  const rows = await sql<{
    policyId: string;
    trajectories: string;
    scored: string;
    passes: string;
    pass: string;
    judged: string;
    n: string;
    sum: number;
    sumsq: number;
  }>(
    `SELECT s."policyId", sum(s.trajectories) AS trajectories, sum(s.scored) AS scored, sum(s."verifierPasses") AS passes,
            sum(s."humanPass") AS pass, sum(s."humanJudged") AS judged,
            sum(s."likertN") AS n, sum(s."likertSum") AS sum, sum(s."likertSumSquares") AS sumsq
     FROM insight_group_stat s JOIN task t ON t.id = s."taskId"
     WHERE s."projectId" = $1 ${inEnvironment} ${inPolicies}
     GROUP BY s."policyId"
     HAVING sum(s.trajectories) > 0`,
    params,
  );
  return rows.map((r) => ({
    policyId: r.policyId,
    trajectories: num(r.trajectories),
    scored: num(r.scored),
    verifierPasses: num(r.passes),
    humanPass: num(r.pass),
    humanJudged: num(r.judged),
    likertN: num(r.n),
    likertSum: Number(r.sum ?? 0),
    likertSumSquares: Number(r.sumsq ?? 0),
  }));
}

/** Per-criterion verdicts of the given policies' trajectories (majority of each trajectory's verdicts, single reviews and comparison sides). */
export async function criterionVerdicts(projectId: string, policyIds: string[], environmentId: string | null): Promise<CriterionRow[]> {
  await refreshQueuedInsight(); // what submits queued, before reading the summaries (lib/insight/queries/insight-refresh.ts)
  if (policyIds.length === 0) return [];
  const rows = await db().$queryRaw<{ policyId: string; key: string; passes: bigint; judged: bigint }[]>`
    SELECT tr."policyId", c.key,
           count(*) FILTER (WHERE (c.value ->> 0)::int > (c.value ->> 1)::int) AS passes,
           count(*) FILTER (WHERE (c.value ->> 0)::int <> (c.value ->> 1)::int) AS judged
    FROM trajectory_insight ti
    JOIN trajectory tr ON tr.id = ti."trajectoryId"
    JOIN task t ON t.id = tr."taskId"
    CROSS JOIN LATERAL jsonb_each(ti.criteria) c
    WHERE ti."projectId" = ${projectId} AND tr."policyId" IN (${Prisma.join(policyIds)}) ${envFilter(environmentId, 't')}
    GROUP BY tr."policyId", c.key
    ORDER BY c.key`;
  return rows.map((r) => ({ policyId: r.policyId, key: r.key, passes: num(r.passes), judged: num(r.judged) }));
}
