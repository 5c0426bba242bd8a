import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../examples/receiver/receiver.mjs';
import { db } from '../db/client';
import { resetDatabase } from '../db/test/reset';
import { seedLabelledProject, type SeededLabels } from '../db/test/seed-labels';
import { listDeliveries, listSinks, type SinkRow } from './queries/training-sinks';
import { createTrainingSink } from './create-training-sink';
import { retryDeadDelivery } from './retry-dead-delivery';
import { exportDataset } from '../datasets/export-dataset';
import type { DatasetFormat } from '../datasets/formats';
import { deliverSink } from './deliver-sink';

/**
 * The delivery loop against the example receiver (a real HTTP peer over loopback, writing and
 * fsyncing its JSONL): every fault ends with every label in the receiver exactly once, in batch
 * order, and no eval item ever leaves.
 */
const SECRET = 'test-secret-0123456789abcdef';

interface Row {
  witness: { item_ids: string[]; split: string; task: string };
}

function readRows(file: string): Row[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row);
}

const keyOf = (r: Row) => r.witness.item_ids.join('+');

async function runUntilIdle(sinkId: string, maxMs = 20_000) {
  const until = Date.now() + maxMs;
  for (;;) {
    const outcome = await deliverSink(sinkId);
    if (outcome.state === 'idle') return outcome;
    if (outcome.state !== 'waiting') return outcome;
    if (Date.now() > until) throw new Error(`sink still waiting: ${outcome.lastError}`);
    await new Promise((r) => setTimeout(r, Math.max(0, outcome.retryAt!.getTime() - Date.now())));
  }
}

/** What a full training export of the same labels holds: the oracle for "every label". */
async function expectedKeys(seeded: SeededLabels, dir: string, format: DatasetFormat): Promise<string[]> {
  const result = await exportDataset({ format, projectId: seeded.projectId, split: 'train' }, path.join(dir, `oracle-${format}.jsonl`));
  return readRows(result.path).map(keyOf).sort();
}

describe('training sink delivery to the example receiver', () => {
  let dir: string;
  let receiver: Receiver;
  let out: string;
  let seeded: SeededLabels;

  beforeEach(async () => {
    await resetDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'witness-sink-'));
    out = path.join(dir, 'received.jsonl');
    receiver = await startReceiver({ secret: SECRET, out });
    seeded = await seedLabelledProject({ tasks: 3, evalTasks: 1 });
  });
  afterEach(async () => {
    await receiver.close();
  });

  async function webhookSink(overrides: Record<string, unknown> = {}, format: DatasetFormat = 'trl-dpo'): Promise<SinkRow> {
    return createTrainingSink(seeded.projectId, {
      name: `hook-${format}`,
      kind: 'webhook',
      format,
      secret: SECRET,
      config: { url: receiver.url, timeoutMs: 400, batchSize: 3, retry: { attempts: 30, baseMs: 5, maxMs: 40 }, ...overrides },
    });
  }

  async function expectExactlyOnceInOrder(sinkId: string, format: DatasetFormat = 'trl-dpo') {
    const rows = readRows(out);
    const keys = rows.map(keyOf);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual(await expectedKeys(seeded, dir, format));
    // the guard: nothing from the eval split ever reaches a sink
    for (const r of rows) {
      expect(r.witness.split).toBe('train');
      expect(seeded.evalTaskNames).not.toContain(r.witness.task);
    }
    // batches committed by the receiver in sequence order 1..n, each once
    const commits = readFileSync(`${out}.commits`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { sequence: number; key: string });
    expect(commits.map((c) => c.sequence)).toEqual(commits.map((_, i) => i + 1));
    const deliveries = await listDeliveries(sinkId, 1000);
    expect(deliveries.every((d) => d.status === 'delivered')).toBe(true);
    expect(commits.map((c) => c.key)).toEqual(deliveries.map((d) => d.idempotencyKey).reverse());
    const sink = await db().trainingSink.findUniqueOrThrow({ where: { id: sinkId }, select: { cursor: true } });
    const last = await db().labelEvent.findFirstOrThrow({
      where: { projectId: seeded.projectId },
      orderBy: { seq: 'desc' },
      select: { seq: true },
    });
    expect(sink.cursor).toBe(last.seq.toString());
    return { rows, deliveries };
  }

  it('delivers every finalised label once, signed, in batches, without eval items; nothing new means no new batch', async () => {
    const sink = await webhookSink();
    const outcome = await runUntilIdle(sink.id);
    expect(outcome.state).toBe('idle');
    const { rows, deliveries } = await expectExactlyOnceInOrder(sink.id);
    expect(rows.length).toBe(6); // 3 pairwise + 3 score pairs; the eval task's items stay home
    expect(deliveries.length).toBeGreaterThan(1);
    for (const d of deliveries) expect(d.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(receiver.stats.rejected).toBe(0);
    expect((await deliverSink(sink.id)).state).toBe('idle');
    expect(await db().delivery.count()).toBe(deliveries.length);
  });

  it('a wrong secret is refused by the receiver (401) and retried, never stored', async () => {
    const sink = await createTrainingSink(seeded.projectId, {
      name: 'bad-secret',
      kind: 'webhook',
      format: 'trl-dpo',
      secret: 'not-the-receivers-secret',
      config: { url: receiver.url, timeoutMs: 400, batchSize: 50, retry: { attempts: 2, baseMs: 5, maxMs: 10 } },
    });
    const outcome = await runUntilIdle(sink.id);
    expect(outcome.state).toBe('dead');
    expect(outcome.lastError).toMatch(/HTTP 401/);
    expect(receiver.stats.rejected).toBe(2);
    expect(readRows(out)).toEqual([]);
  });

  it('the receiver answers 500 for a while: retried with backoff, then everything once', async () => {
    receiver.faults.fail500 = 5;
    const sink = await webhookSink();
    await runUntilIdle(sink.id);
    await expectExactlyOnceInOrder(sink.id);
    const first = (await listDeliveries(sink.id, 1000)).at(-1)!;
    expect(first.attempts).toBe(6);
  });

  it('the receiver answers after the timeout: the batch is re-sent under the same key and stored once', async () => {
    receiver.faults.delayMs = 700;
    receiver.faults.delayCount = 2;
    const sink = await webhookSink();
    await runUntilIdle(sink.id);
    await new Promise((r) => setTimeout(r, 800)); // let the late answers land
    await expectExactlyOnceInOrder(sink.id);
    expect(receiver.stats.duplicates).toBeGreaterThanOrEqual(1);
  });

  it('the receiver closes the connection mid-body: re-sent, stored once', async () => {
    receiver.faults.closeMidBody = 3;
    const sink = await webhookSink();
    await runUntilIdle(sink.id);
    await expectExactlyOnceInOrder(sink.id);
    expect(receiver.stats.requests).toBeGreaterThanOrEqual(receiver.stats.stored + 3);
  });

  it('the receiver stores the batch and drops the connection before the ack: the re-send is a duplicate, nothing twice', async () => {
    receiver.faults.dropAfterStore = 2;
    const sink = await webhookSink();
    await runUntilIdle(sink.id);
    await expectExactlyOnceInOrder(sink.id);
    expect(receiver.stats.duplicates).toBe(2);
  });

  it('after N failed attempts a delivery is dead, the sink stops advancing; an admin retry re-sends the same bytes', async () => {
    receiver.faults.fail500 = 3;
    const sink = await webhookSink({ retry: { attempts: 3, baseMs: 5, maxMs: 10 } });
    const outcome = await runUntilIdle(sink.id);
    expect(outcome.state).toBe('dead');
    const [dead] = await listDeliveries(sink.id);
    expect(dead).toMatchObject({ status: 'dead', attempts: 3, sequence: 1 });
    expect(dead!.lastError).toMatch(/attempt 3: .*HTTP 500/);
    const before = await db().delivery.findUniqueOrThrow({ where: { id: dead!.id }, select: { body: true } });
    // stopped: no new batch, no cursor move
    expect((await deliverSink(sink.id)).state).toBe('dead');
    expect(await db().delivery.count({ where: { sinkId: sink.id } })).toBe(1);
    expect((await db().trainingSink.findUniqueOrThrow({ where: { id: sink.id }, select: { cursor: true } })).cursor).toBeNull();
    await retryDeadDelivery(dead!.id);
    await runUntilIdle(sink.id);
    await expectExactlyOnceInOrder(sink.id);
    const first = readFileSync(out).subarray(0, before.body!.length);
    expect(Buffer.compare(first, Buffer.from(before.body!))).toBe(0);
    await expect(retryDeadDelivery(dead!.id)).rejects.toThrow(/is delivered, not dead/);
  });

  it('labels finalised later go out in a later batch; a revision goes out again as a revised label', async () => {
    const sink = await webhookSink({ batchSize: 100 }, 'trl-kto');
    await runUntilIdle(sink.id);
    const firstRows = readRows(out).length;
    expect(firstRows).toBe(6); // 6 train single items with a pass/fail verdict
    // a reviewer revises one final train item: a `revised` event, one more row with the new labels
    const item = await db().campaignItem.findFirstOrThrow({
      where: { campaignId: seeded.singleCampaignId, trajectory: { task: { split: 'train' } } },
      select: { id: true, labelEvents: { select: { kind: true } } },
      orderBy: { id: 'asc' },
    });
    expect(item.labelEvents.map((e) => e.kind)).toEqual(['finalised']);
    const review = await db().review.findFirstOrThrow({
      where: { campaignItemId: item.id, isCurrent: true },
      select: { reviewerId: true, assignmentId: true },
    });
    const { submitReview } = await import('../review/submit-review');
    await submitReview(
      review.reviewerId,
      {
        assignmentId: review.assignmentId,
        idempotencyKey: `revise-${item.id}`,
        answers: { quality: 3, verdict: 'reject' },
        coverage: { ranges: [[0, 100]], speeds: [1], seeks: 0 },
      },
      100,
      new Date(),
    );
    expect(
      (await db().labelEvent.findMany({ where: { campaignItemId: item.id }, select: { kind: true }, orderBy: { seq: 'asc' } })).map(
        (e) => e.kind,
      ),
    ).toEqual(['finalised', 'revised']);
    await runUntilIdle(sink.id);
    const rows = readRows(out);
    expect(rows.length).toBe(7);
    expect(keyOf(rows[6]!)).toBe(item.id);
    expect(await db().delivery.count({ where: { sinkId: sink.id } })).toBe(2);
  });

  it("a sink URL's credentials (user:pw@) never reach the stored errors, the log, the sinks list or the audit log", async () => {
    // a port nothing listens on: the connection is refused
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const sink = await createTrainingSink(seeded.projectId, {
      name: 'basic-auth',
      kind: 'webhook',
      format: 'trl-dpo',
      secret: SECRET,
      config: { url: `http://user:pw@127.0.0.1:${closed}/hook`, timeoutMs: 2000, retry: { attempts: 2, baseMs: 5, maxMs: 10 } },
    });
    const lines: string[] = [];
    let outcome = await deliverSink(sink.id, { log: (l) => lines.push(l) });
    while (outcome.state === 'waiting') {
      await new Promise((r) => setTimeout(r, 20));
      outcome = await deliverSink(sink.id, { log: (l) => lines.push(l) });
    }
    expect(outcome.state).toBe('dead');
    expect(outcome.lastError).toBe(`POST http://***@127.0.0.1:${closed}/hook failed: ECONNREFUSED`);
    const deliveries = await listDeliveries(sink.id);
    expect(deliveries.map((d) => d.lastError)).toEqual([`attempt 2: POST http://***@127.0.0.1:${closed}/hook failed: ECONNREFUSED`]);
    expect(lines.filter((l) => l.includes('failed')).length).toBe(2);
    const audit = await db().auditLog.findMany({ select: { action: true, data: true } });
    const listed = (await listSinks()).find((s) => s.id === sink.id);
    expect(listed?.target).toBe(`http://***@127.0.0.1:${closed}/hook`);
    for (const text of [outcome.lastError, ...deliveries.map((d) => d.lastError), ...lines, JSON.stringify(audit), JSON.stringify(listed)])
      expect(text).not.toContain('pw');
  });

  it('refuses at creation a webhook URL whose host is the metadata service, in any spelling, and stores nothing', async () => {
    for (const url of [
      'http://169.254.169.254/',
      'http://2852039166/',
      'http://0251.0376.0251.0376/',
      'http://0xa9fea9fe/',
      'http://169.254.43518/',
      'http://[::ffff:169.254.169.254]/',
    ])
      await expect(
        createTrainingSink(seeded.projectId, {
          name: `meta-${url.length}`,
          kind: 'webhook',
          format: 'trl-dpo',
          secret: SECRET,
          config: { url },
        }),
        url,
      ).rejects.toThrow(/^webhook sink config\.url: .* is refused: .*169\.254\.169\.254\)? is a metadata address/);
    expect(await db().trainingSink.count()).toBe(0);
  });
});

describe('directory sink', () => {
  beforeEach(resetDatabase);

  it('writes immutable shards named by sequence and a manifest replaced atomically; a re-send is harmless', async () => {
    const seeded = await seedLabelledProject({ tasks: 3, evalTasks: 1 });
    const dir = mkdtempSync(path.join(tmpdir(), 'witness-dir-sink-'));
    const target = path.join(dir, 'labels');
    const sink = await createTrainingSink(seeded.projectId, {
      name: 'folder',
      kind: 'directory',
      format: 'trl-sft',
      config: { path: target, batchSize: 4 },
    });
    await runUntilIdle(sink.id);
    const files = readdirSync(target).sort();
    expect(files.filter((f) => f.includes('.tmp-'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(path.join(target, 'manifest.json'), 'utf8')) as {
      format: string;
      shards: Array<{ sequence: number; file: string; rows: number; sha256: string }>;
    };
    expect(manifest.format).toBe('trl-sft');
    expect(manifest.shards.map((s) => s.sequence)).toEqual(manifest.shards.map((_, i) => i + 1));
    expect(files).toEqual([...manifest.shards.map((s) => s.file), 'manifest.json'].sort());
    const rows = manifest.shards.flatMap((s) => readRows(path.join(target, s.file)));
    expect(rows.length).toBe(manifest.shards.reduce((n, s) => n + s.rows, 0));
    expect(rows.length).toBe(3); // the good trajectory of each train task is accepted
    for (const r of rows) expect(r.witness.split).toBe('train');
    // an admin re-send of shard 1 (as after a crash between the write and the ack): same bytes, same manifest
    const before = readFileSync(path.join(target, 'manifest.json'), 'utf8');
    const first = await db().delivery.findFirstOrThrow({ where: { sinkId: sink.id, sequence: 1 }, select: { id: true } });
    await db().delivery.update({ where: { id: first.id }, data: { status: 'dead' } });
    await retryDeadDelivery(first.id);
    await runUntilIdle(sink.id);
    expect(readFileSync(path.join(target, 'manifest.json'), 'utf8')).toBe(before);
    expect(readdirSync(target).sort()).toEqual(files);
  });
});
