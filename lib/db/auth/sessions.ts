import { db } from '../infra/client';

/** Deletes expired sessions; returns how many. Used by the `sessions.prune` job. */
export async function pruneExpiredSessions(now: Date): Promise<number> {
  const result = await db().session.deleteMany({ where: { expiresAt: { lt: now } } });
  return result.count;
}

export async function countSessionsForUser(userId: string): Promise<number> {
  return db().session.count({ where: { userId } });
}
