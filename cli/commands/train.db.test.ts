import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../lib/db/client';
import { resetDatabase } from '../../lib/db/test/reset';
import { seedLabelledProject, type SeededLabels } from '../../lib/db/test/seed-labels';
import { setEnv } from '../../lib/env';
import { fakeIo } from '../io-testing';
import { main } from '../main';
import { parseLabels } from './train';

async function run(...argv: string[]) {
  const io = fakeIo();
  const code = await main(argv, io);
  return { code, out: io.out, err: io.err, json: () => JSON.parse(io.out) };
}

describe('witness train', () => {
  let seeded: SeededLabels;
  let base: string;
  beforeAll(async () => {
    await resetDatabase();
    setEnv('WITNESS_DATA_DIR', mkdtempSync(path.join(tmpdir(), 'witness-train-cli-')));
    seeded = await seedLabelledProject({ tasks: 2, evalTasks: 0 });
    base = (await db().policy.findFirstOrThrow({ where: { projectId: seeded.projectId, name: { contains: 'good' } } })).name;
  }, 120_000);

  it('starts a run (printing {id, status, rows, sha256}), lists, shows and cancels it with --json', async () => {
    const started = await run(
      'train',
      'start',
      '--project',
      seeded.slug,
      '--format',
      'trl-dpo',
      '--base',
      base,
      '--base-uri',
      'hf://tiny/base',
      '--campaign',
      seeded.pairwiseCampaignId,
      '--min-agreement',
      '0.5',
      '--labels',
      'gpu=a100, zone=eu',
      '--json',
    );
    expect(started.err).toBe('');
    expect(started.code).toBe(0);
    const body = started.json();
    expect(Object.keys(body)).toEqual(['id', 'status', 'rows', 'sha256']);
    const row = await db().trainingRun.findUniqueOrThrow({ where: { id: body.id } });
    expect(body).toEqual({ id: row.id, status: 'queued', rows: 2, sha256: row.datasetSha256 });
    expect(row).toMatchObject({
      agentLabels: { gpu: 'a100', zone: 'eu' },
      baseUri: 'hf://tiny/base',
      params: { split: 'train', minAgreement: 0.5 },
    });
    // the operator at the studio's terminal: no user in the audit log
    expect(await db().auditLog.findFirstOrThrow({ where: { action: 'training.run.start', targetId: row.id } })).toMatchObject({
      actorId: null,
    });

    const listed = await run('train', 'list', '--project', seeded.slug, '--json');
    expect(listed.json().runs.map((r: { id: string }) => r.id)).toEqual([row.id]);
    const shown = await run('train', 'show', row.id, '--json');
    const view = shown.json();
    expect(view).toMatchObject({
      id: row.id,
      status: 'queued',
      attempts: 0,
      rows: 2,
      checkpoint: null,
      metrics: [],
      canaryCampaign: null,
      base: { name: base, uri: 'hf://tiny/base' },
      labelSet: { rows: 2, reviewers: 2, campaigns: [seeded.pairwiseCampaignId] },
    });
    expect((await run('train', 'show', row.id, '--no-metrics', '--json')).json().metrics).toBeUndefined();
    const human = await run('train', 'show', row.id);
    expect(human.out).toContain(`${row.id}  queued`);
    expect(human.out).toContain('4 reviews by 2 reviewers');

    const cancelled = await run('train', 'cancel', row.id, '--json');
    expect(cancelled.json()).toMatchObject({ id: row.id, status: 'cancelled' });
    expect((await run('train', 'list', '--status', 'queued', '--json')).json()).toEqual({ runs: [] });
  });

  it('refuses a base that is no policy (1, nothing queued) and usage errors (2) before opening the database', async () => {
    const refused = await run('train', 'start', '--project', seeded.slug, '--format', 'trl-dpo', '--base', 'nope', '--json');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('no policy named nope');
    expect(refused.out).toBe('');
    const before = await db().trainingRun.count();
    expect((await run('train', 'start', '--project', seeded.slug, '--format', 'trl-dpo')).err).toContain('--base POLICY is required');
    expect((await run('train', 'start', '--project', seeded.slug, '--format', 'csv', '--base', base)).code).toBe(2);
    expect((await run('train', 'start', '--project', seeded.slug, '--format', 'trl-dpo', '--base', base, '--labels', 'gpu')).err).toContain(
      '--labels takes k=v pairs',
    );
    expect((await run('train', 'show')).code).toBe(2);
    expect((await run('train', 'list', '--base', base)).err).toContain('--base is for "witness train start" only');
    expect((await run('train', 'list', '--status', 'done')).code).toBe(2);
    expect((await run('train', 'fly')).code).toBe(2);
    expect(await db().trainingRun.count()).toBe(before);
    expect((await run('train', 'show', 'no-such-run', '--json')).err).toContain('No such training run');
  });

  it('reads --labels as k=v pairs', () => {
    expect(parseLabels('gpu=a100,zone = eu')).toEqual({ gpu: 'a100', zone: 'eu' });
    expect(parseLabels(undefined)).toBeUndefined();
    expect(() => parseLabels('=x')).toThrow('--labels takes k=v pairs');
  });
});
