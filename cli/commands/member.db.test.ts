import { beforeEach, describe, expect, it } from 'vitest';
import { visibleProjectIds } from '../../lib/auth/project-access';
import { sessionUserFor } from '../../lib/auth/queries/memberships';
import { createUser } from '../../lib/auth/create-user';
import { db } from '../../lib/db/client';
import { resetDatabase } from '../../lib/db/test/reset';
import { listProjectSummaries } from '../../lib/trajectories/queries/projects';
import { fakeIo } from '../io-testing';
import { main } from '../main';

const conversation = 'lib/formats/fixtures/openai/weather-conversation.json';

async function person(email: string, role: 'admin' | 'lead' | 'reviewer') {
  return createUser({ email, name: email.split('@')[0]!, role, password: 'long enough password' });
}

async function run(...argv: string[]) {
  const io = fakeIo();
  const code = await main(argv, io);
  return { code, out: io.out, err: io.err, json: () => JSON.parse(io.out) };
}

const memberAudit = () =>
  db().auditLog.findMany({
    where: { action: { startsWith: 'project_member.' } },
    orderBy: { id: 'asc' },
    select: { action: true, actorId: true, data: true },
  });

describe('witness member', () => {
  beforeEach(resetDatabase);

  it('adds, re-roles, lists and removes members by project name and email, audited, idempotent', async () => {
    expect((await run('import', conversation, '--project', 'outside', '--json')).code).toBe(0);
    await person('lea@example.com', 'lead');

    const added = await run('member', 'add', '--project', 'outside', '--user', 'Lea@Example.com', '--role', 'reviewer', '--json');
    expect(added.code).toBe(0);
    expect(added.json()).toEqual({ project: 'outside', user: 'lea@example.com', role: 'reviewer', previous: null });
    const again = await run('member', 'add', '--project', 'outside', '--user', 'lea@example.com', '--role', 'reviewer');
    expect(again.out).toBe('lea@example.com is already a reviewer of outside: nothing changed\n');
    const promoted = await run('member', 'add', '--project', 'outside', '--user', 'lea@example.com', '--role', 'lead');
    expect(promoted.out).toBe('lea@example.com is now a lead of outside (was reviewer)\n');

    const listed = await run('member', 'list', '--project', 'outside', '--json');
    expect(listed.json()).toEqual({
      projects: [
        { slug: 'outside', name: 'outside', members: [{ email: 'lea@example.com', name: 'lea', globalRole: 'lead', role: 'lead' }] },
      ],
    });
    // the lead now reaches the project the command line made
    const lea = (await db().user.findUniqueOrThrow({ where: { email: 'lea@example.com' } })) as Parameters<typeof sessionUserFor>[0];
    const project = await db().project.findUniqueOrThrow({ where: { slug: 'outside' }, select: { id: true } });
    expect(visibleProjectIds((await sessionUserFor(lea, null)).access, 'lead')).toEqual([project.id]);

    const removed = await run('member', 'remove', '--project', 'outside', '--user', 'lea@example.com', '--json');
    expect(removed.json()).toEqual({ project: 'outside', user: 'lea@example.com', removed: 'lead' });
    const gone = await run('member', 'remove', '--project', 'outside', '--user', 'lea@example.com');
    expect([gone.code, gone.err]).toEqual([1, 'error: lea@example.com is not a member of project outside\n']);
    const empty = await run('member', 'list');
    expect(empty.out).toBe(
      'outside\n  no members: only admins reach it. Add one with  npm run -s witness -- member add --project outside --user EMAIL --role lead|reviewer\n',
    );

    // three changes, one audit entry each (the repeated add wrote none), no actor: the command line
    expect(await memberAudit()).toEqual([
      { action: 'project_member.add', actorId: null, data: { role: 'reviewer', reason: 'witness member add' } },
      { action: 'project_member.role', actorId: null, data: { role: 'lead', previous: 'reviewer', reason: 'witness member add' } },
      { action: 'project_member.remove', actorId: null, data: {} },
    ]);
  });

  it('refuses, naming what is wrong, and changes nothing', async () => {
    expect((await run('import', conversation, '--project', 'outside', '--json')).code).toBe(0);
    await person('rev@example.com', 'reviewer');
    await person('root@example.com', 'admin');
    const cases: [string[], number, string][] = [
      [['--project', 'nowhere', '--user', 'rev@example.com', '--role', 'reviewer'], 1, 'error: No project named nowhere\n'],
      [
        ['--project', 'outside', '--user', 'who@example.com', '--role', 'lead'],
        1,
        'error: No user with email who@example.com: create one first with `npm run -s witness -- user create --email who@example.com --role lead`\n',
      ],
      [
        ['--project', 'outside', '--user', 'rev@example.com', '--role', 'lead'],
        1,
        'error: rev@example.com is a reviewer: only users with the lead role can lead a project\n',
      ],
      [
        ['--project', 'outside', '--user', 'root@example.com', '--role', 'lead'],
        1,
        'error: root@example.com is an admin and reaches every project already\n',
      ],
      [['--project', 'outside', '--user', 'not-an-email', '--role', 'lead'], 1, 'error: user: expected an email address\n'],
      [['--project', 'outside', '--user', 'rev@example.com', '--role', 'boss'], 2, 'error: --role must be lead or reviewer\n'],
      [['--user', 'rev@example.com', '--role', 'lead'], 2, expect.stringContaining('error: --project is required')],
    ];
    for (const [argv, code, err] of cases) {
      const result = await run('member', 'add', ...argv);
      expect({ argv, code: result.code, err: result.err }).toEqual({ argv, code, err });
    }
    expect(await db().projectMember.count()).toBe(0);
    expect(await memberAudit()).toEqual([]);
    expect((await run('member', 'list', '--project', 'nowhere')).err).toBe('error: No project named nowhere\n');
    expect((await run('member', 'frob')).code).toBe(2);
  });
});

describe('witness import --lead', () => {
  beforeEach(resetDatabase);

  it('makes the user a lead of the project it creates, so they reach it at once', async () => {
    const lead = await person('lead@example.com', 'lead');
    const first = await run('import', conversation, '--project', 'fresh', '--lead', 'lead@example.com', '--json');
    expect(first.code).toBe(0);
    expect(first.json()).toMatchObject({ imported: 1, lead: { user: 'lead@example.com', project: 'fresh', membership: 'added' } });
    const project = await db().project.findUniqueOrThrow({ where: { slug: 'fresh' }, select: { id: true } });
    const session = await sessionUserFor(lead, null);
    expect((await listProjectSummaries(visibleProjectIds(session.access, 'lead'))).map((p) => p.slug)).toEqual(['fresh']);
    expect(await memberAudit()).toEqual([
      { action: 'project_member.add', actorId: null, data: { role: 'lead', reason: 'witness import --lead' } },
    ]);
    // again: nothing imported, the membership kept as it is
    const second = await run('import', conversation, '--project', 'fresh', '--lead', 'lead@example.com');
    expect(second.out).toContain('lead@example.com leads fresh already\n');
    expect(await db().projectMember.findMany({ select: { projectId: true, role: true } })).toEqual([
      { projectId: project.id, role: 'lead' },
    ]);
    await person('root@example.com', 'admin');
    const admin = await run('import', conversation, '--project', 'fresh', '--lead', 'root@example.com', '--json');
    expect(admin.json().lead).toEqual({ user: 'root@example.com', project: 'fresh', membership: 'admin' });
  });

  it('refuses an unknown email or a reviewer before importing anything', async () => {
    await person('rev@example.com', 'reviewer');
    const unknown = await run('import', conversation, '--project', 'fresh', '--lead', 'nobody@example.com');
    expect([unknown.code, unknown.err]).toEqual([
      1,
      'error: No user with email nobody@example.com: create one first with `npm run -s witness -- user create --email nobody@example.com --role lead`\n',
    ]);
    const reviewer = await run('import', conversation, '--project', 'fresh', '--lead', 'rev@example.com');
    expect(reviewer.code).toBe(1);
    expect(reviewer.err).toBe(
      'error: rev@example.com is a reviewer: only users with the lead role can lead a project (add them as a reviewer with `npm run -s witness -- member add --project PROJECT --user rev@example.com --role reviewer`)\n',
    );
    const malformed = await run('import', conversation, '--project', 'fresh', '--lead', 'rev');
    expect(malformed.err).toBe('error: --lead: expected an email address\n');
    expect(await db().project.count()).toBe(0);
    expect(await db().trajectory.count()).toBe(0);
    expect(await db().importSource.count()).toBe(0);
  });
});

describe('a project made outside the UI', () => {
  beforeEach(resetDatabase);

  it('is reached by admins at once, says it has no members, and the import says how to add them', async () => {
    const admin = await sessionUserFor(await person('root@example.com', 'admin'), null);
    const lead = await sessionUserFor(await person('lead@example.com', 'lead'), null);
    const imported = await run('import', conversation, '--project', 'outside');
    expect(imported.out).toContain(
      'project outside has no members yet: only admins reach it. Add its lead on the Admin page or with  npm run -s witness -- member add --project outside --user EMAIL --role lead\n',
    );
    const seen = await listProjectSummaries(visibleProjectIds(admin.access, 'lead'));
    expect(seen.map((p) => [p.slug, p.counts.members])).toEqual([['outside', 0]]);
    expect(await listProjectSummaries(visibleProjectIds(lead.access, 'lead'))).toEqual([]);
    // once it has a member, the import no longer says so
    await run('member', 'add', '--project', 'outside', '--user', 'lead@example.com', '--role', 'lead');
    expect((await listProjectSummaries(visibleProjectIds(admin.access, 'lead')))[0]!.counts.members).toBe(1);
    const more = await run('import', 'lib/formats/fixtures/openai/batch.jsonl', '--project', 'outside');
    expect(more.out).not.toContain('no members');
  });
});
