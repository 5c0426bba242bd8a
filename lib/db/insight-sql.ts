import { Prisma } from '@prisma/client';

/**
 * SQL pieces shared by the insight queries: a review's verdict and flags read from its answers
 * with SQL/JSON path (strict mode), evaluated in Postgres so that 1,000,000 reviews never reach
 * Node. Same rules as lib/insight/review-verdict.ts (the db tests check they agree):
 * - verdict: 0 when any criterion answer (an object-valued answer) holds "fail"; 1 when some
 *   criterion holds "pass" and none "fail"; NULL when no criterion was judged;
 * - flags: some multi-choice answer (an array) holds "reward_hacking" / "answer_leakage".
 */
export const reviewVerdictSql = Prisma.sql`CASE
  WHEN r.answers @? 'strict $.* ? (@.type() == "object").* ? (@ == "fail")' THEN 0
  WHEN r.answers @? 'strict $.* ? (@.type() == "object").* ? (@ == "pass")' THEN 1
END`;
export const rewardHackingSql = Prisma.sql`(r.answers @? 'strict $.* ? (@.type() == "array")[*] ? (@ == "reward_hacking")')`;
export const answerLeakageSql = Prisma.sql`(r.answers @? 'strict $.* ? (@.type() == "array")[*] ? (@ == "answer_leakage")')`;

/** Verifier pass (lib/insight/review-verdict.ts VERIFIER_PASS_THRESHOLD): reward of at least 1. */
export const verifierPassSql = Prisma.sql`(tr."verifierReward" >= 1)`;

/** bigint / numeric / null from Postgres aggregates -> number. */
export function num(value: bigint | number | string | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return typeof value === 'number' ? value : Number(value);
}
