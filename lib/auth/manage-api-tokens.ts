import { z } from 'zod';
import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { projectBySlug } from '../trajectories/queries/projects';
import { projectSlugSchema } from '../trajectories/project-schemas';
import { tokenScopeSchema, type TokenScope } from './api-token';
import { createApiToken } from './create-api-token';
import { revokeApiToken } from './revoke-api-token';
import { apiTokensOfUser } from './queries/api-tokens';
import { findUserByEmail } from './queries/users';

/**
 * API tokens made, listed and revoked from a terminal by an admin (`witness token`), for a user
 * named by email, with no browser: the same use-cases as the tokens page (create-api-token.ts,
 * revoke-api-token.ts), so the same checks and audit entries (by the token's user).
 */
export const tokenForEmailInput = z.object({
  user: z.string().trim().toLowerCase().email('an email address').max(200),
  name: z.string().trim().min(1).max(80).default('agent'),
  scope: tokenScopeSchema.default('all'),
  project: projectSlugSchema.nullable().default(null),
  expiresInDays: z.number().int().min(1).max(3650).nullable().default(null),
});

async function userNamed(email: string) {
  const user = await findUserByEmail(email);
  if (!user) throw new AppError('NOT_FOUND', `No user with email ${email}`, { details: { field: 'user' } });
  return user;
}

/** A new token for the user (NOT_FOUND: no such user or project; FORBIDDEN: a training token for a reviewer). */
export async function createApiTokenForEmail(
  raw: z.input<typeof tokenForEmailInput>,
): Promise<{ id: string; token: string; prefix: string; scope: TokenScope; user: string; project: string | null }> {
  const input = parseInput(tokenForEmailInput, raw, '');
  const user = await userNamed(input.user);
  let projectId: string | null = null;
  if (input.project !== null) {
    const project = await projectBySlug(input.project);
    if (!project) throw new AppError('NOT_FOUND', `No project named ${input.project}`, { details: { field: 'project' } });
    projectId = project.id;
  }
  const created = await createApiToken(user.id, { name: input.name, projectId, scope: input.scope, expiresInDays: input.expiresInDays });
  return { ...created, user: user.email, project: input.project };
}

/** The user's tokens, newest first (revoked ones too). */
export async function listApiTokensForEmail(email: string) {
  const user = await userNamed(parseInput(tokenForEmailInput.shape.user, email, 'user'));
  const tokens = await apiTokensOfUser(user.id);
  return tokens.map((t) => ({
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    scope: t.scope,
    project: t.project?.slug ?? null,
    createdAt: t.createdAt.toISOString(),
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
    expiresAt: t.expiresAt?.toISOString() ?? null,
    revokedAt: t.revokedAt?.toISOString() ?? null,
  }));
}

/** Revokes one of the user's active tokens (NOT_FOUND when they have no such active token). */
export async function revokeApiTokenForEmail(email: string, tokenId: string): Promise<void> {
  const user = await userNamed(parseInput(tokenForEmailInput.shape.user, email, 'user'));
  await revokeApiToken(user.id, parseInput(z.string().trim().min(1).max(64), tokenId, 'id'));
}
