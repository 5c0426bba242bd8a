import { AppError } from '../errors';
import { userForApiToken } from './queries/api-tokens';
import type { SessionUser } from './session-user';

/** The user a bearer token acts as; UNAUTHENTICATED for an unknown, revoked or expired token, or a disabled user. */
export async function authenticateApiToken(token: string, now: Date = new Date()): Promise<SessionUser> {
  const user = await userForApiToken(token, now);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Unknown, revoked or expired API token.');
  return user;
}
