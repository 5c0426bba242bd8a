import { AppError } from '../errors';
import { revokeOwnApiToken } from './queries/api-tokens';
import { writeAudit } from './queries/audit';

/** Revokes one of the user's own tokens (scoped: a user cannot revoke another's); NOT_FOUND when they have no such active token. */
export async function revokeApiToken(userId: string, tokenId: string, now: Date = new Date()): Promise<void> {
  const revoked = await revokeOwnApiToken(userId, tokenId, now, (tx) =>
    writeAudit(tx, { actorId: userId, action: 'api_token.revoke', targetType: 'api_token', targetId: tokenId }),
  );
  if (!revoked) throw new AppError('NOT_FOUND', 'No such active token');
}
