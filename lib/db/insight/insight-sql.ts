import { Prisma } from '@prisma/client';

/**
 * SQL pieces shared by the insight queries. They read `trajectory_insight` (one row per
 * labelled trajectory, kept by lib/db/insight/insight-summary.ts at each submit), never the reviews'
 * answers: at 1,000,000 reviews a page reads ~50,000 small rows instead of 1,000,000 JSON
 * documents (bench/insight.bench.ts).
 *
 * Plan (EXPLAIN ANALYZE at 1M reviews, bench/out/insight-explain.txt): trajectory_insight read
 * once for the project (a parallel sequential scan in the bench, where the project is the whole
 * table; trajectory_insight_projectId_idx when it is a small part), hash joins to trajectory and
 * task, one hash aggregate: 165 ms. No review, campaign item or answer is read. The per-policy
 * queries of the compare page use trajectory_policyId_idx.
 */

/** A trajectory's reviewer verdict: the majority of its reviews' verdicts (a tie is none). */
export const humanPassSql = Prisma.sql`(ti."passVotes" > ti."failVotes")`;
export const humanJudgedSql = Prisma.sql`(ti."passVotes" <> ti."failVotes")`;
export const humanFailSql = Prisma.sql`(ti."passVotes" < ti."failVotes")`;

/** Verifier pass (lib/insight/review-verdict.ts VERIFIER_PASS_THRESHOLD): reward of at least 1. */
export const verifierPassSql = Prisma.sql`(tr."verifierReward" >= 1)`;

/** bigint / numeric / null from Postgres aggregates -> number. */
export function num(value: bigint | number | string | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return typeof value === 'number' ? value : Number(value);
}
