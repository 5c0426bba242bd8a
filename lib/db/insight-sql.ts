import { Prisma } from '@prisma/client';
import { rubricDefinition } from '../review/rubric';
import { db } from './client';

/**
 * SQL pieces shared by the insight queries. A review's verdict, flags and score are read from
 * its answers in Postgres (1,000,000 reviews never reach Node), by question key: each rubric
 * version's criteria question, its flags question (the first multi-choice question offering
 * reward_hacking or answer_leakage) and its first Likert question, found from the rubric
 * definitions (a handful of rows) and joined in as a VALUES list. Same rules as
 * lib/insight/review-verdict.ts (the db tests check they agree):
 * - verdict: 0 when the criteria answer holds "fail"; 1 when it holds "pass" and no "fail";
 *   NULL when no criterion was judged. (Read from the answer's JSON text, `"key": "fail"`:
 *   criterion keys are slugs, so only a verdict can follow `": "`. Three times faster than
 *   SQL/JSON path on 1M reviews.)
 * - flags: the flags answer (an array) holds "reward_hacking" / "answer_leakage";
 * - score: (likert - 1) / (points - 1).
 */
export interface RubricKeys {
  versionIds: string[];
  criteria: (string | null)[];
  flags: (string | null)[];
  likert: (string | null)[];
  points: (number | null)[];
}

export async function rubricKeys(projectId: string): Promise<RubricKeys> {
  const versions = await db().rubricVersion.findMany({ where: { rubric: { projectId } }, select: { id: true, definition: true } });
  const out: RubricKeys = { versionIds: [], criteria: [], flags: [], likert: [], points: [] };
  for (const v of versions) {
    const parsed = rubricDefinition.safeParse(v.definition);
    if (!parsed.success) continue;
    const qs = parsed.data.questions;
    const likert = qs.find((q) => q.type === 'likert');
    out.versionIds.push(v.id);
    out.criteria.push(qs.find((q) => q.type === 'criteria')?.id ?? null);
    out.flags.push(qs.find((q) => q.type === 'multi' && q.options.some((o) => o.value === 'reward_hacking' || o.value === 'answer_leakage'))?.id ?? null);
    out.likert.push(likert?.id ?? null);
    out.points.push(likert && likert.type === 'likert' ? likert.points : null);
  }
  return out;
}

/** `lk(version, ckey, fkey, lkey, points)`: the keys of each rubric version, as a FROM item. */
export function rubricKeysSql(keys: RubricKeys) {
  return Prisma.sql`unnest(${keys.versionIds}::text[], ${keys.criteria}::text[], ${keys.flags}::text[], ${keys.likert}::text[], ${keys.points}::int[]) AS lk(version, ckey, fkey, lkey, points)`;
}

/**
 * Current single-mode reviews of the project, one row each: item, tid (trajectory), verdict,
 * rh, al, score. Use as a CTE body. `extraWhere` may refer to r, ci, c.
 */
export function reviewFactsSql(projectId: string, keys: RubricKeys, extraWhere: Prisma.Sql = Prisma.empty) {
  return Prisma.sql`
    SELECT ci.id AS item, ci."trajectoryId" AS tid, r.id AS review, r."submittedAt",
           CASE WHEN x.c LIKE '%": "fail"%' THEN 0 WHEN x.c LIKE '%": "pass"%' THEN 1 END AS verdict,
           coalesce(x.f ? 'reward_hacking', false) AS rh,
           coalesce(x.f ? 'answer_leakage', false) AS al,
           CASE WHEN jsonb_typeof(x.l) = 'number' AND lk.points > 1 THEN ((x.l)::text::float8 - 1) / (lk.points - 1) END AS score
    FROM review r
    JOIN campaign_item ci ON ci.id = r."campaignItemId"
    JOIN campaign c ON c.id = ci."campaignId"
    LEFT JOIN ${rubricKeysSql(keys)} ON lk.version = r."rubricVersionId"
    CROSS JOIN LATERAL (SELECT (r.answers -> lk.ckey)::text AS c, r.answers -> lk.fkey AS f, r.answers -> lk.lkey AS l) x
    WHERE r."isCurrent" AND c."projectId" = ${projectId} AND c.mode = 'single' ${extraWhere}`;
}

/** Verifier pass (lib/insight/review-verdict.ts VERIFIER_PASS_THRESHOLD): reward of at least 1. */
export const verifierPassSql = Prisma.sql`(tr."verifierReward" >= 1)`;

/**
 * Runs one aggregate over (up to) every review of a project with a larger sort/hash memory for
 * this statement only (SET LOCAL in its own transaction): at 1,000,000 reviews the default 4 MB
 * made the per-item hash aggregate and the review/item hash join spill to disk in batches.
 */
export const AGGREGATE_WORK_MEM = '128MB';
/** An aggregate over 1M reviews takes seconds; the interactive transaction's 5 s default is too short. */
export const AGGREGATE_TIMEOUT_MS = 120_000;

export async function aggregateQuery<T>(sql: Prisma.Sql): Promise<T[]> {
  return db().$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL work_mem = '${AGGREGATE_WORK_MEM}'`);
      return tx.$queryRaw<T[]>(sql);
    },
    { timeout: AGGREGATE_TIMEOUT_MS, maxWait: 10_000 },
  );
}

/** bigint / numeric / null from Postgres aggregates -> number. */
export function num(value: bigint | number | string | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return typeof value === 'number' ? value : Number(value);
}
