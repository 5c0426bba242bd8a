import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startReceiver } from '../examples/receiver/receiver.mjs';
import { disconnectDb } from '../lib/db/client';
import { startEmbeddedPostgres } from '../lib/db/embedded-postgres';
import { migrate } from '../lib/db/migrate';
import { createSink } from '../lib/db/training-sinks';
import { setEnv } from '../lib/env';
import { deliverSink } from '../lib/training/deliver-sink';
import type { BenchFigure } from './figure';
import { freePort } from './free-port';

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


const rubric = JSON.stringify({ title: 'Pairs', instructions: '', questions: [{ id: 'quality', type: 'likert', prompt: 'Quality', points: 5, required: true, anchors: {} }] });

async function seed(client: pg.Client): Promise<void> {
  await client.query(`
    INSERT INTO "project" ("id","slug","name","updatedAt") VALUES ('bp','bench-training','bench-training',now());
    INSERT INTO "user" ("id","name","email","role","updatedAt") SELECT 'u'||g,'Reviewer '||g,'r'||g||'@bench.test','reviewer',now() FROM generate_series(1,5) g;
    INSERT INTO "task" ("id","projectId","name","instruction","updatedAt")
      SELECT 'tk'||lpad(t::text,3,'0'),'bp','task-'||t,'Make the failing tests in repo '||t||' pass without editing the tests.',now() FROM generate_series(1,${TASKS}) t;
    INSERT INTO "policy" ("id","projectId","name","model") SELECT 'pl'||lpad(p::text,3,'0'),'bp','policy-'||p,'model-'||p FROM generate_series(1,${POLICIES}) p;
    INSERT INTO "trajectory" ("id","projectId","taskId","policyId","sourceFormat","contentHash","stepCount")
      SELECT 'tr'||lpad(t::text,3,'0')||lpad(p::text,3,'0'),'bp','tk'||lpad(t::text,3,'0'),'pl'||lpad(p::text,3,'0'),'openai',md5(t||'/'||p),6
      FROM generate_series(1,${TASKS}) t, generate_series(1,${POLICIES}) p;
    INSERT INTO "step" ("id","trajectoryId","index","source","text","toolCalls","observations")
      SELECT tr.id||'-'||s, tr.id, s,
        CASE WHEN s=0 THEN 'user' ELSE 'agent' END,
        CASE WHEN s=0 THEN 'Make the failing tests pass.' ELSE 'Step '||s||': I will inspect the module and run the test suite again ('||tr.id||').' END,
        CASE WHEN s BETWEEN 1 AND 4 THEN jsonb_build_array(jsonb_build_object('id','call_'||s,'name','bash','arguments',jsonb_build_object('command','pytest -q tests/test_'||s||'.py'))) ELSE '[]'::jsonb END,
        CASE WHEN s BETWEEN 1 AND 4 THEN jsonb_build_array(jsonb_build_object('toolCallId','call_'||s,'content',repeat('tests/test_mod.py::test_case PASSED\n',8),'isError',false)) ELSE '[]'::jsonb END
      FROM "trajectory" tr, generate_series(0,5) s;
    INSERT INTO "rubric" ("id","projectId","name") VALUES ('rb','bp','pairs');
    INSERT INTO "rubric_version" ("id","rubricId","version","definition") VALUES ('rv','rb',1,'${rubric}'::jsonb);
    INSERT INTO "campaign" ("id","projectId","name","mode","status","rubricVersionId","overlap") VALUES ('c','bp','pairs','pairwise','open','rv',1);
    CREATE TEMP TABLE pairs AS
      SELECT row_number() OVER (ORDER BY a, t, b) AS n, 'tr'||lpad(t::text,3,'0')||lpad(a::text,3,'0') AS ta, 'tr'||lpad(t::text,3,'0')||lpad(b::text,3,'0') AS tb
      FROM generate_series(1,${TASKS}) t, generate_series(1,${POLICIES}) a, generate_series(1,${POLICIES}) b WHERE a < b;
    INSERT INTO "campaign_item" ("id","campaignId","trajectoryId","trajectoryBId","reviewCount","activeCount")
      SELECT 'i-'||lpad(n::text,7,'0'), 'c', ta, tb, 1, 1 FROM pairs WHERE n <= ${N};
    INSERT INTO "assignment" ("id","campaignItemId","reviewerId","status","leaseExpiresAt")
      SELECT 'as-'||i.id, i.id, 'u'||(1 + abs(hashtext(i.id)) % 5), 'submitted', now() FROM "campaign_item" i;
    INSERT INTO "pairwise_comparison" ("id","assignmentId","campaignItemId","reviewerId","preference","rationale","idempotencyKey")
      SELECT 'pc-'||i.id, 'as-'||i.id, i.id, a."reviewerId", (ARRAY[-2,-1,1,2])[1 + abs(hashtext(i.id||'p')) % 4], 'bench rationale', 'k-'||i.id
      FROM "campaign_item" i JOIN "assignment" a ON a."campaignItemId" = i.id;
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
  try {
    await migrate(postgres.url);
    setEnv('DATABASE_URL', postgres.url);
    await client.connect();
    const s0 = performance.now();
    await seed(client);
    log(`seeded ${N} finalised pairwise items in ${((performance.now() - s0) / 1000).toFixed(1)} s`);
    const sink = await createSink('bp', { name: 'bench', kind: 'webhook', format: 'trl-dpo', secret, config: { url: receiver.url, batchSize: BATCH, timeoutMs: 60_000 } });
    const t0 = performance.now();
    const outcome = await deliverSink(sink.id);
    const seconds = (performance.now() - t0) / 1000;
    if (outcome.state !== 'idle' || outcome.rows !== N) throw new Error(`expected ${N} rows delivered and idle, got ${outcome.rows} (${outcome.state}: ${outcome.lastError ?? ''})`);
    if (receiver.stats.rows !== N) throw new Error(`the receiver stored ${receiver.stats.rows} rows, expected ${N}`);
    log(`${outcome.rows} rows in ${outcome.delivered} batches in ${seconds.toFixed(2)} s (${(outcome.rows / seconds).toFixed(0)} rows/s, ${(outcome.delivered / seconds).toFixed(1)} batches/s)`);
    return [
      { group: GROUP, name: `webhook delivery of ${N} DPO rows, batches of ${BATCH} (rows/s)`, value: outcome.rows / seconds, unit: 'rows/s', higherIsBetter: true },
      { group: GROUP, name: `webhook delivery, batches of ${BATCH} (batches/s)`, value: outcome.delivered / seconds, unit: 'batches/s', higherIsBetter: true },
    ];
  } finally {
    await receiver.close();
    await client.end().catch(() => undefined);
    await disconnectDb();
    await postgres.stop();
    await rm(outDir, { recursive: true, force: true });
  }
}
