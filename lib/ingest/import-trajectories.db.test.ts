import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../db/client';
import { resetDatabase } from '../db/test/reset';
import { ensureProject } from '../trajectories/queries/projects';
import { collectInputs } from './collect-inputs';
import { importTrajectories, type ImportReport } from './import-trajectories';
import { ParsePool } from './parse-pool';
import { decompressRawSourcePrefix, RAW_SOURCE_ENCODING, rawSourceEncoding } from './raw-source-codec';
import { ReadAheadPool } from './read-ahead-pool';
import { insightRefreshRunning } from '../insight/queries/insight-refresh';
import { env } from '../env';
import { installQueue, stopQueueClient } from '../queue/boss';
import { videoRenderJob } from '../queue/jobs/video-render';

const fixtures = path.join(import.meta.dirname, '..', 'formats', 'fixtures');
const collect = (paths: string[]) => collectInputs(paths, { format: 'auto', maxBytes: 1 << 30, readStdin: async () => '' });

/** The report without the generated ids (which differ by project). */
const shape = (r: ImportReport) => ({ ...r, trajectories: r.trajectories.map(({ id: _id, ...t }) => t) });

/** Everything stored about a project's trajectories, without generated ids and times. */
async function stored(projectId: string) {
  const rows = await db().trajectory.findMany({
    where: { projectId },
    orderBy: { contentHash: 'asc' },
    select: {
      contentHash: true,
      sourceFormat: true,
      externalId: true,
      stepCount: true,
      verifierReward: true,
      metadata: true,
      sourceWhere: true,
      task: { select: { name: true, instruction: true, acceptanceCriteria: true, split: true } },
      policy: { select: { name: true } },
      source: { select: { sha256: true, path: true, sizeBytes: true, content: true } },
      steps: { orderBy: { index: 'asc' }, select: { index: true, source: true, text: true, toolCalls: true, observations: true } },
    },
  });
  return rows.map((r) => ({ ...r, source: r.source && { ...r.source, content: Buffer.from(r.source.content).toString('base64') } }));
}

/**
 * The fixtures and the ATIF files imported inline into one project and with `via` (parse workers,
 * a read-ahead worker) into another: both report and store the same, the items in input order.
 */
async function importBothWays(slugs: [string, string], via: Pick<Parameters<typeof importTrajectories>[1], 'parsePool' | 'readAhead'>) {
  const a = await ensureProject({ slug: slugs[0], name: slugs[0] });
  const b = await ensureProject({ slug: slugs[1], name: slugs[1] });
  const inline = await importTrajectories(collect([fixtures, dir]), { projectId: a.id, format: 'auto', importedById: null });
  const order: string[] = [];
  const other = await importTrajectories(collect([fixtures, dir]), {
    projectId: b.id,
    format: 'auto',
    importedById: null,
    ...via,
    onItem: (item) => order.push(item.ok ? item.trajectory.task : `fail ${item.error.path}`),
  });
  expect(shape(other)).toEqual(shape(inline));
  expect(order.filter((o) => !o.startsWith('fail'))).toEqual(other.trajectories.map((t) => t.task));
  expect(await stored(b.id)).toEqual(await stored(a.id));
  return { inline, other, b };
}

let dir = '';
const pool1 = new ParsePool(1);
const pool2 = new ParsePool(2);
afterAll(() => Promise.all([pool1.close(), pool2.close()]));
beforeAll(async () => {
  // 80 small ATIF files, one broken: more than the pool parses inline (INLINE_FIRST), so workers take most
  dir = await mkdtemp(path.join(tmpdir(), 'witness-parse-workers-'));
  for (let i = 0; i < 80; i++) {
    const doc = {
      schema_version: 'ATIF-v1.4',
      session_id: `s${i}`,
      agent: { name: 'terminus-2', version: '1', model_name: `m${i % 3}` },
      extra: { task_name: `t${i % 7}` },
      steps: [
        { step_id: 1, source: 'user', message: `task ${i}` },
        {
          step_id: 2,
          source: 'agent',
          message: `done ${i}`,
          tool_calls: [{ tool_call_id: 'c', function_name: 'bash', arguments: { cmd: 'ls' } }],
        },
      ],
    };
    await writeFile(
      path.join(dir, `f${String(i).padStart(2, '0')}.json`),
      i === 17 ? '{"schema_version": "ATIF-v1.4", "steps": [' : JSON.stringify(doc),
    );
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('importTrajectories on parse workers', () => {
  beforeEach(resetDatabase);

  it('reports and stores exactly what the inline import does (every fixture format, failures included), in input order', async () => {
    const { inline, other: pooled, b } = await importBothWays(['inline', 'workers'], { parsePool: pool2 });
    expect(inline.imported).toBeGreaterThan(40);
    expect(inline.errors).toContainEqual({
      path: path.join(dir, 'f17.json'),
      where: 'line 1',
      message: expect.stringMatching(/^invalid JSON/),
    });
    expect(pool2.dispatched).toBeGreaterThan(10); // the workers did parse

    // re-import through the workers: everything skipped, the files parsed on the workers (f00-f79 but the broken one) unparsed this time
    const dispatched = pool2.dispatched;
    const again = await importTrajectories(collect([fixtures, dir]), {
      projectId: b.id,
      format: 'auto',
      importedById: null,
      parsePool: pool2,
    });
    expect(again.imported).toBe(0);
    expect(again.skipped).toBe(inline.imported + inline.skipped);
    expect(again.unchangedFiles).toBeGreaterThanOrEqual(79);
    expect(again.trajectories).toEqual(pooled.trajectories.map((t) => ({ ...t, created: false })));
    expect(pool2.dispatched - dispatched).toBeLessThan(5); // only files not imported completely went to the workers again
  }, 120_000);

  it('keeps each file as received: its raw source inflates to the same bytes, written Brotli-compressed (inline, on workers, streamed)', async () => {
    const p = await ensureProject({ slug: 'raw', name: 'raw' });
    await importTrajectories(collect([fixtures, dir]), { projectId: p.id, format: 'auto', importedById: null, parsePool: pool2 });
    const sources = await db().importSource.findMany({ where: { projectId: p.id } });
    expect(sources.length).toBeGreaterThan(70);
    for (const s of sources) {
      expect(s.contentEncoding).toBe(RAW_SOURCE_ENCODING);
      const { bytes, truncated } = await decompressRawSourcePrefix(s.content, rawSourceEncoding(s.contentEncoding), 1 << 30);
      expect(truncated).toBe(false);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(s.sha256); // a file's bytes, or a directory's bundle of its text files
      if ((await stat(s.path)).isDirectory()) {
        expect(Object.keys((JSON.parse(bytes.toString('utf8')) as { files: object }).files).length).toBeGreaterThan(0);
      } else {
        expect(bytes.byteLength).toBe(s.sizeBytes);
        expect(bytes.equals(await readFile(s.path))).toBe(true);
      }
    }
  }, 120_000);

  it('applies the overrides (policy, environment, split) on the workers as inline', async () => {
    const a = await ensureProject({ slug: 'o-inline', name: 'o-inline' });
    const b = await ensureProject({ slug: 'o-workers', name: 'o-workers' });
    const overrides = { policy: 'my-policy', environment: 'env-x', split: 'eval' as const };
    const inline = await importTrajectories(collect([dir]), { projectId: a.id, format: 'atif', importedById: null, ...overrides });
    const pooled = await importTrajectories(collect([dir]), {
      projectId: b.id,
      format: 'atif',
      importedById: null,
      parsePool: pool1,
      ...overrides,
    });
    expect(shape(pooled)).toEqual(shape(inline));
    expect(new Set(pooled.trajectories.map((t) => t.policy))).toEqual(new Set(['my-policy']));
    expect(await stored(b.id)).toEqual(await stored(a.id));
  }, 120_000);
});

describe('importTrajectories with a read-ahead worker', () => {
  beforeEach(resetDatabase);

  /** every stored raw source inflates to its file's bytes (or a directory's bundle) and hashes to its sha256 */
  async function expectRawSources(projectId: string) {
    const sources = await db().importSource.findMany({ where: { projectId } });
    expect(sources.length).toBeGreaterThan(70);
    for (const s of sources) {
      const { bytes } = await decompressRawSourcePrefix(s.content, rawSourceEncoding(s.contentEncoding), 1 << 30);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(s.sha256);
      if (!(await stat(s.path)).isDirectory()) expect(bytes.equals(await readFile(s.path))).toBe(true);
    }
  }

  it('reports and stores exactly what the inline import does; an unchanged file is read and hashed there but never compressed', async () => {
    const readAhead = new ReadAheadPool();
    try {
      const { inline, b } = await importBothWays(['ra-inline', 'ra-worker'], { readAhead });
      await expectRawSources(b.id);
      // the worker read the small files and compressed the raw source of every one stored (the broken f17 stores none, but is read)
      expect(readAhead.filesRead).toBeGreaterThan(80);
      expect(readAhead.sourcesCompressed).toBeGreaterThan(70);

      const compressed = readAhead.sourcesCompressed;
      const read = readAhead.filesRead;
      const again = await importTrajectories(collect([fixtures, dir]), { projectId: b.id, format: 'auto', importedById: null, readAhead });
      expect(again).toMatchObject({ imported: 0, failed: inline.failed });
      expect(again.unchangedFiles).toBeGreaterThanOrEqual(79);
      // every small file read and hashed on the worker again, but only those not imported completely before (the broken
      // one and fixtures with a failing item) are parsed, and so compressed
      const readAgain = readAhead.filesRead - read;
      expect(readAgain).toBeGreaterThan(80);
      expect(readAhead.sourcesCompressed - compressed).toBeLessThanOrEqual(readAgain - again.unchangedFiles);
      expect(readAhead.sourcesCompressed - compressed).toBeLessThan(readAgain / 5);
    } finally {
      await readAhead.close();
    }
  }, 120_000);

  it('loses nothing when the worker stops after reading a chunk: that chunk is compressed inline, the next read on a new worker', async () => {
    const readAhead = new ReadAheadPool();
    const read = readAhead.read.bind(readAhead);
    let stopped = 0;
    readAhead.read = async (paths) => {
      const chunk = await read(paths);
      stopped++;
      await readAhead['worker']?.terminate(); // as if it had crashed between the read and the compression
      return chunk;
    };
    try {
      const { b } = await importBothWays(['rd-inline', 'rd-worker'], { readAhead });
      expect(stopped).toBeGreaterThan(0);
      await expectRawSources(b.id);
      expect(readAhead.sourcesCompressed).toBe(0); // every raw source was compressed inline
    } finally {
      await readAhead.close();
    }
  }, 120_000);
});

describe('re-importing unchanged files', () => {
  beforeEach(resetDatabase);

  const atif = (i: number, message = `done ${i}`) =>
    JSON.stringify({
      schema_version: 'ATIF-v1.4',
      session_id: `u${i}`,
      agent: { name: 'terminus-2', model_name: 'm' },
      extra: { task_name: `task-${i % 3}` },
      steps: [
        { step_id: 1, source: 'user', message: `task ${i}` },
        { step_id: 2, source: 'agent', message },
      ],
    });
  // OpenAI chat JSONL (one conversation a line, as in lib/formats/fixtures/openai/batch.jsonl): three trajectories in one file
  const conversations = (broken: boolean, topic = 'q') =>
    [0, 1, 2]
      .map((i) =>
        broken && i === 1
          ? '{"messages": [{"role": 7, "content": "bad role"}]}'
          : JSON.stringify({
              messages: [
                { role: 'user', content: `${topic} question ${i}` },
                { role: 'assistant', content: `answer ${i}` },
              ],
            }),
      )
      .join('\n') + '\n';

  async function files(contents: Record<string, string>): Promise<string> {
    const at = await mkdtemp(path.join(tmpdir(), 'witness-unchanged-'));
    for (const [name, text] of Object.entries(contents)) await writeFile(path.join(at, name), text);
    return at;
  }
  const sources = (projectId: string) =>
    db().importSource.findMany({ where: { projectId }, orderBy: { path: 'asc' }, select: { path: true, itemCount: true } });

  for (const pooled of [false, true]) {
    it(`skips a file imported completely before unparsed, with its trajectories and count${pooled ? ' (parse workers)' : ''}`, async () => {
      const at = await files({ 'a.json': atif(1), 'b.json': atif(2), 'chats.jsonl': conversations(false) });
      const project = await ensureProject({ slug: 'unchanged', name: 'unchanged' });
      const options = { projectId: project.id, format: 'auto' as const, importedById: null, parsePool: pooled ? pool1 : undefined };
      const first = await importTrajectories(collect([at]), options);
      expect(first).toMatchObject({ imported: 5, skipped: 0, failed: 0, unchangedFiles: 0 });
      expect(await sources(project.id)).toEqual([
        { path: path.join(at, 'a.json'), itemCount: 1 },
        { path: path.join(at, 'b.json'), itemCount: 1 },
        { path: path.join(at, 'chats.jsonl'), itemCount: 3 },
      ]);

      const order: string[] = [];
      const second = await importTrajectories(collect([at]), { ...options, onItem: (i) => order.push(i.ok ? i.trajectory.id : 'error') });
      expect(second).toMatchObject({ imported: 0, skipped: 5, failed: 0, unchangedFiles: 3, errors: [] });
      // the same trajectories, ids and order as the import that stored them, only not created
      expect(second.trajectories).toEqual(first.trajectories.map((t) => ({ ...t, created: false })));
      expect(order).toEqual(first.trajectories.map((t) => t.id));

      // the same bytes forced as the format they were read as are still unchanged; any other format is parsed
      const forced = await importTrajectories(collect([path.join(at, 'chats.jsonl')]), { ...options, format: 'openai' });
      expect(forced).toMatchObject({ skipped: 3, unchangedFiles: 1 });
      await rm(at, { recursive: true, force: true });
    });
  }

  it('imports a file with one changed byte', async () => {
    const at = await files({ 'a.json': atif(1), 'b.json': atif(2) });
    const project = await ensureProject({ slug: 'changed', name: 'changed' });
    const options = { projectId: project.id, format: 'auto' as const, importedById: null };
    await importTrajectories(collect([at]), options);
    const before = atif(2);
    const after = atif(2, 'done 3'); // the same length: one byte differs
    expect(after.length).toBe(before.length);
    await writeFile(path.join(at, 'b.json'), after);
    const again = await importTrajectories(collect([at]), options);
    expect(again).toMatchObject({ imported: 1, skipped: 1, failed: 0, unchangedFiles: 1 });
    expect(again.trajectories.map((t) => t.created)).toEqual([false, true]);
    expect((await sources(project.id)).map((s) => s.itemCount)).toEqual([1, 1, 1]);
    await rm(at, { recursive: true, force: true });
  });

  it('parses again a file whose earlier import failed or stored only part of it, or lost a trajectory since', async () => {
    const at = await files({ 'partial.jsonl': conversations(true, 'partial'), 'whole.jsonl': conversations(false, 'whole') });
    const project = await ensureProject({ slug: 'partial', name: 'partial' });
    const options = { projectId: project.id, format: 'auto' as const, importedById: null };
    const first = await importTrajectories(collect([at]), options);
    // the broken line fails; the file's other trajectories are stored but the file is not complete
    expect(first).toMatchObject({ imported: 5, failed: 1, unchangedFiles: 0 });
    expect((await sources(project.id)).map((s) => s.itemCount)).toEqual([null, 3]);
    const second = await importTrajectories(collect([at]), options);
    expect(second).toMatchObject({ imported: 0, skipped: 5, failed: 1, unchangedFiles: 1 });
    expect(second.errors).toEqual(first.errors);

    // a trajectory of the complete file deleted since: the file is parsed and the trajectory stored again
    const whole = second.trajectories.slice(2);
    await insightRefreshRunning(); // this process's background summary refresh done before deleting behind its back
    await db().trajectory.delete({ where: { id: whole[1]!.id } });
    const third = await importTrajectories(collect([at]), options);
    expect(third).toMatchObject({ imported: 1, skipped: 4, failed: 1, unchangedFiles: 0 });

    // a file whose only trajectory failed to store (a refused split) has no source: it imports once the conflict is gone
    const base = await files({ 'base.json': atif(1) });
    expect(await importTrajectories(collect([base]), options)).toMatchObject({ imported: 1 }); // task-1, train split
    const single = await files({ 'one.json': atif(7) }); // task-1 too
    const refused = await importTrajectories(collect([single]), { ...options, split: 'eval' });
    expect(refused).toMatchObject({ imported: 0, failed: 1 });
    expect(refused.errors[0]!.message).toMatch(/already in the train split/);
    const accepted = await importTrajectories(collect([single]), options);
    expect(accepted).toMatchObject({ imported: 1, failed: 0, unchangedFiles: 0 });
    await Promise.all([at, base, single].map((d) => rm(d, { recursive: true, force: true })));
  });
});

describe('the follow-ups an import requests itself (followUps: the API route and witness import pass it)', () => {
  beforeEach(resetDatabase);

  it('queues a render for each trajectory the import created, and none for a re-import that created nothing', async () => {
    await installQueue(env().DATABASE_URL!, [videoRenderJob]);
    try {
      const project = await ensureProject({ slug: 'follow-ups', name: 'follow-ups' });
      const input = path.join(fixtures, 'tau2', 'simulation.json');
      const options = {
        projectId: project.id,
        format: 'auto' as const,
        importedById: null,
        followUps: { databaseUrl: env().DATABASE_URL! },
      };
      const first = await importTrajectories(collect([input]), options);
      const created = first.trajectories.filter((t) => t.created).map((t) => t.id);
      expect(created.length).toBeGreaterThan(0);
      const videos = await db().video.findMany({ where: { trajectory: { projectId: project.id } }, select: { trajectoryId: true } });
      expect(videos.map((v) => v.trajectoryId).sort()).toEqual([...created].sort());

      const again = await importTrajectories(collect([input]), options);
      expect(again.imported).toBe(0);
      expect(await db().video.count({ where: { trajectory: { projectId: project.id } } })).toBe(created.length);

      // without followUps (tests, the bench, the seeds) nothing is queued
      const quiet = await ensureProject({ slug: 'no-follow-ups', name: 'no-follow-ups' });
      await importTrajectories(collect([input]), { ...options, projectId: quiet.id, followUps: undefined });
      expect(await db().video.count({ where: { trajectory: { projectId: quiet.id } } })).toBe(0);
    } finally {
      await stopQueueClient();
    }
  });
});
