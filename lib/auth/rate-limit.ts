import { attemptsIn, clearAttempts, countAttempt } from '../db/auth/rate-limits';
import { AppError } from '../errors';

/**
 * Rate limits for what an attacker would try by the thousand: passwords (per account and per
 * client address), invitation tokens, API token creation. Counted in PostgreSQL, so they hold
 * across several web processes. A refusal says when to try again.
 */
export interface LimitRule {
  name: string;
  max: number;
  windowMs: number;
}

const MINUTE = 60_000;
export const limits = {
  /** wrong passwords for one account: the right one is refused too once these are spent */
  signInAccount: { name: 'sign-in:account', max: 5, windowMs: 15 * MINUTE },
  /** wrong passwords from one client address, whatever the accounts */
  signInClient: { name: 'sign-in:client', max: 30, windowMs: 15 * MINUTE },
  /** invitation acceptances tried from one client address, and on one invitation */
  inviteClient: { name: 'invite:client', max: 10, windowMs: 15 * MINUTE },
  inviteToken: { name: 'invite:token', max: 5, windowMs: 15 * MINUTE },
  /** API tokens created by one user */
  tokenCreate: { name: 'token:create', max: 10, windowMs: 60 * MINUTE },
} satisfies Record<string, LimitRule>;

function refusal(rule: LimitRule, resetAt: Date, now: Date, what: string): AppError {
  const seconds = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
  return new AppError('RATE_LIMITED', `Too many ${what}. Try again in ${seconds} s.`, {
    details: { retryAfterSeconds: seconds, limit: rule.name },
  });
}

/** Refuses when `subject` has spent `rule` in its window (counting nothing). */
export async function assertUnderLimit(rule: LimitRule, subject: string, now: Date, what: string): Promise<void> {
  const w = await attemptsIn(`${rule.name}:${subject}`, rule.windowMs, now);
  if (w.count >= rule.max) throw refusal(rule, w.resetAt, now, what);
}

/** Counts one attempt by `subject`; refuses when it goes over `rule`. */
export async function spendLimit(rule: LimitRule, subject: string, now: Date, what: string): Promise<void> {
  const w = await countAttempt(`${rule.name}:${subject}`, rule.windowMs, now);
  if (w.count > rule.max) throw refusal(rule, w.resetAt, now, what);
}

/** Counts one failure by `subject` (never refuses: the next attempt's assertUnderLimit does). */
export async function countFailure(rule: LimitRule, subject: string, now: Date): Promise<void> {
  await countAttempt(`${rule.name}:${subject}`, rule.windowMs, now);
}

export async function clearLimit(rule: LimitRule, subject: string): Promise<void> {
  await clearAttempts(`${rule.name}:${subject}`);
}

/**
 * The client's address: `X-Forwarded-For` as the studio's HTTP server rewrote it (one address,
 * resolved by lib/http/client-address.ts from the socket and WITNESS_TRUSTED_PROXIES; what a
 * client sends itself never gets through), else "direct" (a caller in this process, as in tests).
 * The per-account limit does not depend on it.
 */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  return (forwarded || 'direct').slice(0, 64);
}
