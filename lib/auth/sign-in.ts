import { z } from 'zod';
import { AppError } from '../errors';
import { recordAudit } from '../db/auth/audit';
import { findActiveUser } from '../db/auth/users';
import { assertUnderLimit, clearLimit, clientAddress, countFailure, limits } from './rate-limit';
import type { SessionUser, UserRecord } from './session-user';
import { sessionUserFor } from '../db/auth/memberships';
import { auth } from './better-auth';
import { parseInput } from '../parse-input';

export const signInInput = z.object({
  email: z.email('Enter your email address').transform((e) => e.trim().toLowerCase()),
  password: z.string().min(1, 'Enter your password').max(200),
});

/**
 * Checks email + password through better-auth, which creates the session row and answers
 * with the Set-Cookie headers for the caller's edge to pass on. Wrong credentials give one
 * message that does not say which part was wrong, and no session.
 */
export async function signIn(
  input: unknown,
  requestHeaders: Headers,
  now: Date = new Date(),
): Promise<{ user: UserRecord; setCookies: string[] }> {
  const valid = parseInput(signInInput, input, '');
  // better-auth's own limiter guards only its HTTP handler, which Witness does not route through
  const account = valid.email;
  const client = clientAddress(requestHeaders);
  await assertUnderLimit(limits.signInAccount, account, now, 'failed sign-ins for this account');
  await assertUnderLimit(limits.signInClient, client, now, 'failed sign-ins from your address');
  let result;
  try {
    result = await auth().api.signInEmail({ body: valid, headers: requestHeaders, returnHeaders: true });
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 401 || status === 400 || status === 403) {
      await countFailure(limits.signInAccount, account, now);
      await countFailure(limits.signInClient, client, now);
      throw new AppError('UNAUTHENTICATED', 'Wrong email or password.');
    }
    throw error;
  }
  await clearLimit(limits.signInAccount, account);
  const user = await findActiveUser(result.response.user.id);
  if (!user) {
    await auth()
      .api.signOut({ headers: cookieHeaders(result.headers.getSetCookie()) })
      .catch(() => {});
    throw new AppError('UNAUTHENTICATED', 'This account is disabled. Ask an admin.');
  }
  await recordAudit({ actorId: user.id, action: 'session.sign_in', targetType: 'user', targetId: user.id });
  return { user, setCookies: result.headers.getSetCookie() };
}

function cookieHeaders(setCookies: string[]): Headers {
  const cookie = setCookies.map((c) => c.split(';')[0]).join('; ');
  return new Headers({ cookie });
}

/** Ends the session named by the request's cookie (deletes its row). */
export async function signOut(requestHeaders: Headers): Promise<string[]> {
  try {
    const result = await auth().api.signOut({ headers: requestHeaders, returnHeaders: true });
    return result.headers.getSetCookie();
  } catch {
    return [];
  }
}

/** The signed-in user for a request's cookies, or null. */
export async function sessionUserFromHeaders(requestHeaders: Headers): Promise<SessionUser | null> {
  const session = await auth().api.getSession({ headers: requestHeaders });
  if (!session) return null;
  const user = await findActiveUser(session.user.id);
  return user ? sessionUserFor(user, null) : null;
}
