import { apiTokensOfUser } from './queries/api-tokens';
import type { SessionUser } from './session-user';

/** The signed-in user's own API tokens, newest first (revoked ones too): nobody lists another's. */
export async function listApiTokens(user: SessionUser) {
  return apiTokensOfUser(user.id);
}
