import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../examples/receiver/receiver.mjs';
import { db } from '../lib/db/client';
import { resetDatabase } from '../lib/db/test/reset';
import { seedLabelledProject } from '../lib/db/test/seed-labels';
import { createTrainingSink } from '../lib/training/create-training-sink';
import { env } from '../lib/env';
import { installQueue, sendJob, stopQueueClient } from '../lib/queue/boss';
import { jobContracts } from '../lib/queue/job-list';
import { killGroup, startWorkerProcess, waitFor } from './test/worker-process';
import { trainingDeliverJob } from '../lib/queue/jobs/training-deliver';

/**
 * A real worker process (`witness worker`) killed with SIGKILL while a batch is on the wire
 * (the receiver holds its answer), then a fresh worker: the killed job's heartbeat stops,
 * pg-boss retries it, the retry re-sends the stored batch under the same key, and the receiver
 * ends with every label exactly once, in order.
 */
const SECRET = 'crash-secret-0123456789abcdef';

describe('a delivery worker killed mid-batch', () => {
  let dataDir: string;
  let receiver: Receiver;
  const workers: ChildProcess[] = [];

  beforeEach(async () => {
    await resetDatabase();
    await installQueue(env().DATABASE_URL!, jobContracts);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'witness-deliver-crash-'));
  });
  afterEach(async () => {
    for (const w of workers) killGroup(w, 'SIGKILL');
    workers.length = 0;
    await receiver?.close();
    await stopQueueClient();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is restarted and the receiver ends with every label exactly once, in order', { timeout: 180_000 }, async () => {
    const seeded = await seedLabelledProject({ tasks: 3, evalTasks: 1 });
    const out = path.join(dataDir, 'received.jsonl');
    receiver = await startReceiver({ secret: SECRET, out });
    const sink = await createTrainingSink(seeded.projectId, {
      name: 'crashy',
      kind: 'webhook',
      format: 'trl-dpo',
      secret: SECRET,
      config: { url: receiver.url, timeoutMs: 10_000, batchSize: 3, retry: { attempts: 20, baseMs: 50, maxMs: 500 } },
    });
    // both batches' answers are held for 4 s (set before the worker starts, so the second batch cannot slip through
    // unheld); the worker is killed while the receiver holds the second batch, which it has read and will store
    receiver.faults.delayMs = 4000;
    receiver.faults.delayCount = 2;
    const log: string[] = [];
    const first = startWorkerProcess(dataDir, log);
    workers.push(first);
    await sendJob(env().DATABASE_URL!, trainingDeliverJob, { sinkId: sink.id, reason: 'manual' });
    await waitFor(
      'the first batch to be delivered',
      async () => (await db().delivery.count({ where: { sinkId: sink.id, status: 'delivered' } })) >= 1,
      60_000,
      log,
    );
    const inFlight = await waitFor(
      'the second batch held by the receiver',
      async () =>
        receiver.faults.delayCount === 0 &&
        db().delivery.findFirst({ where: { sinkId: sink.id, status: 'sending' }, select: { id: true, sequence: true } }),
      30_000,
      log,
    );
    killGroup(first, 'SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const stuck = await db().delivery.findUniqueOrThrow({ where: { id: inFlight.id }, select: { status: true } });
    expect(stuck.status).toBe('sending');

    const second = startWorkerProcess(dataDir, log);
    workers.push(second);
    const last = await db().labelEvent.findFirstOrThrow({
      where: { projectId: seeded.projectId },
      orderBy: { seq: 'desc' },
      select: { seq: true },
    });
    await waitFor(
      'the restarted worker to catch the sink up',
      async () =>
        (await db().trainingSink.findUniqueOrThrow({ where: { id: sink.id }, select: { cursor: true } })).cursor === last.seq.toString(),
      120_000,
      log,
    );
    const rows = readFileSync(out, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { witness: { item_ids: string[]; split: string } });
    const keys = rows.map((r) => r.witness.item_ids.join('+'));
    expect(rows.length).toBe(6);
    expect(new Set(keys).size).toBe(6);
    expect(rows.every((r) => r.witness.split === 'train')).toBe(true);
    const commits = readFileSync(`${out}.commits`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { sequence: number });
    expect(commits.map((c) => c.sequence)).toEqual(commits.map((_, i) => i + 1));
    const deliveries = await db().delivery.findMany({
      where: { sinkId: sink.id },
      select: { status: true, sequence: true, attempts: true },
      orderBy: { sequence: 'asc' },
    });
    expect(deliveries.every((d) => d.status === 'delivered')).toBe(true);
    // the batch on the wire at the kill was sent again (same key), not rebuilt
    expect(deliveries.find((d) => d.sequence === inFlight.sequence)!.attempts).toBeGreaterThanOrEqual(2);
    expect(receiver.stats.duplicates).toBeGreaterThanOrEqual(1);
  });
});
