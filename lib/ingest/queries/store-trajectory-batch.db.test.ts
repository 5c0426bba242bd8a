import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../errors';
import { memorySource } from '../../formats/source';
import type { Step, Trajectory } from '../../formats/trajectory';
import type { CollectedInput } from '../collect-inputs';
import { importTrajectories } from '../import-trajectories';
import { prepareTrajectory, type ImportOverrides } from '../prepare-trajectory';
import { db } from '../../db/client';
import { ensureProject } from '../../trajectories/queries/projects';
import { resetDatabase } from '../../db/test/reset';
import { batchFailure, storeTrajectory, type RawSource } from '../store-trajectory';
import { closeTrajectoryBatchPool } from '../../db/pg-pool';
import { storableJson, storableText, toStorable, type BatchOutcome, type StorableTrajectory } from './storable-trajectory';
import { storeTrajectoryBatch, TRAJECTORY_INSERT } from './store-trajectory-batch';
import { batchPool } from '../../db/pg-pool';

function step(index: number, over: Partial<Step> = {}): Step {
  return {
    index,
    source: 'agent',
    text: `step ${index}`,
    reasoning: null,
    toolCalls: [{ id: `call_${index}`, name: 'bash', arguments: { command: `echo ${index}`, timeout: 30 } }],
    observations: [{ toolCallId: `call_${index}`, content: `out ${index}\n\tindented`, isError: false }],
    timestamp: new Date(Date.UTC(2025, 10, 2, 9, 0, index)).toISOString(),
    castTime: null,
    usage: { promptTokens: 100 + index, completionTokens: 10, costUsd: 0.001 },
    ...over,
  };
}

function trajectory(
  externalId: string,
  over: { task?: string; steps?: Step[]; criteria?: string[]; environment?: string | null; split?: 'train' | 'eval' | null } = {},
): Trajectory {
  const steps = over.steps ?? [step(0, { source: 'user', toolCalls: [], observations: [] }), step(1), step(2)];
  return {
    format: 'atif',
    externalId,
    task: {
      name: over.task ?? `task-${externalId}`,
      instruction: `do ${externalId}`,
      acceptanceCriteria: (over.criteria ?? []).map((text, i) => ({ key: `c${i}`, text, origin: 'task' as const, verdict: null })),
      environment: over.environment ?? null,
      split: over.split ?? null,
      metadata: {},
    },
    policy: { model: 'model-x', checkpoint: null, agent: 'terminus-2' },
    steps,
    verifier: { reward: 1, components: { tests: 1 } },
    judgeScores: [{ judge: 'judge-1', score: 0.5, label: 'ok', explanation: null }],
    usage: null,
    terminal: null,
    submission: null,
    exitStatus: null,
    startedAt: steps[0]?.timestamp ?? null,
    endedAt: steps.at(-1)?.timestamp ?? null,
    metadata: { schemaVersion: 'ATIF-v1.4' },
  };
}

const source: RawSource = {
  sha256: 'a'.repeat(64),
  path: 'batch.jsonl',
  format: 'atif',
  sizeBytes: 3,
  content: new Uint8Array([31, 139, 8]),
  encoding: 'gzip',
};

async function storable(t: Trajectory, overrides: ImportOverrides = {}): Promise<StorableTrajectory> {
  return toStorable(prepareTrajectory(t, overrides), { source, sourceWhere: `line ${t.externalId}`, importedById: null });
}

async function counts(projectId: string) {
  const [trajectories, steps, tasks, judges, sources] = await Promise.all([
    db().trajectory.count({ where: { projectId } }),
    db().step.count({ where: { trajectory: { projectId } } }),
    db().task.count({ where: { projectId } }),
    db().judgeScore.count({ where: { trajectory: { projectId } } }),
    db().importSource.count({ where: { projectId } }),
  ]);
  return { trajectories, steps, tasks, judges, sources };
}

describe('batch storage of trajectories', () => {
  beforeEach(resetDatabase);
  afterAll(closeTrajectoryBatchPool);

  it('stores a batch in one go: rows, steps with their JSON, tasks and policies found or created once', async () => {
    const project = await ensureProject({ slug: 'batch', name: 'batch' });
    const items = await Promise.all([
      storable(trajectory('1', { task: 'shared' })),
      storable(trajectory('2', { task: 'shared' })),
      storable(trajectory('3')),
    ]);
    const outcomes = await storeTrajectoryBatch(project.id, items);
    expect(outcomes.map((o) => o.ok && o.created)).toEqual([true, true, true]);
    expect(await counts(project.id)).toEqual({ trajectories: 3, steps: 9, tasks: 2, judges: 3, sources: 1 });
    expect(await db().policy.count({ where: { projectId: project.id } })).toBe(1);

    const stored = await db().trajectory.findUniqueOrThrow({
      where: { id: (outcomes[0] as { id: string }).id },
      include: { steps: { orderBy: { index: 'asc' } }, task: true, policy: true, source: true },
    });
    expect(stored).toMatchObject({
      externalId: '1',
      stepCount: 3,
      verifierReward: 1,
      verifierComponents: { tests: 1 },
      sourceWhere: 'line 1',
      startedAt: new Date(Date.UTC(2025, 10, 2, 9, 0, 0)),
      endedAt: new Date(Date.UTC(2025, 10, 2, 9, 0, 2)),
      metadata: { schemaVersion: 'ATIF-v1.4' },
      task: { name: 'shared', instruction: 'do 1', split: 'train' },
      policy: { name: 'model-x / terminus-2', model: 'model-x', agent: 'terminus-2' },
      source: { sha256: source.sha256, path: 'batch.jsonl' },
    });
    expect(stored.steps[1]).toMatchObject({
      index: 1,
      source: 'agent',
      text: 'step 1',
      reasoning: null,
      toolCalls: [{ id: 'call_1', name: 'bash', arguments: { command: 'echo 1', timeout: 30 } }],
      observations: [{ toolCallId: 'call_1', content: 'out 1\n\tindented', isError: false }],
      timestamp: new Date(Date.UTC(2025, 10, 2, 9, 0, 1)),
      usage: { promptTokens: 101, completionTokens: 10, costUsd: 0.001 },
    });
    expect(stored.steps[0]!.toolCalls).toEqual([]);
  });

  it('stores a task and a policy named __proto__ like any other (the rows find their ids by name)', async () => {
    const project = await ensureProject({ slug: 'proto', name: 'proto' });
    const t = trajectory('p1', { task: '__proto__' });
    t.policy = { model: '__proto__', checkpoint: null, agent: null };
    const [outcome] = await storeTrajectoryBatch(project.id, [await storable(t)]);
    expect(outcome).toMatchObject({ ok: true, created: true });
    const stored = await db().trajectory.findUniqueOrThrow({
      where: { id: (outcome as { id: string }).id },
      include: { task: true, policy: true, source: true },
    });
    expect(stored).toMatchObject({ task: { name: '__proto__' }, policy: { name: '__proto__' }, source: { sha256: source.sha256 } });
  });

  it('stores each raw source byte for byte (binary COPY): its content, encoding, size, and a path with tabs, newlines, backslashes and non-ASCII', async () => {
    const project = await ensureProject({ slug: 'raw', name: 'raw' });
    const content = new Uint8Array(70_000).map((_, i) => (i * 7919) % 256); // every byte value
    const odd: RawSource = {
      sha256: 'b'.repeat(64),
      path: 'runs/a\tb\nc\\d \\N “é”.json',
      format: 'atif',
      sizeBytes: 123_456,
      content,
      encoding: 'br',
    };
    const item = await toStorable(prepareTrajectory(trajectory('raw')), { source: odd, sourceWhere: '/', importedById: null });
    const [outcome] = await storeTrajectoryBatch(project.id, [item]);
    expect(outcome).toMatchObject({ ok: true, created: true });
    const row = await db().importSource.findFirstOrThrow({ where: { projectId: project.id } });
    expect({
      path: row.path,
      format: row.format,
      sizeBytes: row.sizeBytes,
      sha256: row.sha256,
      itemCount: row.itemCount,
      encoding: row.contentEncoding,
    }).toEqual({
      path: odd.path,
      format: 'atif',
      sizeBytes: 123_456,
      sha256: odd.sha256,
      itemCount: null,
      encoding: 'br',
    });
    expect(Buffer.from(row.content).equals(Buffer.from(content))).toBe(true);
  });

  it('counts a duplicate within a batch and across imports as skipped, with the stored id', async () => {
    const project = await ensureProject({ slug: 'dupes', name: 'dupes' });
    const [a, b, aAgain] = await Promise.all([storable(trajectory('a')), storable(trajectory('b')), storable(trajectory('a'))]);
    const first = await storeTrajectoryBatch(project.id, [a!, b!, aAgain!]);
    expect(first.map((o) => o.ok && o.created)).toEqual([true, true, false]);
    expect((first[2] as { id: string }).id).toBe((first[0] as { id: string }).id);

    const second = await storeTrajectoryBatch(project.id, [await storable(trajectory('a')), await storable(trajectory('c'))]);
    expect(second.map((o) => o.ok && o.created)).toEqual([false, true]);
    expect((second[0] as { id: string }).id).toBe((first[0] as { id: string }).id);
    expect(await counts(project.id)).toMatchObject({ trajectories: 3, steps: 9 });
  });

  it('a batch with one item the database refuses stores the others, and nothing of the bad one', async () => {
    const project = await ensureProject({ slug: 'one-bad', name: 'one-bad' });
    // a step index over PostgreSQL's integer range: the trajectory row goes in, then its steps fail
    const bad = trajectory('bad', { task: 'only-the-bad-one', steps: [step(0), step(3_000_000_000)] });
    // a timestamp before PostgreSQL's range (4713 BC): fine for JavaScript, refused by the database
    const early = trajectory('early', { task: 'only-the-early-one', steps: [step(0, { timestamp: '-100000-01-01T00:00:00.000Z' })] });
    const items = await Promise.all(['1', '2', '3', '4', '5'].map((n) => storable(trajectory(n))));
    const outcomes = await storeTrajectoryBatch(project.id, [
      items[0]!,
      await storable(bad),
      items[1]!,
      items[2]!,
      await storable(early),
      items[3]!,
      items[4]!,
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true, true, false, true, true]);
    expect(String((outcomes[1] as { error: Error }).error)).toMatch(/out of range/);
    expect(await counts(project.id)).toMatchObject({ trajectories: 5, steps: 15, tasks: 5, judges: 5 });
    expect(await db().task.count({ where: { name: { in: ['only-the-bad-one', 'only-the-early-one'] } } })).toBe(0);
    expect(await db().trajectory.count({ where: { externalId: { in: ['bad', 'early'] } } })).toBe(0);
  });

  it('refuses only the item whose explicit split conflicts with its task, before writing', async () => {
    const project = await ensureProject({ slug: 'splits', name: 'splits' });
    await storeTrajectory(project.id, prepareTrajectory(trajectory('e1', { task: 'measured' }), { split: 'eval' }), {
      source: null,
      sourceWhere: null,
      importedById: null,
    });
    const outcomes = await storeTrajectoryBatch(project.id, [
      await storable(trajectory('t1', { task: 'measured' }), { split: 'train' }),
      await storable(trajectory('t2', { task: 'fresh' }), { split: 'train' }),
    ]);
    expect(outcomes[0]).toEqual({ ok: false, splitConflict: { taskName: 'measured', split: 'eval' } });
    // the import's use-case turns it into the refusal it reports (lib/ingest/store-trajectory.ts)
    const error = batchFailure(outcomes[0] as Extract<BatchOutcome, { ok: false }>);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('CONFLICT');
    expect((error as AppError).message).toMatch(/task "measured" is already in the eval split/);
    expect(outcomes[1]).toMatchObject({ ok: true, created: true });
    expect(
      await db().task.findMany({ where: { projectId: project.id }, select: { name: true, split: true }, orderBy: { name: 'asc' } }),
    ).toEqual([
      { name: 'fresh', split: 'train' },
      { name: 'measured', split: 'eval' },
    ]);
    await expect(
      storeTrajectory(project.id, prepareTrajectory(trajectory('t3', { task: 'measured' }), { split: 'train' }), {
        source: null,
        sourceWhere: null,
        importedById: null,
      }),
    ).rejects.toThrow(/already in the eval split/);
  });

  it('stores NUL characters and unpaired surrogates as U+FFFD, and the same content still deduplicates', async () => {
    const project = await ensureProject({ slug: 'nul', name: 'nul' });
    const dirty = () =>
      trajectory('nul', {
        task: 'bin\u0000ary',
        steps: [
          step(0, {
            text: 'cat a.out: \u0000\u0001ELF \ud800 and a pair \ud83d\ude00, a literal \\u0000 stays',
            reasoning: 'r\u0000',
            toolCalls: [{ id: 'c', name: 'bash', arguments: { command: 'printf "\u0000"', nested: ['\udc00'] } }],
            observations: [{ toolCallId: 'c', content: 'x\u0000y', isError: true }],
          }),
        ],
      });
    const [first] = await storeTrajectoryBatch(project.id, [await storable(dirty())]);
    expect(first).toMatchObject({ ok: true, created: true });
    const stored = await db().step.findFirstOrThrow({ where: { trajectory: { projectId: project.id } } });
    expect(stored.text).toBe('cat a.out: \uFFFD\u0001ELF \uFFFD and a pair \ud83d\ude00, a literal \\u0000 stays');
    expect(stored.reasoning).toBe('r\uFFFD');
    expect(stored.toolCalls).toEqual([{ id: 'c', name: 'bash', arguments: { command: 'printf "\uFFFD"', nested: ['\uFFFD'] } }]);
    expect(stored.observations).toEqual([{ toolCallId: 'c', content: 'x\uFFFDy', isError: true }]);
    expect(await db().task.findFirst({ where: { projectId: project.id }, select: { name: true } })).toEqual({ name: 'bin\uFFFDary' });

    const [again] = await storeTrajectoryBatch(project.id, [await storable(dirty())]);
    expect(again).toMatchObject({ ok: true, created: false, id: (first as { id: string }).id });
  });

  it('fills what an earlier import could not know (criteria, environment) but never overwrites', async () => {
    const project = await ensureProject({ slug: 'fills', name: 'fills' });
    await storeTrajectoryBatch(project.id, [await storable(trajectory('1', { task: 'k' }))]);
    await storeTrajectoryBatch(project.id, [
      await storable(trajectory('2', { task: 'k', criteria: ['first criteria'], environment: 'env-a' })),
      await storable(trajectory('3', { task: 'k', criteria: ['second criteria'], environment: 'env-b' })),
    ]);
    const task = await db().task.findFirstOrThrow({ where: { projectId: project.id, name: 'k' }, include: { environment: true } });
    expect(task.acceptanceCriteria).toEqual([{ key: 'c0', text: 'first criteria', origin: 'task', verdict: null }]);
    expect(task.environment?.name).toBe('env-a');
    expect(await db().environment.count({ where: { projectId: project.id } })).toBe(2); // both named, as one by one
  });

  it('stores a 10,000-step trajectory in several COPY pieces within one transaction', async () => {
    const project = await ensureProject({ slug: 'long', name: 'long' });
    const steps = Array.from({ length: 10_000 }, (_, i) => step(i, { text: `step ${i} ${'x'.repeat(200)}` }));
    const item = await storable(trajectory('long', { steps }));
    expect(item.stepCopy.length).toBeGreaterThan(1);
    const [outcome] = await storeTrajectoryBatch(project.id, [item]);
    expect(outcome).toMatchObject({ ok: true, created: true });
    expect(await db().step.count({ where: { trajectoryId: (outcome as { id: string }).id } })).toBe(10_000);
  });

  it('two imports of the same batch at once store each trajectory exactly once', async () => {
    const project = await ensureProject({ slug: 'race', name: 'race' });
    const make = () => Promise.all(['1', '2', '3', '4'].map((n) => storable(trajectory(n, { task: 'same-task' }))));
    const [left, right] = await Promise.all([
      make().then((i) => storeTrajectoryBatch(project.id, i)),
      make().then((i) => storeTrajectoryBatch(project.id, i)),
    ]);
    for (let k = 0; k < 4; k++) {
      expect(left[k]!.ok && right[k]!.ok).toBe(true);
      expect([left[k], right[k]].filter((o) => o!.ok && o!.created)).toHaveLength(1);
      expect((left[k] as { id: string }).id).toBe((right[k] as { id: string }).id);
    }
    expect(await counts(project.id)).toMatchObject({ trajectories: 4, steps: 12, tasks: 1 });
  });

  it('reads no raw source per trajectory where the statistics saw the project empty (a new project in a used database)', async () => {
    // each trajectory its own file, as a directory of ATIF files imports
    const withOwnSource = (t: Trajectory, n: number) =>
      toStorable(prepareTrajectory(t), {
        source: { ...source, sha256: n.toString(16).padStart(64, '0'), path: `${t.externalId}.json` },
        sourceWhere: '/',
        importedById: null,
      });
    const batchOf = (prefix: string, from: number, n: number) =>
      Promise.all(Array.from({ length: n }, (_, i) => withOwnSource(trajectory(`${prefix}${from + i}`, { task: `t${i % 5}` }), from + i)));
    // a used database: another project with 20,000 raw sources, 500 tasks and 8 policies
    const other = await ensureProject({ slug: 'used', name: 'used' });
    for (const sql of [
      `INSERT INTO import_source (id, "projectId", sha256, path, format, "sizeBytes", content, "contentEncoding")
       SELECT 'used-' || n, $1, md5(n::text) || md5(n::text), n || '.json', 'atif', 3, '\\x1f8b08', 'gzip' FROM generate_series(1, 20000) AS n`,
      `INSERT INTO task (id, "projectId", name, instruction, "updatedAt") SELECT 'used-' || n, $1, 'task ' || n, 'do', now() FROM generate_series(1, 500) AS n`,
      `INSERT INTO policy (id, "projectId", name) SELECT 'used-' || n, $1, 'policy ' || n FROM generate_series(1, 8) AS n`,
    ])
      await batchPool().query(sql, [other.id]);
    const project = await ensureProject({ slug: 'new', name: 'new' });
    await db().$executeRawUnsafe('ANALYZE import_source, task, policy, trajectory');
    expect((await storeTrajectoryBatch(project.id, await batchOf('n', 1000, 200))).every((o) => o.ok)).toBe(true);

    // the next batch's trajectory rows, planned and run on these statistics (rolled back), counting the raw source rows read:
    // the project's 200 sources read once per row would be 200 x 100
    const next = await batchOf('n', 2000, 100);
    const ids = async (sql: string, keys: string[]) =>
      Object.fromEntries((await batchPool().query(sql, [project.id, keys])).rows.map((r: { key: string; id: string }) => [r.key, r.id]));
    const params = [
      project.id,
      `[${next.map((i) => i.trajectoryJson).join(',')}]`,
      JSON.stringify(
        await ids('SELECT name AS key, id FROM task WHERE "projectId" = $1 AND name = ANY($2)', [...new Set(next.map((i) => i.taskName))]),
      ),
      JSON.stringify(await ids('SELECT name AS key, id FROM policy WHERE "projectId" = $1 AND name = ANY($2)', [next[0]!.policyName])),
      '{}', // their raw sources are not stored yet (the batch would COPY them first): no ids to look up
    ];
    const sourceRowsRead = async (sql: string, values: unknown[]) => {
      const client = await batchPool().connect();
      try {
        await client.query('BEGIN');
        const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, values);
        let read = 0;
        const walk = (node: Record<string, unknown>) => {
          if (node['Relation Name'] === 'import_source') read += Number(node['Actual Rows']) * Number(node['Actual Loops']);
          for (const child of (node['Plans'] as Record<string, unknown>[] | undefined) ?? []) walk(child);
        };
        walk((rows[0]['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0]!.Plan);
        return read;
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    };
    expect(await sourceRowsRead(TRAJECTORY_INSERT, params)).toBe(0);
    // the same rows joined to their task, policy and raw source by name (as before): on these statistics PostgreSQL reads the
    // project's every source for each row, which is what the lookups avoid (if this stops holding, the setup no longer shows the trap)
    const joined = TRAJECTORY_INSERT.replace('$3::jsonb->>r.task, $4::jsonb->>r.policy', 'k.id, p.id')
      .replace('$5::jsonb->>r.sha', 's.id')
      .replace(
        'ON CONFLICT',
        `JOIN task k ON k."projectId" = $1 AND k.name = r.task
         JOIN policy p ON p."projectId" = $1 AND p.name = r.policy
         LEFT JOIN import_source s ON s."projectId" = $1 AND s.sha256 = r.sha
         ON CONFLICT`,
      );
    expect(await sourceRowsRead(joined, params.slice(0, 2))).toBeGreaterThanOrEqual(100 * 200);
  });

  it('keeps the report and progress in input order across batches, failures included', async () => {
    const project = await ensureProject({ slug: 'order', name: 'order' });
    const atif = (i: number, task = `t${i}`) =>
      JSON.stringify({
        schema_version: 'ATIF-v1.4',
        session_id: `s${i}`,
        agent: { name: 'terminus-2', version: '1' },
        extra: { task_name: task },
        steps: [{ step_id: 1, source: 'user', message: `hello ${i}` }],
      });
    const inputs: CollectedInput[] = [];
    const expected: string[] = [];
    for (let i = 0; i < 600; i++) {
      // every 97th input is broken, every 50th repeats an earlier one
      const text = i % 97 === 5 ? '{"schema_version": "ATIF-v1.4", "steps": [' : i % 50 === 49 ? atif(i - 10) : atif(i);
      inputs.push({ ok: true, path: `in-${i}`, input: { kind: 'file', file: memorySource(`in-${i}`, text) } });
      expected.push(i % 97 === 5 ? `fail in-${i}` : i % 50 === 49 ? `skip s${i - 10}` : `new s${i}`);
    }
    const seen: string[] = [];
    const report = await importTrajectories(inputs, {
      projectId: project.id,
      format: 'auto',
      importedById: null,
      onItem: (item) =>
        seen.push(
          item.ok ? `${item.trajectory.created ? 'new' : 'skip'} ${item.trajectory.task.replace('t', 's')}` : `fail ${item.error.path}`,
        ),
    });
    expect(seen).toEqual(expected);
    expect(report.failed).toBe(expected.filter((e) => e.startsWith('fail')).length);
    expect(report.skipped).toBe(expected.filter((e) => e.startsWith('skip')).length);
    expect(report.imported).toBe(expected.filter((e) => e.startsWith('new')).length);
    expect(report.trajectories.map((t) => t.task)).toEqual(
      expected.filter((e) => !e.startsWith('fail')).map((e) => e.split(' ')[1]!.replace('s', 't')),
    );
    expect(report.errors.map((e) => e.path)).toEqual(expected.filter((e) => e.startsWith('fail')).map((e) => e.split(' ')[1]));
  });
});

describe('storable text', () => {
  it('replaces NUL and unpaired surrogates only', () => {
    expect(storableText('a\u0000b\ud800c\udc00d\ud83d\ude00')).toBe('a\uFFFDb\uFFFDc\uFFFDd\ud83d\ude00');
    expect(storableText('plain')).toBe('plain');
    expect(JSON.parse(storableJson({ a: 'x\u0000', b: '\\u0000', c: '\\\u0000', d: '\udfff' }))).toEqual({
      a: 'x\uFFFD',
      b: '\\u0000',
      c: '\\\uFFFD',
      d: '\uFFFD',
    });
  });
});
