import type { ProjectRole } from '../project-access';
import type { UserRecord } from '../session-user';
import { db } from '../../db/client';
import { at, sql } from '../../db/sql';

/** Deletes expired sessions; returns how many. */
export async function deleteExpiredSessions(now: Date): Promise<number> {
  const result = await db().session.deleteMany({ where: { expiresAt: { lt: now } } });
  return result.count;
}

export async function countSessionsForUser(userId: string): Promise<number> {
  return db().session.count({ where: { userId } });
}

/**
 * The active user of a live session, with their project memberships, in one statement (plain
 * SQL on the pool: every studio page and API call runs it). Null when the token names no
 * session, the session has expired, or the user is disabled.
 */
export async function findSessionUser(
  token: string,
  now: Date,
): Promise<{ user: UserRecord; memberships: { projectId: string; role: ProjectRole }[]; expiresAt: Date } | null> {
  const rows = await sql<UserRecord & { expiresAt: Date; memberships: { projectId: string; role: ProjectRole }[] }>(
    `SELECT u.id, u.email, u.name, u.role::text AS role, u.expertise, s."expiresAt",
            coalesce((SELECT json_agg(json_build_object('projectId', m."projectId", 'role', m.role::text) ORDER BY m."projectId")
                      FROM project_member m WHERE m."userId" = u.id), '[]') AS memberships
     FROM session s JOIN "user" u ON u.id = s."userId"
     WHERE s.token = $1 AND s."expiresAt" > $2::timestamp AND u."disabledAt" IS NULL`,
    [token, at(now)],
  );
  const r = rows[0];
  if (!r) return null;
  const { memberships, expiresAt, ...user } = r;
  return { user, memberships, expiresAt };
}
