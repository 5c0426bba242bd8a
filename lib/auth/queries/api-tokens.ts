import { z } from 'zod';
import { generateApiToken, hashApiToken, looksLikeApiToken } from '../api-token';
import { projectAccess, roleInProject, type ProjectRole } from '../project-access';
import type { SessionUser } from '../session-user';
import { sessionUserFor } from './memberships';
import { AppError } from '../../errors';
import { db } from '../../db/client';
import { at, sql } from '../../db/sql';
import { writeAudit } from './audit';
import { parseInput } from '../../parse-input';

export const createApiTokenInput = z.object({
  name: z.string().trim().min(1, 'a name for the token').max(80),
  expiresInDays: z.number().int().min(1).max(3650).nullable().default(null),
  /** narrow the token to one of the user's projects (null: every project the user reaches) */
  projectId: z.string().trim().min(1).max(64).nullable().default(null),
});

/**
 * Creates a token for the user; the plain token is returned once and never stored. Narrowed to
 * a project, it reaches only that one (which must be one the user reaches: else NOT_FOUND).
 */
export async function createApiToken(
  userId: string,
  input: z.input<typeof createApiTokenInput>,
  now: Date = new Date(),
): Promise<{ id: string; token: string; prefix: string }> {
  const valid = parseInput(createApiTokenInput, input, '');
  const projectId = valid.projectId;
  if (projectId !== null) {
    const [user, exists] = await Promise.all([
      db().user.findUnique({ where: { id: userId }, select: { id: true, email: true, name: true, role: true, expertise: true } }),
      db().project.findUnique({ where: { id: projectId }, select: { id: true } }),
    ]);
    if (!user || !exists || roleInProject((await sessionUserFor(user, null)).access, projectId) === null)
      throw new AppError('NOT_FOUND', 'No such project', { details: { field: 'projectId' } });
  }
  const { token, hash, prefix } = generateApiToken();
  const expiresAt = valid.expiresInDays ? new Date(now.getTime() + valid.expiresInDays * 86_400_000) : null;
  const row = await db().$transaction(async (tx) => {
    const created = await tx.apiToken.create({
      data: { userId, name: valid.name, prefix, tokenHash: hash, expiresAt, projectId },
      select: { id: true },
    });
    await writeAudit(tx, {
      actorId: userId,
      action: 'api_token.create',
      targetType: 'api_token',
      targetId: created.id,
      data: { name: valid.name, projectId },
      ...(projectId ? { projectId } : {}),
    });
    return created;
  });
  return { id: row.id, token, prefix };
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
    user: { id: string; email: string; name: string; role: SessionUser['role']; expertise: string[]; disabledAt: string | null };
    memberships: { projectId: string; role: ProjectRole }[];
  }>(
    `WITH found AS (
       SELECT t.id, t."revokedAt", t."expiresAt", t."lastUsedAt", t."projectId", t."userId", u."disabledAt",
              json_build_object('id', u.id, 'email', u.email, 'name', u.name, 'role', u.role, 'expertise', u.expertise, 'disabledAt', u."disabledAt") AS user
       FROM api_token t JOIN "user" u ON u.id = t."userId"
       WHERE t."tokenHash" = $1
     ), touched AS (
       UPDATE api_token SET "lastUsedAt" = $2::timestamp
       WHERE id = (SELECT id FROM found WHERE "revokedAt" IS NULL AND ("expiresAt" IS NULL OR "expiresAt" > $2::timestamp) AND "disabledAt" IS NULL
                     AND ("lastUsedAt" IS NULL OR "lastUsedAt" < $3::timestamp))
       RETURNING id
     )
     SELECT f.id, f."revokedAt", f."expiresAt", f."projectId", f.user,
            COALESCE((SELECT json_agg(json_build_object('projectId', m."projectId", 'role', m.role)) FROM project_member m WHERE m."userId" = f."userId"), '[]') AS memberships,
            (SELECT count(*) FROM touched)::int AS touched
     FROM found f`,
    [hashApiToken(token), at(now), at(new Date(now.getTime() - 60_000))],
  );
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now) || row.user.disabledAt) return null;
  const { disabledAt: _disabled, ...user } = row.user;
  // as sessionUserFor: admins reach every project with no membership rows
  return { ...user, access: projectAccess(user.role, user.role === 'admin' ? [] : row.memberships, row.projectId) };
}

export async function listApiTokens(userId: string) {
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
      project: { select: { slug: true, name: true } },
    },
    orderBy: { createdAt: 'desc' },
  });
}

/** Revokes one of the user's own tokens (scoped: a user cannot revoke another's). */
export async function revokeApiToken(userId: string, tokenId: string, now: Date = new Date()): Promise<void> {
  await db().$transaction(async (tx) => {
    const result = await tx.apiToken.updateMany({ where: { id: tokenId, userId, revokedAt: null }, data: { revokedAt: now } });
    if (result.count === 0) throw new AppError('NOT_FOUND', 'No such active token');
    await writeAudit(tx, { actorId: userId, action: 'api_token.revoke', targetType: 'api_token', targetId: tokenId });
  });
}
