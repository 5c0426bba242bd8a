import { betterAuth } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { baseUrl, env, trustedOrigins } from '../env';
import { db } from '../db/client';

/**
 * better-auth: email + password sign-in, sessions stored in Postgres (the `session` table),
 * scrypt password hashes. Public sign-up is off: accounts come from `witness user create`,
 * an admin invite, or the demo seed. Witness calls its server API directly (sign-in and
 * sign-out are server actions; no catch-all auth route is mounted), so there is no public
 * sign-up endpoint to find. Telemetry is off (and there is no network to send it to).
 */
/** A session lasts a week; a request more than a day after it was last extended extends it (better-auth's updateAge). */
export const SESSION_EXPIRES_IN_S = 60 * 60 * 24 * 7;
export const SESSION_UPDATE_AGE_S = 60 * 60 * 24;

function createAuth() {
  const e = env();
  if (!e.WITNESS_SECRET) throw new Error('WITNESS_SECRET is not set (witness start generates one under the data dir)');
  return betterAuth({
    appName: 'Witness',
    baseURL: baseUrl(),
    secret: e.WITNESS_SECRET,
    trustedOrigins: trustedOrigins(),
    database: prismaAdapter(db(), { provider: 'postgresql' }),
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 10, maxPasswordLength: 200 },
    session: { expiresIn: SESSION_EXPIRES_IN_S, updateAge: SESSION_UPDATE_AGE_S },
    user: {
      additionalFields: {
        role: { type: 'string', required: false, input: false },
      },
    },
    advanced: { cookiePrefix: 'witness', useSecureCookies: baseUrl().startsWith('https:') },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;

const globalForAuth = globalThis as unknown as { witnessAuth?: Auth };

export function auth(): Auth {
  globalForAuth.witnessAuth ??= createAuth();
  return globalForAuth.witnessAuth;
}

/** The session cookie's name (as better-auth sets it with our prefix). */
export function sessionCookieName(): string {
  return `${baseUrl().startsWith('https:') ? '__Secure-' : ''}witness.session_token`;
}
