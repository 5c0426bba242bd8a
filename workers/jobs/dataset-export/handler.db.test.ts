import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requestExport } from '../../../lib/datasets/request-export';
import { db } from '../../../lib/db/client';
import { findExport } from '../../../lib/datasets/queries/exports';
import { resetDatabase } from '../../../lib/db/test/reset';
import { seedLabelledProject } from '../../../lib/db/test/seed-labels';
import { env, setEnv } from '../../../lib/env';
import { installQueue, stopQueueClient } from '../../../lib/queue/boss';
import { type RunningWorker, startWorker } from '../../run-worker';
import { datasetExportJob } from '../../../lib/queue/jobs/dataset-export';
import { datasetStorageKey } from '../../../lib/datasets/build-export';
import { datasetExportHandler } from './handler';

async function waitFor(check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('timed out waiting');
}

const ctx = { jobId: 'j', attempt: 0, signal: new AbortController().signal, log: () => {}, now: () => new Date() };

describe('dataset.export job (the UI path)', () => {
  let worker: RunningWorker | undefined;
  const url = () => env().DATABASE_URL!;
  beforeEach(async () => {
    await resetDatabase();
    setEnv('WITNESS_DATA_DIR', mkdtempSync(path.join(tmpdir(), 'witness-data-')));
    await installQueue(url(), [datasetExportJob]);
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
    await stopQueueClient();
  });

  it('builds the export in the worker: progress to done, content-addressed file in storage, a rerun is a no-op', async () => {
    const seeded = await seedLabelledProject({ tasks: 2, evalTasks: 1 });
    const { id } = await requestExport(
      url(),
      { projectId: seeded.projectId, format: 'trl-dpo', campaignId: seeded.pairwiseCampaignId, split: 'train' },
      null,
    );
    worker = await startWorker({
      databaseUrl: url(),
      handlers: [datasetExportHandler],
      pollingIntervalSeconds: 0.5,
      log: () => {},
    });
    await waitFor(async () => (await findExport(id))?.status === 'done');
    const row = (await findExport(id))!;
    expect(row).toMatchObject({ status: 'done', progress: 1, rows: 2, storageKey: datasetStorageKey(row.sha256!) });
    expect(row.card).toContain(row.sha256);
    const file = path.join(env().WITNESS_DATA_DIR, 'storage', row.storageKey!);
    const text = readFileSync(file, 'utf8');
    expect(text.trim().split('\n')).toHaveLength(2);
    expect(await datasetExportHandler.handle({ exportId: id }, ctx)).toEqual({ skipped: 'already done' });

    // the same definition again: a new version row, the same bytes, the same storage object
    const again = await requestExport(
      url(),
      { projectId: seeded.projectId, format: 'trl-dpo', campaignId: seeded.pairwiseCampaignId, split: 'train' },
      null,
    );
    await waitFor(async () => (await findExport(again.id))?.status === 'done');
    expect((await findExport(again.id))!.sha256).toBe(row.sha256);
  });

  it('the guard refuses at once from the UI path, naming the items, and records nothing', async () => {
    const seeded = await seedLabelledProject({ tasks: 1, evalTasks: 1 });
    await expect(requestExport(url(), { projectId: seeded.projectId, format: 'trl-sft' }, null)).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: expect.stringMatching(/^Refused: 3 items belong to eval-split tasks.*held-out-0/),
    });
    expect(await db().export.count()).toBe(0);
  });

  it('a refusal inside the job (eval data reached the worker) fails the row with the message, without retrying', async () => {
    const seeded = await seedLabelledProject({ tasks: 1, evalTasks: 1 });
    const row = await db().export.create({ data: { projectId: seeded.projectId, format: 'trl-kto', params: {} }, select: { id: true } });
    await expect(datasetExportHandler.handle({ exportId: row.id }, ctx)).rejects.toMatchObject({ name: 'PermanentJobError' });
    const failed = (await findExport(row.id))!;
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/eval-split tasks/);
  });
});
