import { z } from 'zod';
import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { generateApiToken, tokenScopeSchema, type TokenScope } from './api-token';
import { roleInProject } from './project-access';
import { insertApiToken } from './queries/api-tokens';
import { writeAudit } from './queries/audit';
import { projectExists, sessionUserFor } from './queries/memberships';
import { findUserById } from './queries/users';

export const createApiTokenInput = z.object({
  name: z.string().trim().min(1, 'a name for the token').max(80),
  expiresInDays: z.number().int().min(1).max(3650).nullable().default(null),
  /** narrow the token to one of the user's projects (null: every project the user reaches) */
  projectId: z.string().trim().min(1).max(64).nullable().default(null),
  /** what the token may do (api-token.ts's tokenScopeSchema); `training` is for leads and admins only */
  scope: tokenScopeSchema.default('all'),
});

/**
 * Creates a token for the user; the plain token is returned once and never stored. Narrowed to
 * a project, it reaches only that one (which must be one the user reaches: else NOT_FOUND). A
 * `training` token is for leads and admins only (FORBIDDEN for a reviewer).
 */
export async function createApiToken(
  userId: string,
  input: z.input<typeof createApiTokenInput>,
  now: Date = new Date(),
): Promise<{ id: string; token: string; prefix: string; scope: TokenScope }> {
  const valid = parseInput(createApiTokenInput, input, '');
  const projectId = valid.projectId;
  if (projectId !== null || valid.scope === 'training') {
    const [user, exists] = await Promise.all([findUserById(userId), projectId === null || projectExists(projectId)]);
    if (projectId !== null && (!user || !exists || roleInProject((await sessionUserFor(user, null)).access, projectId) === null))
      throw new AppError('NOT_FOUND', 'No such project', { details: { field: 'projectId' } });
    if (valid.scope === 'training' && user?.role !== 'lead' && user?.role !== 'admin')
      throw new AppError('FORBIDDEN', "Only leads and admins may hold a 'training' token.", { details: { field: 'scope' } });
  }
  const { token, hash, prefix } = generateApiToken();
  const expiresAt = valid.expiresInDays ? new Date(now.getTime() + valid.expiresInDays * 86_400_000) : null;
  const row = await insertApiToken(
    { userId, name: valid.name, prefix, tokenHash: hash, expiresAt, projectId, scope: valid.scope },
    (tx, created) =>
      writeAudit(tx, {
        actorId: userId,
        action: 'api_token.create',
        targetType: 'api_token',
        targetId: created.id,
        data: { name: valid.name, projectId, scope: valid.scope },
        ...(projectId ? { projectId } : {}),
      }),
  );
  return { id: row.id, token, prefix, scope: valid.scope };
}
