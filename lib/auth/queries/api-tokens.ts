import { hashApiToken, looksLikeApiToken, tokenScopeSchema, type TokenScope } from '../api-token';
import { projectAccess, type ProjectRole } from '../project-access';
import type { SessionUser } from '../session-user';
import { db } from '../../db/client';
import { at, sql } from '../../db/sql';
import type { AuditStep } from './audit';

/** Writes a token (only its hash and prefix) and the caller's audit entry, in one transaction. */
export async function insertApiToken(
  token: {
    userId: string;
    name: string;
    prefix: string;
    tokenHash: string;
    expiresAt: Date | null;
    projectId: string | null;
    scope: TokenScope;
  },
  audit: AuditStep<{ id: string }>,
): Promise<{ id: string }> {
  return db().$transaction(async (tx) => {
    const created = await tx.apiToken.create({ data: token, select: { id: true } });
    await audit(tx, created);
    return created;
  });
}

/** The user a token acts as, or null for an unknown, revoked or expired token, or a disabled user. */
export async function userForApiToken(token: string, now: Date = new Date()): Promise<SessionUser | null> {
  if (!looksLikeApiToken(token)) return null;
  // one statement, one round trip (every API request authenticates with it): the token, its user, the user's
  // memberships (sessionUserFor would read them in a second one), and the lastUsedAt touch of a valid token,
  // at most once a minute so busy clients don't write on every call. Nothing is cached: a revocation holds
  // from the next request on.
  const [row] = await sql<{
    id: string;
    revokedAt: Date | null;
    expiresAt: Date | null;
    projectId: string | null;
    scope: string;
    user: { id: string; email: string; name: string; role: SessionUser['role']; expertise: string[]; disabledAt: string | null };
    memberships: { projectId: string; role: ProjectRole }[];
  }>(
    `WITH found AS (
       SELECT t.id, t."revokedAt", t."expiresAt", t."lastUsedAt", t."projectId", t.scope, t."userId", u."disabledAt",
              json_build_object('id', u.id, 'email', u.email, 'name', u.name, 'role', u.role, 'expertise', u.expertise, 'disabledAt', u."disabledAt") AS user
       FROM api_token t JOIN "user" u ON u.id = t."userId"
       WHERE t."tokenHash" = $1
     ), touched AS (
       UPDATE api_token SET "lastUsedAt" = $2::timestamp
       WHERE id = (SELECT id FROM found WHERE "revokedAt" IS NULL AND ("expiresAt" IS NULL OR "expiresAt" > $2::timestamp) AND "disabledAt" IS NULL
                     AND ("lastUsedAt" IS NULL OR "lastUsedAt" < $3::timestamp))
       RETURNING id
     )
     SELECT f.id, f."revokedAt", f."expiresAt", f."projectId", f.scope, f.user,
            COALESCE((SELECT json_agg(json_build_object('projectId', m."projectId", 'role', m.role)) FROM project_member m WHERE m."userId" = f."userId"), '[]') AS memberships,
            (SELECT count(*) FROM touched)::int AS touched
     FROM found f`,
    [hashApiToken(token), at(now), at(new Date(now.getTime() - 60_000))],
  );
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now) || row.user.disabledAt) return null;
  const { disabledAt: _disabled, ...user } = row.user;
  // as sessionUserFor: admins reach every project with no membership rows
  // an unknown scope (none the CHECK allows) reads as the narrowest
  const scope = tokenScopeSchema.catch('read').parse(row.scope);
  return {
    ...user,
    access: projectAccess(user.role, user.role === 'admin' ? [] : row.memberships, row.projectId),
    token: { id: row.id, scope },
  };
}

/** The user's own tokens, newest first. */
export async function apiTokensOfUser(userId: string) {
  return db().apiToken.findMany({
    where: { userId },
    select: {
      id: true,
      name: true,
      prefix: true,
      createdAt: true,
      lastUsedAt: true,
      expiresAt: true,
      revokedAt: true,
      scope: true,
      project: { select: { slug: true, name: true } },
    },
    orderBy: { createdAt: 'desc' },
  });
}

/**
 * Revokes one of the user's own active tokens (scoped: a user cannot revoke another's) with the
 * caller's audit entry, in one transaction; false when they have no such active token (nothing written).
 */
export async function revokeOwnApiToken(userId: string, tokenId: string, now: Date, audit: AuditStep): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const result = await tx.apiToken.updateMany({ where: { id: tokenId, userId, revokedAt: null }, data: { revokedAt: now } });
    if (result.count === 0) return false;
    await audit(tx);
    return true;
  });
}
