import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../../lib/db/client';
import { resetDatabase } from '../../../lib/db/test/reset';
import { env } from '../../../lib/env';
import { installQueue, stopQueueClient } from '../../../lib/queue/boss';
import { trainingCanaryJob } from '../../../lib/queue/jobs/training-canary';
import { requestCanaryCheck } from '../../../lib/training/request-canary-check';
import { type RunningWorker, startWorker } from '../../run-worker';
import { trainingCanaryHandler } from './handler';

async function waitFor(check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('timed out waiting');
}

describe('training.canary job (requested after an import or a checkpoint)', () => {
  let worker: RunningWorker | undefined;
  const url = () => env().DATABASE_URL!;
  beforeEach(async () => {
    await resetDatabase();
    await installQueue(url(), [trainingCanaryJob]);
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
    await stopQueueClient();
  });

  it('the worker opens the canary campaign and records it on the run', async () => {
    const project = await db().project.create({ data: { slug: 'canary-job', name: 'j' } });
    const task = await db().task.create({ data: { projectId: project.id, name: 't1', instruction: 'x', split: 'eval' } });
    const parent = await db().policy.create({ data: { projectId: project.id, name: 'base' } });
    const run = await db().trainingRun.create({
      data: { projectId: project.id, recipe: 'trl-dpo', basePolicy: 'base', exportId: 'e', datasetSha256: 's', datasetRows: 1 },
    });
    const child = await db().policy.create({ data: { projectId: project.id, name: 'base+1', parentId: parent.id, trainingRunId: run.id } });
    for (const policyId of [parent.id, child.id])
      await db().trajectory.create({
        data: { projectId: project.id, taskId: task.id, policyId, sourceFormat: 'harbor', contentHash: randomUUID(), stepCount: 1 },
      });

    await requestCanaryCheck(url(), project.id, [child.id, child.id]);
    worker = await startWorker({ databaseUrl: url(), handlers: [trainingCanaryHandler], pollingIntervalSeconds: 0.5, log: () => {} });
    await waitFor(async () => (await db().trainingRun.findUnique({ where: { id: run.id } }))?.canaryCampaignId != null);
    const campaignId = (await db().trainingRun.findUnique({ where: { id: run.id } }))!.canaryCampaignId!;
    expect(await db().campaign.findUnique({ where: { id: campaignId }, select: { name: true, mode: true, status: true } })).toEqual({
      name: 'Canary: base+1 vs base',
      mode: 'pairwise',
      status: 'open',
    });
    expect(await db().campaignItem.count({ where: { campaignId } })).toBe(1);

    // the handler again (a retried job): nothing twice
    const ctx = { jobId: 'j', attempt: 1, signal: new AbortController().signal, log: () => {}, now: () => new Date() };
    expect(await trainingCanaryHandler.handle({ projectId: project.id, policyIds: [parent.id] }, ctx)).toEqual({
      campaigns: [{ id: campaignId, added: 0, created: false }],
    });
    expect(await db().campaign.count()).toBe(1);
  });

  it('extends the campaign recorded on the run (not the one a filter names), and falls back to that one when the recorded is gone', async () => {
    const project = await db().project.create({ data: { slug: 'canary-recorded', name: 'r' } });
    const parent = await db().policy.create({ data: { projectId: project.id, name: 'base' } });
    const run = await db().trainingRun.create({
      data: { projectId: project.id, recipe: 'trl-dpo', basePolicy: 'base', exportId: 'e', datasetSha256: 's', datasetRows: 1 },
    });
    const child = await db().policy.create({ data: { projectId: project.id, name: 'base+1', parentId: parent.id, trainingRunId: run.id } });
    const rubric = await db().rubric.create({ data: { projectId: project.id, name: 'pairs' } });
    const version = await db().rubricVersion.create({ data: { rubricId: rubric.id, version: 1, definition: {} } });
    const campaign = (name: string, filter: object) =>
      db().campaign.create({
        data: { projectId: project.id, name, mode: 'pairwise', status: 'open', rubricVersionId: version.id, filter },
      });
    // the run records a campaign made by hand (its filter names no checkpoint); another names the checkpoint
    const recorded = await campaign('by hand', {});
    const named = await campaign('Canary: base+1 vs base', { canary: { child: child.id, parent: parent.id } });
    await db().trainingRun.update({ where: { id: run.id }, data: { canaryCampaignId: recorded.id } });
    const task = async (name: string) => {
      const t = await db().task.create({ data: { projectId: project.id, name, instruction: 'x', split: 'eval' } });
      for (const policyId of [parent.id, child.id])
        await db().trajectory.create({
          data: { projectId: project.id, taskId: t.id, policyId, sourceFormat: 'harbor', contentHash: randomUUID(), stepCount: 1 },
        });
    };
    await task('t1');
    const ctx = { jobId: 'j', attempt: 1, signal: new AbortController().signal, log: () => {}, now: () => new Date() };
    expect(await trainingCanaryHandler.handle({ projectId: project.id, policyIds: [child.id] }, ctx)).toEqual({
      campaigns: [{ id: recorded.id, added: 1, created: false }],
    });
    expect(await db().campaignItem.count({ where: { campaignId: named.id } })).toBe(0);

    // the recorded campaign deleted: the one whose filter names the checkpoint is extended and recorded
    await db().campaign.delete({ where: { id: recorded.id } });
    expect(await trainingCanaryHandler.handle({ projectId: project.id, policyIds: [child.id] }, ctx)).toEqual({
      campaigns: [{ id: named.id, added: 1, created: false }],
    });
    expect((await db().trainingRun.findUnique({ where: { id: run.id } }))?.canaryCampaignId).toBe(named.id);
  });
});
