import { beforeEach, describe, expect, it } from 'vitest';
import { authenticateApiToken } from '../../lib/auth/authenticate-api-token';
import { createUser } from '../../lib/auth/create-user';
import { tokenScopeRefusal } from '../../lib/auth/token-scope';
import { db } from '../../lib/db/client';
import { resetDatabase } from '../../lib/db/test/reset';
import { ensureProject } from '../../lib/trajectories/queries/projects';
import { fakeIo } from '../io-testing';
import { main } from '../main';

async function run(...argv: string[]) {
  const io = fakeIo();
  const code = await main(argv, io);
  return { code, out: io.out, err: io.err, json: () => JSON.parse(io.out) };
}

describe('witness token', () => {
  beforeEach(resetDatabase);

  it('creates a token for a user by email (printed once, stored as a hash), lists and revokes it', async () => {
    const lead = await createUser({ email: 'lea@example.com', name: 'Lea', role: 'lead', password: 'long enough password' });
    await ensureProject({ slug: 'outside', name: 'outside' });
    // a token narrowed to a project must be one its user reaches
    expect((await run('token', 'create', '--user', 'lea@example.com', '--project', 'outside')).err).toContain('No such project');
    expect((await run('member', 'add', '--project', 'outside', '--user', 'lea@example.com', '--role', 'lead')).code).toBe(0);
    const created = await run(
      'token',
      'create',
      '--user',
      'Lea@Example.com',
      '--name',
      'trainer',
      '--scope',
      'read',
      '--project',
      'outside',
      '--json',
    );
    expect(created.err).toBe('');
    expect(created.code).toBe(0);
    const body = created.json();
    expect(body).toMatchObject({ user: 'lea@example.com', scope: 'read', project: 'outside' });
    expect(body.token).toMatch(/^wit_[A-Za-z0-9_-]{43}$/);
    const row = await db().apiToken.findUniqueOrThrow({ where: { id: body.id } });
    expect(row).toMatchObject({ userId: lead.id, name: 'trainer', scope: 'read' });
    expect(row.tokenHash).not.toContain(body.token);

    // the token acts as its user with its scope: a read token may GET, never write
    const caller = await authenticateApiToken(body.token);
    expect(caller.token).toEqual({ id: body.id, scope: 'read' });
    expect(caller.access.narrowedTo).toBe(row.projectId);
    expect(tokenScopeRefusal('read', 'GET', '/api/v1/campaigns')).toBeNull();
    expect(tokenScopeRefusal('read', 'POST', '/api/v1/campaigns')?.message).toContain("'read' scope");

    const listed = await run('token', 'list', '--user', 'lea@example.com', '--json');
    expect(listed.json().tokens).toEqual([expect.objectContaining({ id: body.id, scope: 'read', project: 'outside', revokedAt: null })]);
    expect(listed.out).not.toContain(body.token);

    const revoked = await run('token', 'revoke', '--user', 'lea@example.com', '--id', body.id, '--json');
    expect(revoked.json()).toEqual({ revoked: body.id });
    await expect(authenticateApiToken(body.token)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect((await db().auditLog.findMany({ where: { targetId: body.id }, select: { action: true } })).map((a) => a.action).sort()).toEqual([
      'api_token.create',
      'api_token.revoke',
    ]);
  });

  it('defaults to scope all, refuses a training token for a reviewer, and usage errors before opening the database', async () => {
    await createUser({ email: 'rev@example.com', name: 'Rev', role: 'reviewer', password: 'long enough password' });
    const all = await run('token', 'create', '--user', 'rev@example.com', '--json');
    expect(all.code).toBe(0);
    expect(all.json()).toMatchObject({ scope: 'all', project: null });
    const training = await run('token', 'create', '--user', 'rev@example.com', '--scope', 'training', '--json');
    expect(training.code).toBe(1);
    expect(training.err).toContain("Only leads and admins may hold a 'training' token");
    expect((await run('token', 'create', '--user', 'rev@example.com', '--scope', 'write')).err).toContain(
      '--scope must be all, read, training',
    );
    expect((await run('token', 'create')).code).toBe(2);
    expect((await run('token', 'create', '--user', 'nobody@example.com')).err).toContain('No user with email nobody@example.com');
  });
});
