import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startReceiver } from '../examples/receiver/receiver.mjs';
import { disconnectDb } from '../lib/db/client';
import { startEmbeddedPostgres } from '../lib/db/embedded-postgres';
import { migrateDatabase } from '../lib/migrate-database';
import { createTrainingSink } from '../lib/training/create-training-sink';
import { rawEnv, setEnv } from '../lib/env';
import { deliverSink } from '../lib/training/deliver-sink';
import type { BenchFigure } from './figure';
import { freePort } from './free-port';
import { COMPARISONS_SQL, pairwiseProjectSql } from './pairwise-bench-data';

/**
 * Training sink benchmark: webhook delivery of N finalised pairwise labels (trl-dpo rows, 6-step
 * trajectories with tool calls) from a fresh embedded PostgreSQL to the example receiver
 * (examples/receiver: verifies the HMAC, de-duplicates, appends and fsyncs before its 200) over
 * loopback, in batches of B label events. Measures the whole loop: read events (with the
 * advisory-lock fence), load labels, derive + format rows, store the Delivery (body + sha256),
 * POST, mark delivered and move the cursor. BENCH_TRAINING_N (default 10000) and
 * BENCH_TRAINING_BATCH (default 500) override the sizes.
 */
const GROUP = 'training';
const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, '.data', 'bench-training');
const N = Number(process.env.BENCH_TRAINING_N ?? 10_000);
const BATCH = Number(process.env.BENCH_TRAINING_BATCH ?? 500);
const TASKS = 50;
const POLICIES = Math.max(2, Math.ceil(Math.sqrt((2 * N) / TASKS)) + 1);
const log = (line: string) => process.stderr.write(`  [training] ${line}\n`);

async function seed(client: pg.Client): Promise<void> {
  await client.query(`
    ${pairwiseProjectSql({ projectId: 'bp', slug: 'bench-training', tasks: TASKS, policies: POLICIES, order: 'policy' })}
    INSERT INTO "campaign" ("id","projectId","name","mode","status","rubricVersionId","overlap") VALUES ('c','bp','pairs','pairwise','open','rv',1);
    INSERT INTO "campaign_item" ("id","campaignId","trajectoryId","trajectoryBId","reviewCount","activeCount")
      SELECT 'i-'||lpad(n::text,7,'0'), 'c', ta, tb, 1, 1 FROM pairs WHERE n <= ${N};
    ${COMPARISONS_SQL}
    INSERT INTO "label_event" ("projectId","campaignItemId","kind") SELECT 'bp', id, 'finalised' FROM "campaign_item" ORDER BY id;
    ANALYZE;`);
}

export async function run(): Promise<BenchFigure[]> {
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const postgres = await startEmbeddedPostgres({ dataDir, port: await freePort() });
  const outDir = await mkdtemp(path.join(tmpdir(), 'witness-bench-training-'));
  const client = new pg.Client({ connectionString: postgres.url });
  const secret = 'bench-secret-0123456789abcdef';
  const receiver = await startReceiver({ secret, out: path.join(outDir, 'received.jsonl') });
  // the receiver listens on loopback, which sinks may reach only when the allow-list names it
  const allowBefore = rawEnv('WITNESS_SINK_ALLOW');
  setEnv('WITNESS_SINK_ALLOW', new URL(receiver.url).host);
  try {
    await migrateDatabase(postgres.url);
    setEnv('DATABASE_URL', postgres.url);
    await client.connect();
    const s0 = performance.now();
    await seed(client);
    log(`seeded ${N} finalised pairwise items in ${((performance.now() - s0) / 1000).toFixed(1)} s`);
    const sink = await createTrainingSink('bp', {
      name: 'bench',
      kind: 'webhook',
      format: 'trl-dpo',
      secret,
      config: { url: receiver.url, batchSize: BATCH, timeoutMs: 60_000 },
    });
    const t0 = performance.now();
    const outcome = await deliverSink(sink.id);
    const seconds = (performance.now() - t0) / 1000;
    if (outcome.state !== 'idle' || outcome.rows !== N)
      throw new Error(`expected ${N} rows delivered and idle, got ${outcome.rows} (${outcome.state}: ${outcome.lastError ?? ''})`);
    if (receiver.stats.rows !== N) throw new Error(`the receiver stored ${receiver.stats.rows} rows, expected ${N}`);
    log(
      `${outcome.rows} rows in ${outcome.delivered} batches in ${seconds.toFixed(2)} s (${(outcome.rows / seconds).toFixed(0)} rows/s, ${(outcome.delivered / seconds).toFixed(1)} batches/s)`,
    );
    return [
      {
        group: GROUP,
        name: `webhook delivery of ${N} DPO rows, batches of ${BATCH} (rows/s)`,
        value: outcome.rows / seconds,
        unit: 'rows/s',
        higherIsBetter: true,
      },
      {
        group: GROUP,
        name: `webhook delivery, batches of ${BATCH} (batches/s)`,
        value: outcome.delivered / seconds,
        unit: 'batches/s',
        higherIsBetter: true,
      },
    ];
  } finally {
    setEnv('WITNESS_SINK_ALLOW', allowBefore);
    await receiver.close();
    await client.end().catch(() => undefined);
    await disconnectDb();
    await postgres.stop();
    await rm(outDir, { recursive: true, force: true });
  }
}
