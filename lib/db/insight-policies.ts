import { Prisma } from '@prisma/client';
import { db } from './client';
import { aggregateQuery, num, reviewFactsSql, rubricKeys, verifierPassSql } from './insight-sql';

/**
 * The policies and compare pages' data, aggregated in Postgres:
 * - comparison counts per (policy of A, policy of B, outcome) from current pairwise comparisons
 *   (outcome: "b" when preference > 0, "a" when < 0, "tie" when 0 or both bad);
 * - per policy: trajectories, verifier passes, reviewer verdicts (a trajectory's majority) and
 *   the sufficient statistics of the normalised Likert score (n, sum, sum of squares) of each
 *   current single-mode review (the first Likert question of its rubric version);
 * - per policy and criterion key: trajectories whose reviewers' majority passed / judged it
 *   (single-mode criteria answers, and the pairwise comparisons' per-side criteria).
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
  return db().policy.findMany({ where: { projectId }, select: { id: true, name: true, model: true, checkpoint: true }, orderBy: { name: 'asc' } });
}

export async function insightEnvironments(projectId: string) {
  return db().environment.findMany({ where: { projectId }, select: { id: true, name: true }, orderBy: { name: 'asc' } });
}

/** Comparison counts; with `pair`, only comparisons between those two policy ids. */
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
    GROUP BY 1, 2, 3`;
  return rows.map((r) => ({ policyA: r.policyA, policyB: r.policyB, outcome: r.outcome, count: num(r.count) }));
}

/** Restricts review facts (alias ci) to trajectories of these policies / this environment. */
function itemFilter(environmentId: string | null, policyIds?: string[]) {
  if (!environmentId && !policyIds) return Prisma.empty;
  return Prisma.sql`AND EXISTS (
    SELECT 1 FROM trajectory tq JOIN task tk ON tk.id = tq."taskId"
    WHERE tq.id = ci."trajectoryId"
      ${environmentId ? Prisma.sql`AND tk."environmentId" = ${environmentId}` : Prisma.empty}
      ${policyIds ? Prisma.sql`AND tq."policyId" IN (${Prisma.join(policyIds)})` : Prisma.empty})`;
}

export async function policyStats(projectId: string, environmentId: string | null, policyIds?: string[]): Promise<PolicyStatsRow[]> {
  const keys = await rubricKeys(projectId);
  const policyFilter = policyIds ? Prisma.sql`AND tr."policyId" IN (${Prisma.join(policyIds)})` : Prisma.empty;
  const [base, reviews] = await Promise.all([
    db().$queryRaw<{ policyId: string; trajectories: bigint; scored: bigint; passes: bigint }[]>`
      SELECT tr."policyId", count(*) AS trajectories, count(tr."verifierReward") AS scored, count(*) FILTER (WHERE ${verifierPassSql}) AS passes
      FROM trajectory tr JOIN task t ON t.id = tr."taskId"
      WHERE tr."projectId" = ${projectId} ${envFilter(environmentId, 't')} ${policyFilter}
      GROUP BY tr."policyId"`,
    aggregateQuery<{ policyId: string; pass: bigint; judged: bigint; n: bigint | null; sum: number | null; sumsq: number | null }>(Prisma.sql`
      WITH rv AS (${reviewFactsSql(projectId, keys, itemFilter(environmentId, policyIds))}),
      per_traj AS (
        SELECT tid, count(*) FILTER (WHERE verdict = 1) AS p, count(*) FILTER (WHERE verdict = 0) AS f,
               count(score) AS n, sum(score) AS s, sum(score * score) AS ss
        FROM rv GROUP BY tid
      )
      SELECT tr."policyId", count(*) FILTER (WHERE pt.p > pt.f) AS pass, count(*) FILTER (WHERE pt.p <> pt.f) AS judged,
             sum(pt.n) AS n, sum(pt.s) AS sum, sum(pt.ss) AS sumsq
      FROM per_traj pt JOIN trajectory tr ON tr.id = pt.tid
      GROUP BY tr."policyId"`),
  ]);
  return base.map((b) => {
    const r = reviews.find((x) => x.policyId === b.policyId);
    return {
      policyId: b.policyId,
      trajectories: num(b.trajectories),
      scored: num(b.scored),
      verifierPasses: num(b.passes),
      humanPass: num(r?.pass),
      humanJudged: num(r?.judged),
      likertN: num(r?.n),
      likertSum: Number(r?.sum ?? 0),
      likertSumSquares: Number(r?.sumsq ?? 0),
    };
  });
}

/** Per-criterion verdicts of the given policies' trajectories (majority of each trajectory's verdicts). */
export async function criterionVerdicts(projectId: string, policyIds: string[], environmentId: string | null): Promise<CriterionRow[]> {
  if (policyIds.length === 0) return [];
  const rows = await aggregateQuery<{ policyId: string; key: string; passes: bigint; judged: bigint }>(Prisma.sql`
    WITH v AS (
      SELECT ci."trajectoryId" AS tid, cv.key, cv.value AS verdict
      FROM review r
      JOIN campaign_item ci ON ci.id = r."campaignItemId"
      JOIN campaign c ON c.id = ci."campaignId"
      CROSS JOIN LATERAL jsonb_each(r.answers) q
      CROSS JOIN LATERAL jsonb_each_text(CASE WHEN jsonb_typeof(q.value) = 'object' THEN q.value ELSE '{}'::jsonb END) cv
      WHERE r."isCurrent" AND c."projectId" = ${projectId} AND c.mode = 'single' ${itemFilter(environmentId, policyIds)}
      UNION ALL
      SELECT CASE side.s WHEN 'a' THEN ci."trajectoryId" ELSE ci."trajectoryBId" END, cv.key, cv.value
      FROM pairwise_comparison pc
      JOIN campaign_item ci ON ci.id = pc."campaignItemId"
      JOIN campaign c ON c.id = ci."campaignId"
      CROSS JOIN LATERAL (VALUES ('a'), ('b')) AS side(s)
      CROSS JOIN LATERAL jsonb_each_text(CASE WHEN jsonb_typeof(pc.criteria -> side.s) = 'object' THEN pc.criteria -> side.s ELSE '{}'::jsonb END) cv
      WHERE pc."isCurrent" AND c."projectId" = ${projectId}
    ),
    per_traj AS (
      SELECT tid, key, count(*) FILTER (WHERE verdict = 'pass') AS p, count(*) FILTER (WHERE verdict = 'fail') AS f FROM v GROUP BY tid, key
    )
    SELECT tr."policyId", pt.key, count(*) FILTER (WHERE pt.p > pt.f) AS passes, count(*) FILTER (WHERE pt.p <> pt.f) AS judged
    FROM per_traj pt JOIN trajectory tr ON tr.id = pt.tid JOIN task t ON t.id = tr."taskId"
    WHERE tr."policyId" IN (${Prisma.join(policyIds)}) ${envFilter(environmentId, 't')}
    GROUP BY tr."policyId", pt.key
    ORDER BY pt.key`);
  return rows.map((r) => ({ policyId: r.policyId, key: r.key, passes: num(r.passes), judged: num(r.judged) }));
}
