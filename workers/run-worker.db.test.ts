import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissing } from '../render/server/chromium-launcher';
import { z } from 'zod';
import { env } from '../lib/env';
import { createBoss, findJobs, installQueue, sendJob, stopQueueClient } from '../lib/queue/boss';
import { defineJob } from '../lib/queue/job-contract';
import { liveWorkers } from '../lib/db/worker-heartbeats';
import { resetDatabase } from '../lib/db/test/reset';
import { startWorker, type RunningWorker } from './run-worker';
import type { JobHandler } from './job-handler';

const testJob = defineJob({
  name: 'test.echo',
  payload: z.object({ id: z.string().min(1), failTimes: z.number().int().default(0), sleepMs: z.number().int().default(0) }).strict(),
  retry: { limit: 2, delaySeconds: 1, backoff: false },
  expireInSeconds: 60,
  key: (p) => `echo:${p.id}`,
});

const calls: { id: string; attempt: number }[] = [];
const finished: string[] = [];
const handler: JobHandler<typeof testJob> = {
  contract: testJob,
  async handle(payload, ctx) {
    calls.push({ id: payload.id, attempt: ctx.attempt });
    if (payload.sleepMs) await new Promise((r) => setTimeout(r, payload.sleepMs));
    if (ctx.attempt < payload.failTimes) throw new Error(`planned failure ${ctx.attempt + 1}`);
    finished.push(payload.id);
    return { echoed: payload.id };
  },
};

async function waitFor(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out waiting');
}

describe('job worker on pg-boss', () => {
  let worker: RunningWorker | undefined;
  const url = () => env().DATABASE_URL!;

  beforeEach(async () => {
    await resetDatabase();
    calls.length = 0;
    finished.length = 0;
    await installQueue(url(), [testJob]);
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
    await stopQueueClient();
  });

  it('runs a job once, and a second send with the same key while queued is a no-op', async () => {
    const first = await sendJob(url(), testJob, { id: 'a', failTimes: 0, sleepMs: 0 });
    const second = await sendJob(url(), testJob, { id: 'a', failTimes: 0, sleepMs: 0 });
    expect(first).toBeTruthy();
    expect(second).toBeNull();
    worker = await startWorker({
      databaseUrl: url(),
      handlers: [handler],
      pollingIntervalSeconds: 0.5,
      log: () => {},
    });
    await waitFor(() => finished.includes('a'));
    expect(calls.filter((c) => c.id === 'a')).toHaveLength(1);
    expect((await liveWorkers(new Date())).map((w) => w.id)).toContain(worker.id);
  });

  it('refuses an invalid payload at send time', async () => {
    await expect(sendJob(url(), testJob, { id: '' } as never)).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });

  it('completes a bad payload that bypassed validation as rejected, without retrying', async () => {
    const boss = createBoss(url(), 'producer');
    await boss.start();
    const jobId = await boss.send(testJob.name, { nope: true }, { singletonKey: 'bad' });
    worker = await startWorker({
      databaseUrl: url(),
      handlers: [handler],
      pollingIntervalSeconds: 0.5,
      log: () => {},
    });
    await waitFor(async () => (await findJobs(boss, testJob.name, { id: jobId! }))[0]?.state === 'completed');
    const [job] = await findJobs(boss, testJob.name, { id: jobId! });
    expect(job?.output).toMatchObject({ rejected: true });
    expect(job?.retryCount).toBe(0);
    expect(calls).toHaveLength(0);
    await boss.stop({ graceful: false });
  });

  it('retries a failing job with its policy until it succeeds', async () => {
    await sendJob(url(), testJob, { id: 'flaky', failTimes: 1, sleepMs: 0 });
    worker = await startWorker({
      databaseUrl: url(),
      handlers: [handler],
      pollingIntervalSeconds: 0.5,
      log: () => {},
    });
    await waitFor(() => finished.includes('flaky'), 20_000);
    expect(calls.filter((c) => c.id === 'flaky').map((c) => c.attempt)).toEqual([0, 1]);
  });

  it('stops gracefully: a running job finishes before stop resolves', async () => {
    await sendJob(url(), testJob, { id: 'slow', failTimes: 0, sleepMs: 1500 });
    worker = await startWorker({
      databaseUrl: url(),
      handlers: [handler],
      pollingIntervalSeconds: 0.5,
      log: () => {},
    });
    await waitFor(() => calls.some((c) => c.id === 'slow'));
    await worker.stop();
    expect(finished).toContain('slow');
    expect(await liveWorkers(new Date())).toHaveLength(0);
    worker = undefined;
  });

  it("leaves a queue's jobs queued while its handler lacks what it needs (Chromium for renders), and takes them once it is there", async () => {
    // a render handler's need, as on a machine without Chromium: an executable that appears later (the real check)
    const dir = await mkdtemp(path.join(os.tmpdir(), 'witness-unmet-'));
    const chromium = path.join(dir, 'chromium');
    const lines: string[] = [];
    const needy: JobHandler<typeof testJob> = { ...handler, unmet: () => chromiumMissing(chromium) };
    await sendJob(url(), testJob, { id: 'later', failTimes: 0, sleepMs: 0 });
    worker = await startWorker({
      databaseUrl: url(),
      handlers: [needy],
      pollingIntervalSeconds: 0.5,
      requirementCheckMs: 200,
      log: (l) => lines.push(l),
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(calls).toHaveLength(0);
    const boss = createBoss(url(), 'producer');
    await boss.start();
    const [job] = await findJobs(boss, testJob.name, {});
    await boss.stop({ graceful: false });
    expect(job).toMatchObject({ state: 'created', retryCount: 0 });
    expect(lines.join('\n')).toMatch(/not taking test\.echo jobs yet: Chromium not found or not executable at .*chromium/);
    // no queue served while it waits: a render planner does not count this worker as a chunk worker
    expect((await liveWorkers(new Date())).find((w) => w.id === worker!.id)?.queues).toEqual([]);

    await writeFile(chromium, '#!/bin/sh\n', { mode: 0o755 });
    await waitFor(() => finished.includes('later'));
    expect(calls).toEqual([{ id: 'later', attempt: 0 }]);
    expect(lines.join('\n')).toContain('now taking test.echo jobs');
    await rm(dir, { recursive: true, force: true });
  });
});
