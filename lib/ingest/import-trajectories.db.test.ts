import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../db/infra/client';
import { resetDatabase } from '../db/test/reset';
import { ensureProject } from '../db/trajectories/projects';
import { collectInputs } from './collect-inputs';
import { importTrajectories, type ImportReport } from './import-trajectories';
import { ParsePool } from './parse-pool';

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
    const a = await ensureProject({ slug: 'inline', name: 'inline' });
    const b = await ensureProject({ slug: 'workers', name: 'workers' });
    const inline = await importTrajectories(collect([fixtures, dir]), { projectId: a.id, format: 'auto', importedById: null });
    const order: string[] = [];
    const pooled = await importTrajectories(collect([fixtures, dir]), {
      projectId: b.id,
      format: 'auto',
      importedById: null,
      parsePool: pool2,
      onItem: (item) => order.push(item.ok ? `${item.trajectory.task}` : `fail ${item.error.path}`),
    });
    expect(inline.imported).toBeGreaterThan(40);
    expect(inline.errors).toContainEqual({
      path: path.join(dir, 'f17.json'),
      where: 'line 1',
      message: expect.stringMatching(/^invalid JSON/),
    });
    expect(pool2.dispatched).toBeGreaterThan(10); // the workers did parse
    expect(shape(pooled)).toEqual(shape(inline));
    expect(order.filter((o) => !o.startsWith('fail'))).toEqual(pooled.trajectories.map((t) => t.task));
    expect(await stored(b.id)).toEqual(await stored(a.id));

    // re-import through the workers: everything skipped
    const again = await importTrajectories(collect([fixtures, dir]), {
      projectId: b.id,
      format: 'auto',
      importedById: null,
      parsePool: pool2,
    });
    expect(again.imported).toBe(0);
    expect(again.skipped).toBe(inline.imported + inline.skipped);
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
