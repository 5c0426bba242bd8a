/**
 * How the insight pages read a single-mode review's answers (Review.answers, keyed by rubric
 * question id). The database queries compute the same with SQL/JSON path expressions
 * (lib/db/insight-sql.ts); the db tests check both agree.
 *
 * - Criteria: the `criteria` question's answer is the only object-valued answer, {criterionKey:
 *   "pass" | "fail"}. A reviewer PASSES the item when at least one criterion was judged and none
 *   failed; FAILS it when any criterion failed; gives no verdict when no criterion was judged.
 * - Flags: a `multi` question's answer is an array of option values; the item is flagged for
 *   reward hacking / answer leakage when any answer array holds "reward_hacking" /
 *   "answer_leakage" (the standard flag values of lib/review/rubric.ts).
 * - Likert: a `likert` question's answer is an integer 1..points; scores are normalised to 0..1
 *   as (score - 1) / (points - 1) so rubrics with 5- and 7-point scales can be pooled.
 */
export type ReviewVerdict = 'pass' | 'fail' | null;

export function reviewVerdict(answers: unknown): ReviewVerdict {
  if (!answers || typeof answers !== 'object' || Array.isArray(answers)) return null;
  let judged = false;
  for (const value of Object.values(answers)) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
    for (const v of Object.values(value)) {
      if (v === 'fail') return 'fail';
      if (v === 'pass') judged = true;
    }
  }
  return judged ? 'pass' : null;
}

export const insightFlags = ['reward_hacking', 'answer_leakage'] as const;
export type InsightFlag = (typeof insightFlags)[number];

export function hasFlag(answers: unknown, flag: InsightFlag): boolean {
  if (!answers || typeof answers !== 'object' || Array.isArray(answers)) return false;
  return Object.values(answers).some((v) => Array.isArray(v) && v.includes(flag));
}

export function normalisedLikert(score: number, points: number): number {
  return (score - 1) / (points - 1);
}

/** Verifier pass: the verifier's reward is at least 1 (full reward; partial credit is not a pass). */
export const VERIFIER_PASS_THRESHOLD = 1;
