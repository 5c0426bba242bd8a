/**
 * How the insight pages read a single-mode review's answers (Review.answers, keyed by rubric
 * question id). The database queries compute the same in SQL (lib/insight/queries/insight-sql.ts); the db
 * tests check both agree. Keys come from the review's rubric version:
 *
 * - Criteria: the `criteria` question's answer, {criterionKey: "pass" | "fail"}. A reviewer
 *   PASSES the item when at least one criterion was judged and none failed; FAILS it when any
 *   criterion failed; gives no verdict when no criterion was judged.
 * - Flags: the rubric's flags question (the first `multi` question offering reward_hacking or
 *   answer_leakage); the item is flagged when that answer holds the flag's value.
 * - Likert: the first `likert` question, an integer 1..points, normalised to 0..1 as
 *   (score - 1) / (points - 1) so that 5- and 7-point scales pool.
 */
export type ReviewVerdict = 'pass' | 'fail' | null;

export function answerOf(answers: unknown, key: string | null): unknown {
  if (key === null || !answers || typeof answers !== 'object' || Array.isArray(answers)) return undefined;
  return (answers as Record<string, unknown>)[key];
}

export function reviewVerdict(answers: unknown, criteriaKey: string | null): ReviewVerdict {
  const value = answerOf(answers, criteriaKey);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const verdicts = Object.values(value);
  if (verdicts.includes('fail')) return 'fail';
  return verdicts.includes('pass') ? 'pass' : null;
}

export const insightFlags = ['reward_hacking', 'answer_leakage'] as const;
export type InsightFlag = (typeof insightFlags)[number];

export function hasFlag(answers: unknown, flagsKey: string | null, flag: InsightFlag): boolean {
  const value = answerOf(answers, flagsKey);
  return Array.isArray(value) && value.includes(flag);
}

export function normalisedLikert(score: number, points: number): number {
  return (score - 1) / (points - 1);
}

/** Verifier pass: the verifier's reward is at least 1 (full reward; partial credit is not a pass). */
export const VERIFIER_PASS_THRESHOLD = 1;
