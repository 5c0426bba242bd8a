import { deleteExpiredSessions } from './queries/sessions';

/** The `sessions.prune` job's work: deletes the sessions expired by `now`, returns how many (idempotent). */
export async function pruneExpiredSessions(now: Date): Promise<number> {
  return deleteExpiredSessions(now);
}
