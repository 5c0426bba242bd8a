import { beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { countSessionsForUser } from '../db/auth/sessions';
import { createUser } from '../db/auth/users';
import { resetDatabase } from '../db/test/reset';
import { sessionUserFromHeaders, signIn, signOut } from './sign-in';

function cookieFrom(setCookies: string[]): Headers {
  return new Headers({ cookie: setCookies.map((c) => c.split(';')[0]).join('; ') });
}

describe('sign-in with better-auth sessions in Postgres', () => {
  beforeEach(resetDatabase);

  it('signs in with the right password, stores a session, and signs out', async () => {
    const user = await createUser({ email: 'Ada@Example.com', name: 'Ada', role: 'lead', password: 'correct horse battery' });
    const { user: signedIn, setCookies } = await signIn({ email: 'ada@example.com', password: 'correct horse battery' }, new Headers());
    expect(signedIn).toMatchObject({ id: user.id, email: 'ada@example.com', role: 'lead' });
    expect(setCookies.some((c) => c.startsWith('witness.session_token='))).toBe(true);
    expect(await countSessionsForUser(user.id)).toBe(1);

    const headers = cookieFrom(setCookies);
    expect((await sessionUserFromHeaders(headers))?.id).toBe(user.id);

    await signOut(headers);
    expect(await countSessionsForUser(user.id)).toBe(0);
    expect(await sessionUserFromHeaders(headers)).toBeNull();
  });

  it('refuses a wrong password with a clear error and creates no session', async () => {
    const user = await createUser({ email: 'bob@example.com', name: 'Bob', role: 'reviewer', password: 'correct horse battery' });
    await expect(signIn({ email: 'bob@example.com', password: 'wrong password!!' }, new Headers())).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'Wrong email or password.',
    });
    await expect(signIn({ email: 'nobody@example.com', password: 'whatever123' }, new Headers())).rejects.toBeInstanceOf(AppError);
    expect(await countSessionsForUser(user.id)).toBe(0);
  });

  it('stores a slow KDF hash, never the password', async () => {
    const { db } = await import('../db/infra/client');
    const user = await createUser({ email: 'c@example.com', name: 'C', role: 'admin', password: 'another long password' });
    const account = await db().account.findFirstOrThrow({ where: { userId: user.id }, select: { password: true } });
    expect(account.password).not.toContain('another long password');
    expect(account.password).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/); // scrypt salt:key
  });

  it('rejects a duplicate email and a short password', async () => {
    await createUser({ email: 'd@example.com', name: 'D', role: 'admin', password: 'long enough pw' });
    await expect(createUser({ email: 'D@example.com', name: 'D2', role: 'lead', password: 'long enough pw' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(createUser({ email: 'e@example.com', name: 'E', role: 'lead', password: 'short' })).rejects.toMatchObject({
      code: 'BAD_INPUT',
    });
  });
});
