import { giveBackAttempt, takeBackoffAttempt, type BackoffRule } from './queries/backoff-attempts';
import { clearAttempts, countAttempt } from './queries/rate-limits';
import { AppError } from '../errors';

/**
 * Rate limits for what an attacker would try by the thousand: passwords, invitation tokens, API
 * token creation. Counted in PostgreSQL, so they hold across several web processes. A refusal
 * says when to try again (429 with Retry-After over the API).
 */
export interface LimitRule {
  name: string;
  max: number;
  windowMs: number;
}

const SECOND = 1000;
const MINUTE = 60_000;
export const limits = {
  /** invitation acceptances tried from one client address, and on one invitation */
  inviteClient: { name: 'invite:client', max: 10, windowMs: 15 * MINUTE },
  inviteToken: { name: 'invite:token', max: 5, windowMs: 15 * MINUTE },
  /** API tokens created by one user */
  tokenCreate: { name: 'token:create', max: 10, windowMs: 60 * MINUTE },
  /** wrong passwords for one account from any address, counted for the admin's alert only (never refuses) */
  signInAccountAlert: { name: 'sign-in:account-failures', max: 10, windowMs: 60 * MINUTE },
} satisfies Record<string, LimitRule>;

/**
 * The sign-in throttle (lib/auth/sign-in.ts): growing delays, never a lock-out. Each attempt
 * waits for its (account, address) pair's delay: the first 3 at once, then 2 s after the last,
 * doubling with each attempt (4 s, 8 s, …) up to 10 minutes; a success forgets the pair, and so
 * does an hour without attempts. Someone else's failures against an account never delay its
 * owner signing in from another address. One address trying many accounts waits too, from its
 * 30th attempt in the hour (its successes do not count). An account failing 10 times in an hour
 * (from any addresses) raises an alert the Admin page shows.
 */
export const signInBackoff = {
  pair: { name: 'sign-in:pair', free: 3, baseMs: 2 * SECOND, capMs: 10 * MINUTE, forgetMs: 60 * MINUTE },
  client: { name: 'sign-in:client', free: 30, baseMs: 2 * SECOND, capMs: 10 * MINUTE, forgetMs: 60 * MINUTE },
} satisfies Record<string, BackoffRule>;

/** Takes one attempt of `rule` for `subject`, or refuses (RATE_LIMITED) saying how long to wait. */
export async function takeBackoff(rule: BackoffRule, subject: string, now: Date, what: string): Promise<void> {
  const taken = await takeBackoffAttempt(rule, `${rule.name}:${subject}`, now);
  if (!taken.taken) throw refusal(rule.name, taken.retryAt, now, what);
}

/** Gives back the attempt takeBackoff took (a success that must not count). */
export async function giveBackBackoff(rule: BackoffRule, subject: string): Promise<void> {
  await giveBackAttempt(`${rule.name}:${subject}`);
}

/** Forgets `subject`'s attempts of `rule` (a success). */
export async function clearBackoff(rule: BackoffRule, subject: string): Promise<void> {
  await clearAttempts(`${rule.name}:${subject}`);
}

function refusal(limit: string, resetAt: Date, now: Date, what: string): AppError {
  const seconds = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
  return new AppError('RATE_LIMITED', `Too many ${what}. Try again in ${seconds} s.`, {
    details: { retryAfterSeconds: seconds, limit },
  });
}

/** Counts one attempt by `subject`; refuses when it goes over `rule`. */
export async function spendLimit(rule: LimitRule, subject: string, now: Date, what: string): Promise<void> {
  const w = await countAttempt(`${rule.name}:${subject}`, rule.windowMs, now);
  if (w.count > rule.max) throw refusal(rule.name, w.resetAt, now, what);
}

/** Counts one failure by `subject` (never refuses); returns the count in the window. */
export async function countFailure(rule: LimitRule, subject: string, now: Date): Promise<number> {
  return (await countAttempt(`${rule.name}:${subject}`, rule.windowMs, now)).count;
}

/**
 * The client's address: `X-Forwarded-For` as the studio's HTTP server rewrote it (one address,
 * resolved by lib/http/client-address.ts from the socket and WITNESS_TRUSTED_PROXIES; what a
 * client sends itself never gets through), else "direct" (a caller in this process, as in tests).
 * The sign-in throttle's pairs and per-address delays are keyed on it.
 */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  return (forwarded || 'direct').slice(0, 64);
}
