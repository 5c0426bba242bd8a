import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../errors';
import { recordAudit } from './queries/audit';
import { SIGN_IN_ALERT_ACTION } from './queries/sign-in-alerts';
import { findActiveUser, findUserByEmail } from './queries/users';
import { clearBackoff, clientAddress, countFailure, giveBackBackoff, limits, signInBackoff, takeBackoff } from './rate-limit';
import type { SessionUser, UserRecord } from './session-user';
import { sessionUserFor } from './queries/memberships';
import { auth, SESSION_EXPIRES_IN_S, SESSION_UPDATE_AGE_S, sessionCookieName } from './better-auth';
import { findSessionUser } from './queries/sessions';
import { env } from '../env';
import { projectAccess } from './project-access';
import { parseInput } from '../parse-input';

export const signInInput = z.object({
  email: z.email('Enter your email address').transform((e) => e.trim().toLowerCase()),
  password: z.string().min(1, 'Enter your password').max(200),
});

/**
 * Checks email + password through better-auth, which creates the session row and answers
 * with the Set-Cookie headers for the caller's edge to pass on. Wrong credentials give one
 * message that does not say which part was wrong, and no session.
 *
 * Throttled, never locked (lib/auth/rate-limit.ts's signInBackoff): each attempt waits for its
 * (account, client address) pair's growing delay and its address's looser one, else RATE_LIMITED
 * saying when to try again, before the password is even checked. The owner of an account signs
 * in from their own address whatever others guessed elsewhere. An account failing
 * limits.signInAccountAlert.max times in its window raises a `sign_in.failures` audit entry,
 * which the Admin page lists (lib/auth/queries/sign-in-alerts.ts).
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
  const pair = `${account}|${client}`;
  await takeBackoff(signInBackoff.client, client, now, 'sign-in attempts from your address');
  try {
    await takeBackoff(signInBackoff.pair, pair, now, 'failed sign-ins for this account from your address');
  } catch (error) {
    await giveBackBackoff(signInBackoff.client, client); // not tried: does not count against the address
    throw error;
  }
  let result;
  try {
    result = await auth().api.signInEmail({ body: valid, headers: requestHeaders, returnHeaders: true });
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 401 || status === 400 || status === 403) {
      await alertOnRepeatedFailures(account, client, now);
      throw new AppError('UNAUTHENTICATED', 'Wrong email or password.');
    }
    throw error;
  }
  await clearBackoff(signInBackoff.pair, pair);
  await giveBackBackoff(signInBackoff.client, client);
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

/** Counts a wrong password for the account (any address); the one that reaches the alert's count records the alert. */
async function alertOnRepeatedFailures(account: string, client: string, now: Date): Promise<void> {
  const rule = limits.signInAccountAlert;
  if ((await countFailure(rule, account, now)) !== rule.max) return;
  const user = await findUserByEmail(account);
  if (!user) return; // guesses at addresses that are no account: the per-address delay is their answer
  await recordAudit({
    actorId: null,
    action: SIGN_IN_ALERT_ACTION,
    targetType: 'user',
    targetId: user.id,
    data: { email: account, failures: rule.max, windowMinutes: rule.windowMs / 60_000, lastAddress: client },
  });
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

/**
 * The signed-in user for a request's cookies, or null. The session cookie is better-auth's signed
 * token (`token.base64(HMAC-SHA256(secret, token))`, URL-encoded); a valid one is looked up with
 * its user and memberships in one statement (findSessionUser). Anything else (no cookie, a bad
 * signature, an unknown or expired session, a disabled user) and a session due for its daily
 * extension go through better-auth's own getSession, which extends or deletes the row as it
 * always has: the fast path answers exactly what that path answers, in one round trip instead
 * of three (better-auth's session + user, the active-user check, the memberships).
 */
export async function sessionUserFromHeaders(requestHeaders: Headers, now: Date = new Date()): Promise<SessionUser | null> {
  const token = signedSessionToken(requestHeaders.get('cookie'));
  if (token) {
    const found = await findSessionUser(token, now);
    const extendFrom = found ? found.expiresAt.getTime() - SESSION_EXPIRES_IN_S * 1000 + SESSION_UPDATE_AGE_S * 1000 : 0;
    if (found && extendFrom > now.getTime()) {
      return { ...found.user, access: projectAccess(found.user.role, found.memberships, null) };
    }
  }
  const session = await auth().api.getSession({ headers: requestHeaders });
  if (!session) return null;
  const user = await findActiveUser(session.user.id);
  return user ? sessionUserFor(user, null) : null;
}

/** The session token of a cookie header whose signature checks out, else null (better-call's signed-cookie rule). */
export function signedSessionToken(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  const value = cookieValue(cookieHeader, sessionCookieName());
  if (!value) return null;
  const dot = value.lastIndexOf('.');
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith('=')) return null;
  // no secret: better-auth refuses to start (its clear error), so never check against an empty key
  const secret = env().WITNESS_SECRET;
  if (!secret) return null;
  const expected = createHmac('sha256', secret).update(token).digest();
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

/** The first cookie of that name in a Cookie header, unquoted and URL-decoded (as better-call parses it); null when absent. */
function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"')) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return null;
}
