import { Prisma } from '@prisma/client';
import { rubricDefinition } from '../review/rubric';
import { db } from './client';
import { currentReviewsCte } from './insight-environments';
import { num, verifierPassSql } from './insight-sql';

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

/** The first Likert question of each rubric version of the project: (version id, question id, points). */
async function likertQuestions(projectId: string): Promise<{ versionIds: string[]; keys: string[]; points: number[] }> {
  const versions = await db().rubricVersion.findMany({ where: { rubric: { projectId } }, select: { id: true, definition: true } });
  const out = { versionIds: [] as string[], keys: [] as string[], points: [] as number[] };
  for (const v of versions) {
    const parsed = rubricDefinition.safeParse(v.definition);
    if (!parsed.success) continue;
    const q = parsed.data.questions.find((x) => x.type === 'likert');
    if (q && q.type === 'likert') {
      out.versionIds.push(v.id);
      out.keys.push(q.id);
      out.points.push(q.points);
    }
  }
  return out;
}

export async function policyStats(projectId: string, environmentId: string | null, policyIds?: string[]): Promise<PolicyStatsRow[]> {
  const likert = await likertQuestions(projectId);
  const policyFilter = policyIds ? Prisma.sql`AND tr."policyId" IN (${Prisma.join(policyIds)})` : Prisma.empty;
  const [base, reviews, scores] = await Promise.all([
    db().$queryRaw<{ policyId: string; trajectories: bigint; scored: bigint; passes: bigint }[]>`
      SELECT tr."policyId", count(*) AS trajectories, count(tr."verifierReward") AS scored, count(*) FILTER (WHERE ${verifierPassSql}) AS passes
      FROM trajectory tr JOIN task t ON t.id = tr."taskId"
      WHERE tr."projectId" = ${projectId} ${envFilter(environmentId, 't')} ${policyFilter}
      GROUP BY tr."policyId"`,
    db().$queryRaw<{ policyId: string; pass: bigint; judged: bigint }[]>`
      WITH rv AS (${currentReviewsCte(projectId)}),
      per_traj AS (SELECT tid, count(*) FILTER (WHERE verdict = 1) AS p, count(*) FILTER (WHERE verdict = 0) AS f FROM rv GROUP BY tid)
      SELECT tr."policyId", count(*) FILTER (WHERE pt.p > pt.f) AS pass, count(*) FILTER (WHERE pt.p <> pt.f) AS judged
      FROM per_traj pt JOIN trajectory tr ON tr.id = pt.tid JOIN task t ON t.id = tr."taskId"
      WHERE TRUE ${envFilter(environmentId, 't')} ${policyFilter}
      GROUP BY tr."policyId"`,
    likert.keys.length === 0
      ? Promise.resolve([] as { policyId: string; n: bigint; sum: number; sumsq: number }[])
      : db().$queryRaw<{ policyId: string; n: bigint; sum: number; sumsq: number }[]>`
      WITH lk AS (SELECT * FROM unnest(${likert.versionIds}::text[], ${likert.keys}::text[], ${likert.points}::int[]) AS lk(version, key, points)),
      s AS (
        SELECT tr."policyId", ((r.answers ->> lk.key)::float8 - 1) / (lk.points - 1) AS score
        FROM review r
        JOIN lk ON lk.version = r."rubricVersionId"
        JOIN campaign_item ci ON ci.id = r."campaignItemId"
        JOIN campaign c ON c.id = ci."campaignId"
        JOIN trajectory tr ON tr.id = ci."trajectoryId"
        JOIN task t ON t.id = tr."taskId"
        WHERE r."isCurrent" AND c."projectId" = ${projectId} AND c.mode = 'single' AND jsonb_typeof(r.answers -> lk.key) = 'number'
          ${envFilter(environmentId, 't')} ${policyFilter}
      )
      SELECT "policyId", count(*) AS n, sum(score) AS sum, sum(score * score) AS sumsq FROM s GROUP BY "policyId"`,
  ]);
  return base.map((b) => {
    const r = reviews.find((x) => x.policyId === b.policyId);
    const s = scores.find((x) => x.policyId === b.policyId);
    return {
      policyId: b.policyId,
      trajectories: num(b.trajectories),
      scored: num(b.scored),
      verifierPasses: num(b.passes),
      humanPass: num(r?.pass),
      humanJudged: num(r?.judged),
      likertN: num(s?.n),
      likertSum: Number(s?.sum ?? 0),
      likertSumSquares: Number(s?.sumsq ?? 0),
    };
  });
}

/** Per-criterion verdicts of the given policies' trajectories (majority of each trajectory's verdicts). */
export async function criterionVerdicts(projectId: string, policyIds: string[], environmentId: string | null): Promise<CriterionRow[]> {
  if (policyIds.length === 0) return [];
  const rows = await db().$queryRaw<{ policyId: string; key: string; passes: bigint; judged: bigint }[]>`
    WITH v AS (
      SELECT ci."trajectoryId" AS tid, cv.key, cv.value AS verdict
      FROM review r
      JOIN campaign_item ci ON ci.id = r."campaignItemId"
      JOIN campaign c ON c.id = ci."campaignId"
      CROSS JOIN LATERAL jsonb_each(r.answers) q
      CROSS JOIN LATERAL jsonb_each_text(CASE WHEN jsonb_typeof(q.value) = 'object' THEN q.value ELSE '{}'::jsonb END) cv
      WHERE r."isCurrent" AND c."projectId" = ${projectId} AND c.mode = 'single'
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
    ORDER BY pt.key`;
  return rows.map((r) => ({ policyId: r.policyId, key: r.key, passes: num(r.passes), judged: num(r.judged) }));
}
