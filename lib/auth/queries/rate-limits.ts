import { db } from '../../db/client';

/**
 * Fixed-window attempt counters in PostgreSQL (table rate_limit), shared by every web process.
 * Each statement is one atomic upsert: concurrent attempts on one key never lose a count.
 */
export interface RateLimitWindow {
  count: number;
  resetAt: Date;
}

/** Counts one attempt on `key` in the current window (a window older than `windowMs` starts anew). */
export async function countAttempt(key: string, windowMs: number, now: Date): Promise<RateLimitWindow> {
  const rows = await db().$queryRaw<{ count: number; windowStart: Date }[]>`
    INSERT INTO rate_limit (key, "windowStart", count) VALUES (${key}, ${now}, 1)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limit."windowStart" <= ${new Date(now.getTime() - windowMs)} THEN 1 ELSE rate_limit.count + 1 END,
      "windowStart" = CASE WHEN rate_limit."windowStart" <= ${new Date(now.getTime() - windowMs)} THEN ${now} ELSE rate_limit."windowStart" END
    RETURNING count, "windowStart"`;
  const row = rows[0]!;
  return { count: row.count, resetAt: new Date(row.windowStart.getTime() + windowMs) };
}

/** The attempts counted on `key` in its current window (0 once the window has passed). */
export async function attemptsIn(key: string, windowMs: number, now: Date): Promise<RateLimitWindow> {
  const row = await db().rateLimit.findUnique({ where: { key }, select: { count: true, windowStart: true } });
  if (!row || row.windowStart.getTime() <= now.getTime() - windowMs) return { count: 0, resetAt: now };
  return { count: row.count, resetAt: new Date(row.windowStart.getTime() + windowMs) };
}

export async function clearAttempts(key: string): Promise<void> {
  await db().rateLimit.deleteMany({ where: { key } });
}

/** Drops windows that ended long ago (called now and then; a stale row is harmless, just kept). */
export async function pruneAttempts(olderThan: Date): Promise<number> {
  return (await db().rateLimit.deleteMany({ where: { windowStart: { lt: olderThan } } })).count;
}
