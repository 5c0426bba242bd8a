import { gzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SessionUser } from '../auth/session-user';
import { sessionUserFor } from '../auth/queries/memberships';
import type { Trajectory } from '../formats/trajectory';
import { prepareTrajectory } from '../ingest/prepare-trajectory';
import { compressRawSource, type RawSourceEncoding } from '../ingest/raw-source-codec';
import { db } from '../db/client';
import { ensureProject } from './queries/projects';
import { updateTaskCriteria } from './update-task-criteria';
import { resetDatabase } from '../db/test/reset';
import { listTrajectories } from './list-trajectories';
import { RAW_SOURCE_LIMIT } from './queries/trajectory-queries';
import { getRawSource, getTrajectoryDetail } from './view-trajectory';
import { storeTrajectory, type RawSource } from '../ingest/store-trajectory';
import { createUser } from '../auth/create-user';

function trajectory(
  name: string,
  options: Partial<{ reward: number | null; env: string | null; model: string; split: 'train' | 'eval' | null; text: string }> = {},
): Trajectory {
  const text = options.text ?? `solve ${name}`;
  return {
    format: 'openai',
    externalId: null,
    task: {
      name,
      instruction: `Do ${name}`,
      acceptanceCriteria: [{ key: 'tests-pass', text: 'Tests pass', origin: 'verifier', verdict: true }],
      environment: options.env === undefined ? 'bash' : options.env,
      split: options.split === undefined ? null : options.split,
      metadata: {},
    },
    policy: { model: options.model ?? 'gpt-test', checkpoint: null, agent: null },
    steps: [
      { index: 0, source: 'user', text, reasoning: null, toolCalls: [], observations: [], timestamp: null, castTime: null, usage: null },
      {
        index: 1,
        source: 'agent',
        text: 'running',
        reasoning: 'think',
        toolCalls: [{ id: 'c1', name: 'bash', arguments: { cmd: 'ls' } }],
        observations: [],
        timestamp: '2025-01-01T00:00:01.000Z',
        castTime: null,
        usage: null,
      },
      {
        index: 2,
        source: 'tool',
        text: '',
        reasoning: null,
        toolCalls: [],
        observations: [{ toolCallId: 'c1', content: 'a\nb', isError: false }],
        timestamp: null,
        castTime: null,
        usage: null,
      },
    ],
    verifier:
      options.reward === undefined
        ? { reward: 1, components: { tests: 1 } }
        : options.reward === null
          ? null
          : { reward: options.reward, components: {} },
    judgeScores: [{ judge: 'gpt-judge', score: 0.5, label: null, explanation: 'ok' }],
    usage: null,
    terminal: null,
    submission: null,
    exitStatus: 'submitted',
    startedAt: null,
    endedAt: null,
    metadata: {},
  };
}

/** A raw source as imports write it (Brotli), or as rows written before Brotli hold it (gzip). */
function source(text: string, path = 'run.json', encoding: RawSourceEncoding = 'br'): RawSource {
  const bytes = Buffer.from(text);
  return {
    sha256: `sha-${path}-${text.length}-${text.slice(0, 20)}-${encoding}`,
    path,
    format: 'openai',
    sizeBytes: bytes.byteLength,
    content: encoding === 'br' ? compressRawSource(bytes) : gzipSync(bytes),
    encoding,
  };
}

async function store(projectId: string, t: Trajectory, raw: RawSource | null = null) {
  return (await storeTrajectory(projectId, prepareTrajectory(t), { source: raw, sourceWhere: raw ? 'line 1' : null, importedById: null }))
    .id;
}

async function lead(role: 'lead' | 'reviewer' | 'admin' = 'lead'): Promise<SessionUser> {
  const user = await createUser({
    email: `${role}-${Math.random().toString(36).slice(2)}@x.test`,
    name: role,
    role,
    password: 'long enough password',
  });
  return sessionUserFor(user, null);
}

describe('listTrajectories', () => {
  beforeEach(resetDatabase);

  it('filters by project, environment, policy, split, reward and task name, with facets of the project', async () => {
    const a = await ensureProject({ slug: 'alpha', name: 'Alpha' });
    const b = await ensureProject({ slug: 'beta', name: 'Beta' });
    await store(a.id, trajectory('fix-bug', { reward: 1 }));
    await store(a.id, trajectory('write-docs', { reward: 0, env: 'docs', model: 'other-model' }));
    await store(a.id, trajectory('measure', { reward: null, split: 'eval' }));
    await store(b.id, trajectory('fix-bug', { reward: 0.5 }));

    const all = await listTrajectories({}, null);
    expect(all.total).toBe(4);
    expect(all.facets.projects.map((p) => p.slug)).toEqual(['alpha', 'beta']);

    const alpha = await listTrajectories({ project: 'alpha' }, null);
    expect(alpha.total).toBe(3);
    expect(alpha.project?.slug).toBe('alpha');
    expect(alpha.facets.environments.map((e) => e.name)).toEqual(['bash', 'docs']);
    expect(alpha.facets.policies.map((p) => p.name)).toEqual(['gpt-test', 'other-model']);
    expect((await listTrajectories({ project: a.id }, null)).total).toBe(3); // by id too

    const docsEnv = alpha.facets.environments.find((e) => e.name === 'docs')!;
    expect((await listTrajectories({ project: 'alpha', environment: docsEnv.id }, null)).rows.map((r) => r.taskName)).toEqual([
      'write-docs',
    ]);
    const otherPolicy = alpha.facets.policies.find((p) => p.name === 'other-model')!;
    expect((await listTrajectories({ policy: otherPolicy.id }, null)).rows.map((r) => r.taskName)).toEqual(['write-docs']);
    expect((await listTrajectories({ split: 'eval' }, null)).rows.map((r) => r.taskName)).toEqual(['measure']);

    const names = async (params: Parameters<typeof listTrajectories>[0]) =>
      (await listTrajectories(params, null)).rows.map((r) => `${r.projectSlug}/${r.taskName}`).sort();
    expect(await names({ reward: 'none' })).toEqual(['alpha/measure']);
    expect(await names({ reward: 'scored' })).toEqual(['alpha/fix-bug', 'alpha/write-docs', 'beta/fix-bug']);
    expect(await names({ rewardMin: 0.5 })).toEqual(['alpha/fix-bug', 'beta/fix-bug']);
    expect(await names({ rewardMin: 0, rewardMax: 0.5 })).toEqual(['alpha/write-docs', 'beta/fix-bug']);
    expect(await names({ q: 'FIX' })).toEqual(['alpha/fix-bug', 'beta/fix-bug']);
    expect(await names({ q: 'fix', project: 'beta' })).toEqual(['beta/fix-bug']);

    const row = alpha.rows.find((r) => r.taskName === 'fix-bug')!;
    expect(row).toMatchObject({
      environment: 'bash',
      policy: 'gpt-test',
      split: 'train',
      steps: 3,
      verifierReward: 1,
      format: 'openai',
      reviews: 0,
    });
    expect(row.judge).toMatchObject({ count: 1, mean: 0.5 });
    expect(typeof row.createdAt).toBe('string');
  });

  it('reads ?environment= as an id or a name, and says so when it names no environment', async () => {
    const a = await ensureProject({ slug: 'alpha', name: 'Alpha' });
    const b = await ensureProject({ slug: 'beta', name: 'Beta' });
    await store(a.id, trajectory('derive', { env: 'physics-derivations' }));
    await store(a.id, trajectory('fix-bug'));
    await store(b.id, trajectory('derive-b', { env: 'physics-derivations' }));
    const tasks = async (params: Parameters<typeof listTrajectories>[0], projectIds: string[] | null = null) =>
      (await listTrajectories(params, projectIds)).rows.map((r) => r.taskName).sort();
    expect(await tasks({ project: 'alpha', environment: 'physics-derivations' })).toEqual(['derive']);
    // no project: every visible project's environment of that name
    expect(await tasks({ environment: 'physics-derivations' })).toEqual(['derive', 'derive-b']);
    expect(await tasks({ environment: 'physics-derivations' }, [b.id])).toEqual(['derive-b']);
    await expect(listTrajectories({ project: 'alpha', environment: 'physics' }, null)).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: 'No environment named physics in alpha',
      details: { field: 'environment' },
    });
    // another project's environment id is no environment of this one
    const bEnv = (await listTrajectories({ project: 'beta' }, null)).facets.environments[0]!;
    await expect(listTrajectories({ project: 'alpha', environment: bEnv.id }, null)).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });

  it('rejects an unknown project and contradictory reward bounds', async () => {
    await expect(listTrajectories({ project: 'nope' }, null)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(listTrajectories({ rewardMin: 1, rewardMax: 0 }, null)).rejects.toMatchObject({ code: 'BAD_INPUT' });
    await expect(listTrajectories({ page: 0 }, null)).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });

  it('paginates 50 a page, newest first, without overlaps', async () => {
    const p = await ensureProject({ slug: 'many', name: 'Many' });
    for (let i = 0; i < 53; i++) await store(p.id, trajectory(`task-${String(i).padStart(2, '0')}`));
    const first = await listTrajectories({ project: 'many' }, null);
    const second = await listTrajectories({ project: 'many', page: 2 }, null);
    expect(first).toMatchObject({ total: 53, pageCount: 2, pageSize: 50, page: 1 });
    expect(first.rows).toHaveLength(50);
    expect(second.rows).toHaveLength(3);
    expect(first.rows[0]!.taskName).toBe('task-52');
    const ids = new Set([...first.rows, ...second.rows].map((r) => r.id));
    expect(ids.size).toBe(53);
    expect((await listTrajectories({ project: 'many', page: 3 }, null)).rows).toHaveLength(0);
  });

  it('says "about" (the planner estimate) above the exact-count limit, and still pages on', async () => {
    const p = await ensureProject({ slug: 'many', name: 'Many' });
    for (let i = 0; i < 53; i++) await store(p.id, trajectory(`task-${String(i).padStart(2, '0')}`));
    await db().$executeRawUnsafe('ANALYZE trajectory');
    const exact = await listTrajectories({ project: 'many' }, null, { exactCountLimit: 53 });
    expect(exact).toMatchObject({ total: 53, totalExact: true });
    const estimated = await listTrajectories({ project: 'many' }, null, { exactCountLimit: 10 });
    expect(estimated.totalExact).toBe(false);
    // never fewer than were counted; with fresh statistics the estimate is the count
    expect(estimated.total).toBe(53);
    expect(estimated.rows).toHaveLength(50);
    const second = await listTrajectories({ project: 'many', page: 2 }, null, { exactCountLimit: 10 });
    expect(second.rows).toHaveLength(3);
  });

  it('tells reviewed from unreviewed by current reviews through campaign items (A or B side)', async () => {
    const p = await ensureProject({ slug: 'rev', name: 'Rev' });
    const reviewed = await store(p.id, trajectory('reviewed'));
    const revisedAway = await store(p.id, trajectory('superseded-only'));
    const pairB = await store(p.id, trajectory('pair-b'));
    await store(p.id, trajectory('untouched'));
    const reviewer = await lead('reviewer');
    const rubric = await db().rubric.create({
      data: { projectId: p.id, name: 'r', versions: { create: { version: 1, definition: {} } } },
      select: { versions: { select: { id: true } } },
    });
    const rubricVersionId = rubric.versions[0]!.id;
    const campaign = await db().campaign.create({
      data: { projectId: p.id, name: 'c', mode: 'single', rubricVersionId },
      select: { id: true },
    });
    let n = 0;
    const review = async (trajectoryId: string, isCurrent: boolean, trajectoryBId: string | null = null) => {
      const item = await db().campaignItem.create({ data: { campaignId: campaign.id, trajectoryId, trajectoryBId }, select: { id: true } });
      const assignment = await db().assignment.create({
        data: { campaignItemId: item.id, reviewerId: reviewer.id, leaseExpiresAt: new Date(Date.now() + 60_000) },
        select: { id: true },
      });
      await db().review.create({
        data: {
          assignmentId: assignment.id,
          campaignItemId: item.id,
          reviewerId: reviewer.id,
          rubricVersionId,
          isCurrent,
          answers: {},
          idempotencyKey: `k${n++}`,
        },
      });
    };
    await review(reviewed, true);
    await review(revisedAway, false);
    const pairA = await store(p.id, trajectory('pair-a'));
    await review(pairA, true, pairB);

    const names = async (state: 'any' | 'reviewed' | 'unreviewed') =>
      (await listTrajectories({ project: 'rev', review: state }, null)).rows.map((r) => r.taskName).sort();
    expect(await names('reviewed')).toEqual(['pair-a', 'pair-b', 'reviewed']);
    expect(await names('unreviewed')).toEqual(['superseded-only', 'untouched']);
    expect(await names('any')).toHaveLength(5);
    const rows = (await listTrajectories({ project: 'rev' }, null)).rows;
    expect(rows.find((r) => r.taskName === 'reviewed')!.reviews).toBe(1);
    expect(rows.find((r) => r.taskName === 'pair-b')!.reviews).toBe(1);
    expect(rows.find((r) => r.taskName === 'superseded-only')!.reviews).toBe(0);
  });
});

describe('getTrajectoryDetail and getRawSource', () => {
  beforeEach(resetDatabase);

  it('returns the task, policy, ordered steps, scores and source info', async () => {
    const p = await ensureProject({ slug: 'd', name: 'D' });
    const raw = '{"messages": [{"role": "user", "content": "hi \\u001b[31m"}]}\n';
    const id = await store(p.id, trajectory('detail-task', { split: 'eval' }), source(raw));
    const d = await getTrajectoryDetail(id);
    expect(d.task).toMatchObject({ name: 'detail-task', instruction: 'Do detail-task', split: 'eval', environment: 'bash' });
    expect(d.task.acceptanceCriteria).toEqual([{ key: 'tests-pass', text: 'Tests pass', origin: 'verifier', verdict: true }]);
    expect(d.policy.name).toBe('gpt-test');
    expect(d.steps.map((s) => s.source)).toEqual(['user', 'agent', 'tool']);
    expect(d.steps[1]!.toolCalls).toEqual([{ id: 'c1', name: 'bash', arguments: { cmd: 'ls' } }]);
    expect(d.steps[1]!.timestamp).toBe('2025-01-01T00:00:01.000Z');
    expect(d.steps[2]!.observations[0]!.content).toBe('a\nb');
    expect(d.verifier).toEqual({ reward: 1, components: { tests: 1 } });
    expect(d.judgeScores).toEqual([{ judge: 'gpt-judge', score: 0.5, label: null, explanation: 'ok' }]);
    expect(d.exitStatus).toBe('submitted');
    expect(d.source).toMatchObject({ path: 'run.json', format: 'openai', where: 'line 1' });

    const text = await getRawSource(id);
    expect(text).toMatchObject({ kind: 'file', text: raw, truncated: false, binary: false, where: 'line 1' });
    await expect(getTrajectoryDetail('missing')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('truncates a large source with a marker, shows directories file by file, and has null for no source', async () => {
    const p = await ensureProject({ slug: 's', name: 'S' });
    const big = 'x'.repeat(RAW_SOURCE_LIMIT + 5000);
    const bigId = await store(p.id, trajectory('big'), source(big, 'big.json'));
    const shown = (await getRawSource(bigId))!;
    expect(shown.truncated).toBe(true);
    expect(shown.text.startsWith('x'.repeat(1000))).toBe(true);
    expect(shown.text).toContain('truncated by Witness');
    expect(shown.text.length).toBeLessThan(RAW_SOURCE_LIMIT + 200);

    const dir = JSON.stringify({ files: { 'trial/result.json': '{"reward": 1}', 'agent/log.txt': 'hello' } });
    const dirId = await store(p.id, trajectory('dir'), source(dir, 'trial-dir'));
    const d = (await getRawSource(dirId))!;
    expect(d.kind).toBe('directory');
    expect(d.text).toBe('=== agent/log.txt ===\nhello\n\n=== trial/result.json ===\n{"reward": 1}\n');

    const none = await store(p.id, trajectory('no-source'));
    expect(await getRawSource(none)).toBeNull();
  });

  it('reads sources stored gzip-compressed before imports wrote Brotli, files and directories, truncated or whole', async () => {
    const p = await ensureProject({ slug: 'legacy', name: 'Legacy' });
    const raw = '{"messages": [{"role": "user", "content": "é ✓"}]}\n';
    const fileId = await store(p.id, trajectory('legacy-file'), source(raw, 'old.json', 'gzip'));
    expect(await getRawSource(fileId)).toMatchObject({ kind: 'file', text: raw, truncated: false, binary: false });
    const stored = await db().importSource.findFirstOrThrow({ where: { projectId: p.id, path: 'old.json' } });
    expect(stored.contentEncoding).toBe('gzip');

    const bigId = await store(p.id, trajectory('legacy-big'), source('y'.repeat(RAW_SOURCE_LIMIT + 10), 'old-big.json', 'gzip'));
    const big = (await getRawSource(bigId))!;
    expect(big.truncated).toBe(true);
    expect(big.text.startsWith('y'.repeat(1000))).toBe(true);

    const dir = JSON.stringify({ files: { 'a.txt': 'one' } });
    const dirId = await store(p.id, trajectory('legacy-dir'), source(dir, 'old-dir', 'gzip'));
    expect(await getRawSource(dirId)).toMatchObject({ kind: 'directory', text: '=== a.txt ===\none\n' });
  });
});

describe('updateTaskCriteria', () => {
  beforeEach(resetDatabase);

  async function taskOf(projectId: string) {
    const id = await store(projectId, trajectory('crit'));
    return (await getTrajectoryDetail(id)).task;
  }

  it('keeps existing criteria by key, adds new ones as manual with unique keys, and audits', async () => {
    const p = await ensureProject({ slug: 'c', name: 'C' });
    const task = await taskOf(p.id);
    const user = await lead();
    const result = await updateTaskCriteria(
      task.id,
      {
        criteria: [
          { key: 'tests-pass', text: 'All tests pass' },
          { text: 'No files deleted' },
          { text: 'No files deleted!' },
          { text: 'Tests pass' },
        ],
        expectedUpdatedAt: task.updatedAt,
      },
      user,
    );
    expect(result.criteria).toEqual([
      { key: 'tests-pass', text: 'All tests pass', origin: 'verifier', verdict: true },
      { key: 'no-files-deleted', text: 'No files deleted', origin: 'manual', verdict: null },
      { key: 'no-files-deleted-2', text: 'No files deleted!', origin: 'manual', verdict: null },
      { key: 'tests-pass-2', text: 'Tests pass', origin: 'manual', verdict: null },
    ]);
    const stored = await db().task.findUniqueOrThrow({ where: { id: task.id }, select: { acceptanceCriteria: true } });
    expect(stored.acceptanceCriteria).toEqual(result.criteria);
    const audit = await db().auditLog.findFirstOrThrow({
      where: { action: 'task.criteria.update' },
      select: { actorId: true, targetId: true, projectId: true, data: true },
    });
    expect(audit).toMatchObject({ actorId: user.id, targetId: task.id, projectId: p.id });
    expect(audit.data).toMatchObject({
      added: ['no-files-deleted', 'no-files-deleted-2', 'tests-pass-2'],
      removed: [],
      changed: ['tests-pass'],
      count: 4,
    });

    // removing everything is allowed (and audited)
    const cleared = await updateTaskCriteria(task.id, { criteria: [] }, user);
    expect(cleared.criteria).toEqual([]);
  });

  it('refuses reviewers, bad input, duplicate keys, unknown tasks and stale edits', async () => {
    const p = await ensureProject({ slug: 'c2', name: 'C2' });
    const task = await taskOf(p.id);
    const user = await lead('admin');
    await expect(updateTaskCriteria(task.id, { criteria: [{ text: 'x' }] }, await lead('reviewer'))).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(updateTaskCriteria(task.id, { criteria: [{ text: '   ' }] }, user)).rejects.toMatchObject({ code: 'BAD_INPUT' });
    await expect(updateTaskCriteria(task.id, { criteria: [{ text: 'y'.repeat(2001) }] }, user)).rejects.toMatchObject({
      code: 'BAD_INPUT',
    });
    await expect(
      updateTaskCriteria(
        task.id,
        {
          criteria: [
            { key: 'tests-pass', text: 'a' },
            { key: 'tests-pass', text: 'b' },
          ],
        },
        user,
      ),
    ).rejects.toMatchObject({ code: 'BAD_INPUT', message: expect.stringContaining('appears twice') });
    await expect(updateTaskCriteria('nope', { criteria: [] }, user)).rejects.toMatchObject({ code: 'NOT_FOUND' });

    await updateTaskCriteria(task.id, { criteria: [{ text: 'first edit' }], expectedUpdatedAt: task.updatedAt }, user);
    await expect(
      updateTaskCriteria(task.id, { criteria: [{ text: 'second edit' }], expectedUpdatedAt: task.updatedAt }, user),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(await db().auditLog.count({ where: { action: 'task.criteria.update' } })).toBe(1);
  });
});
