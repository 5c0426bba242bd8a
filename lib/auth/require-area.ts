import { AppError } from '../errors';
import { canAccess, type Area } from './roles';
import type { SessionUser } from './session-user';

/** The role guard of a use-case: FORBIDDEN unless the user's role reaches `area` (lib/auth/roles.ts). */
export function requireArea(user: Pick<SessionUser, 'role'>, area: Area): void {
  if (!canAccess(user.role, area)) throw new AppError('FORBIDDEN', 'Your role cannot do this.');
}
