import { beforeEach, describe, expect, it } from 'vitest';
import { countAttempt } from '../db/auth/rate-limits';
import { createUser } from '../db/auth/users';
import { resetDatabase } from '../db/test/reset';
import { limits, spendLimit } from './rate-limit';
import { signIn } from './sign-in';

/** Issue 14 item 1: 40 wrong passwords in 24 s, then the right one worked. Now the limit holds, in Postgres. */
const from = (address: string) => new Headers({ 'x-forwarded-for': `${address}, 10.0.0.1` });

describe('sign-in is rate limited per account and per client address', () => {
  beforeEach(resetDatabase);

  it('after 5 wrong passwords the account refuses even the right one, saying when to try again; the window passes', async () => {
    await createUser({ email: 'ada@example.com', name: 'Ada', role: 'lead', password: 'correct horse battery' });
    const t0 = new Date('2026-12-01T10:00:00Z');
    const outcomes: string[] = [];
    for (let i = 0; i < 40; i++) {
      const at = new Date(t0.getTime() + i * 600); // 40 tries in 24 s, from 40 addresses
      const error = (await signIn({ email: 'ada@example.com', password: `guess-${i}` }, from(`203.0.113.${i}`), at).catch((e) => e)) as {
        code: string;
        message: string;
      };
      outcomes.push(error.code);
    }
    expect(outcomes.slice(0, 5)).toEqual(Array(5).fill('UNAUTHENTICATED'));
    expect(new Set(outcomes.slice(5))).toEqual(new Set(['RATE_LIMITED']));
    const refused = await signIn(
      { email: 'Ada@Example.com', password: 'correct horse battery' },
      from('198.51.100.7'),
      new Date(t0.getTime() + 25_000),
    ).catch((e) => e as { code: string; message: string; details: { retryAfterSeconds: number } });
    expect(refused).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Too many failed sign-ins for this account\. Try again in \d+ s\.$/),
    });
    expect((refused as { details: { retryAfterSeconds: number } }).details.retryAfterSeconds).toBe(15 * 60 - 25);
    // once the window has passed, the right password works and clears the count
    const later = new Date(t0.getTime() + 15 * 60_000 + 1000);
    await expect(
      signIn({ email: 'ada@example.com', password: 'correct horse battery' }, from('198.51.100.7'), later),
    ).resolves.toMatchObject({
      user: { email: 'ada@example.com' },
    });
  });

  it('one address guessing across many accounts is stopped too; another address is not', async () => {
    await createUser({ email: 'bob@example.com', name: 'Bob', role: 'reviewer', password: 'correct horse battery' });
    const now = new Date('2026-12-01T11:00:00Z');
    for (let i = 0; i < limits.signInClient.max; i++)
      await expect(signIn({ email: `user${i}@example.com`, password: 'x-password' }, from('192.0.2.9'), now)).rejects.toMatchObject({
        code: 'UNAUTHENTICATED',
      });
    await expect(signIn({ email: 'bob@example.com', password: 'correct horse battery' }, from('192.0.2.9'), now)).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/from your address/),
    });
    await expect(signIn({ email: 'bob@example.com', password: 'correct horse battery' }, from('192.0.2.10'), now)).resolves.toBeDefined();
  });

  it('counts concurrent attempts exactly (one atomic upsert per attempt, across connections)', async () => {
    const now = new Date('2026-12-01T12:00:00Z');
    const windows = await Promise.all(Array.from({ length: 25 }, () => countAttempt('test:concurrent', 60_000, now)));
    expect(windows.map((w) => w.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('token creation and invitation attempts spend their own limits', async () => {
    const now = new Date('2026-12-01T13:00:00Z');
    for (let i = 0; i < limits.tokenCreate.max; i++) await spendLimit(limits.tokenCreate, 'user-1', now, 'API tokens created');
    await expect(spendLimit(limits.tokenCreate, 'user-1', now, 'API tokens created')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many API tokens created. Try again in 3600 s.',
    });
    await expect(spendLimit(limits.tokenCreate, 'user-2', now, 'API tokens created')).resolves.toBeUndefined();
    for (let i = 0; i < limits.inviteToken.max; i++) await spendLimit(limits.inviteToken, 'tok', now, 'attempts on this invitation');
    await expect(spendLimit(limits.inviteToken, 'tok', now, 'attempts on this invitation')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });
});
