import { db } from '../../db/client';

/**
 * Growing-delay attempt counters (lib/auth/rate-limit.ts's backoff rules, the sign-in throttle)
 * in the same table as the fixed windows (rate_limit, lib/auth/queries/rate-limits.ts), on keys of
 * their own. For these rows `windowStart` is the time of the last attempt let through and
 * `count` the attempts since the counter was last forgotten: the next one waits
 * `delayMs(count)` after the last, and a key left alone for `forgetMs` starts from zero.
 */
export interface BackoffRule {
  name: string;
  /** attempts let through at once before any wait */
  free: number;
  /** the first wait; each attempt after doubles it */
  baseMs: number;
  /** the longest wait */
  capMs: number;
  /** a key idle this long is forgotten (longer than capMs, or waiting the cap would reset it) */
  forgetMs: number;
}

/** The wait after `count` attempts before the next one (0 while free ones are left). */
export function backoffDelayMs(rule: BackoffRule, count: number): number {
  return count < rule.free ? 0 : Math.min(rule.capMs, rule.baseMs * 2 ** (count - rule.free));
}

/**
 * Takes one attempt on `key` when its wait has passed (counted at once, in one atomic upsert, so
 * that concurrent attempts each see the ones before: a burst gets no more than the free ones),
 * else nothing is counted and the answer says when the next is due.
 */
export async function takeBackoffAttempt(
  rule: BackoffRule,
  key: string,
  now: Date,
): Promise<{ taken: true; count: number } | { taken: false; retryAt: Date }> {
  const forgetBefore = new Date(now.getTime() - rule.forgetMs);
  const rows = await db().$queryRaw<{ count: number }[]>`
    INSERT INTO rate_limit (key, "windowStart", count) VALUES (${key}, ${now}, 1)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limit."windowStart" <= ${forgetBefore} THEN 1 ELSE rate_limit.count + 1 END,
      "windowStart" = ${now}
    WHERE rate_limit."windowStart" <= ${forgetBefore}
       OR rate_limit.count < ${rule.free}::int
       OR rate_limit."windowStart"
          + LEAST(${rule.capMs}::float8, ${rule.baseMs}::float8 * power(2::float8, (rate_limit.count - ${rule.free}::int)::float8))
          * interval '1 millisecond' <= ${now}
    RETURNING count`;
  if (rows[0]) return { taken: true, count: rows[0].count };
  const row = await db().rateLimit.findUnique({ where: { key }, select: { count: true, windowStart: true } });
  // gone in between (cleared by a success): due now
  if (!row) return { taken: false, retryAt: now };
  return { taken: false, retryAt: new Date(row.windowStart.getTime() + backoffDelayMs(rule, row.count)) };
}

/** Gives back one attempt taken on `key` (a success that must not count against the others behind it). */
export async function giveBackAttempt(key: string): Promise<void> {
  await db().$executeRaw`UPDATE rate_limit SET count = GREATEST(count - 1, 0) WHERE key = ${key}`;
}
