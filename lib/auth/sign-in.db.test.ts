import { beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { countSessionsForUser, findSessionUser } from './queries/sessions';
import { createUser } from './create-user';
import { resetDatabase } from '../db/test/reset';
import { db } from '../db/client';
import { auth, SESSION_EXPIRES_IN_S } from './better-auth';
import { sessionUserFromHeaders, signIn, signOut, signedSessionToken } from './sign-in';

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
    const { db } = await import('../db/client');
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

  it("the one-statement session lookup answers what better-auth's getSession path answers, and leaves the rest to it", async () => {
    const user = await createUser({ email: 'f@example.com', name: 'F', role: 'lead', password: 'correct horse battery' });
    const project = await db().project.create({ data: { slug: 'p', name: 'P' } });
    await db().projectMember.create({ data: { projectId: project.id, userId: user.id, role: 'lead' } });
    const { setCookies } = await signIn({ email: 'f@example.com', password: 'correct horse battery' }, new Headers());
    const headers = cookieFrom(setCookies);
    const token = signedSessionToken(headers.get('cookie'));
    const row = await db().session.findFirstOrThrow({ where: { userId: user.id }, select: { token: true, expiresAt: true } });
    expect(token).toBe(row.token);
    expect((await findSessionUser(row.token, new Date()))?.user.id).toBe(user.id); // the one statement finds it
    const fast = await sessionUserFromHeaders(headers);
    expect(fast).toEqual({
      id: user.id,
      email: 'f@example.com',
      name: 'F',
      role: 'lead',
      expertise: [],
      access: { everyProject: false, memberships: [{ projectId: project.id, role: 'lead' }], narrowedTo: null },
    });
    // better-auth's own answer for the same cookie is the same session and user
    expect((await auth().api.getSession({ headers }))?.user.id).toBe(user.id);

    // a changed signature, a token signed with another secret, no cookie: not signed in
    const cookie = headers.get('cookie')!;
    const tampered = cookie.replace(/\.([^.;]*)$/, (_, sig: string) => `.${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`);
    expect(signedSessionToken(tampered)).toBeNull();
    expect(await sessionUserFromHeaders(new Headers({ cookie: tampered }))).toBeNull();
    expect(signedSessionToken(`witness.session_token=${row.token}.${'A'.repeat(43)}=`)).toBeNull();
    expect(await sessionUserFromHeaders(new Headers())).toBeNull();

    // a session due for its daily extension goes through better-auth, which extends it
    const old = new Date(Date.now() + (SESSION_EXPIRES_IN_S - 2 * 86_400) * 1000);
    await db().session.update({ where: { token: row.token }, data: { expiresAt: old } });
    expect((await sessionUserFromHeaders(headers))?.id).toBe(user.id);
    const extended = await db().session.findUniqueOrThrow({ where: { token: row.token }, select: { expiresAt: true } });
    expect(extended.expiresAt.getTime()).toBeGreaterThan(old.getTime() + 86_400_000);

    // an expired session and a disabled user: nobody
    await db().session.update({ where: { token: row.token }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await sessionUserFromHeaders(headers)).toBeNull();
    const { setCookies: again } = await signIn({ email: 'f@example.com', password: 'correct horse battery' }, new Headers());
    expect((await sessionUserFromHeaders(cookieFrom(again)))?.id).toBe(user.id);
    await db().user.update({ where: { id: user.id }, data: { disabledAt: new Date() } });
    expect(await sessionUserFromHeaders(cookieFrom(again))).toBeNull();
  });
});
