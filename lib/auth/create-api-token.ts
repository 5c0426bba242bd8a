import { z } from 'zod';
import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { generateApiToken } from './api-token';
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
    const [user, exists] = await Promise.all([findUserById(userId), projectExists(projectId)]);
    if (!user || !exists || roleInProject((await sessionUserFor(user, null)).access, projectId) === null)
      throw new AppError('NOT_FOUND', 'No such project', { details: { field: 'projectId' } });
  }
  const { token, hash, prefix } = generateApiToken();
  const expiresAt = valid.expiresInDays ? new Date(now.getTime() + valid.expiresInDays * 86_400_000) : null;
  const row = await insertApiToken({ userId, name: valid.name, prefix, tokenHash: hash, expiresAt, projectId }, (tx, created) =>
    writeAudit(tx, {
      actorId: userId,
      action: 'api_token.create',
      targetType: 'api_token',
      targetId: created.id,
      data: { name: valid.name, projectId },
      ...(projectId ? { projectId } : {}),
    }),
  );
  return { id: row.id, token, prefix };
}
