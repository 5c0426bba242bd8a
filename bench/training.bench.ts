import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startReceiver } from '../examples/receiver/receiver.mjs';
import { ensureUser } from '../lib/auth/create-user';
import { createApiToken } from '../lib/auth/create-api-token';
import { disconnectDb } from '../lib/db/client';
import { startEmbeddedPostgres } from '../lib/db/embedded-postgres';
import { migrateDatabase } from '../lib/migrate-database';
import { createTrainingSink } from '../lib/training/create-training-sink';
import { rawEnv, setEnv } from '../lib/env';
import { deliverSink } from '../lib/training/deliver-sink';
import { startBenchStudio, stopBenchStudio, untilHealthy } from './bench-studio';
import type { BenchFigure } from './figure';
import { hillClimbFigures } from './hill-climb-bench';
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

async function sinkFigures(): Promise<BenchFigure[]> {
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

/**
 * Training runs over HTTP against a production studio (`witness start --no-demo --no-worker`, its own
 * embedded PostgreSQL; a small pairwise project whose finalised comparisons make trl-dpo rows):
 *
 * - `train start` → claimed by an idle agent: an agent long-polls POST /api/v1/training-runs/claim
 *   (waitSeconds 30, as witness-trainer does when idle); the lead's POST /api/v1/training-runs (the
 *   label set frozen: the export built inline) is sent and the time until the agent's claim answers is
 *   taken; median of 10 (goal ≤ 2 s). Comparator: the same start followed at once by a claim that does
 *   not wait (waitSeconds 0): the floor the long-poll adds to.
 * - metric points ingested per second: POST …/events batches of 5,000 points (10 series × 500 steps
 *   a batch, BENCH_TRAINING_POINTS in all, default 200,000) on one claimed run, one batch after another
 *   (goal ≥ 10k/s). Comparator: plain multi-row INSERTs of the same points into training_run_metric
 *   (pg, one statement a batch, no upsert, no idempotency key, no HTTP).
 */
const LOOP_POINTS = Number(process.env.BENCH_TRAINING_POINTS ?? 200_000);
const EVENTS_BATCH = 5_000;
const CLAIM_SAMPLES = 10;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function loopFigures(): Promise<BenchFigure[]> {
  const dir = path.join(root, '.data', 'bench-training-runs');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const postgres = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: await freePort() });
  const client = new pg.Client({ connectionString: postgres.url });
  let studio: ReturnType<typeof startBenchStudio> | undefined;
  try {
    await migrateDatabase(postgres.url);
    setEnv('DATABASE_URL', postgres.url);
    await client.connect();
    await client.query(`
      ${pairwiseProjectSql({ projectId: 'lp', slug: 'bench-loop', tasks: 10, policies: 3, order: 'task' })}
      INSERT INTO "campaign" ("id","projectId","name","mode","status","rubricVersionId","overlap") VALUES ('c','lp','pairs','pairwise','open','rv',1);
      INSERT INTO "campaign_item" ("id","campaignId","trajectoryId","trajectoryBId","reviewCount","activeCount")
        SELECT 'i-'||lpad(n::text,7,'0'), 'c', ta, tb, 1, 1 FROM pairs;
      ${COMPARISONS_SQL}
      INSERT INTO "label_event" ("projectId","campaignItemId","kind") SELECT 'lp', id, 'finalised' FROM "campaign_item" ORDER BY id;
      ANALYZE;`);
    const { user: admin } = await ensureUser({
      email: 'admin@bench-loop.local',
      name: 'Admin',
      role: 'admin',
      password: 'bench-loop-password',
      expertise: [],
    });
    const lead = (await createApiToken(admin.id, { name: 'bench lead', scope: 'all' })).token;
    const agent = (await createApiToken(admin.id, { name: 'bench agent', scope: 'training' })).token;
    await disconnectDb();

    const port = await freePort();
    studio = startBenchStudio({ port, databaseUrl: postgres.url, dataDir: dir, worker: false });
    const base = `http://localhost:${port}`;
    await untilHealthy(base, studio);
    const call = async <T>(token: string, route: string, body: unknown): Promise<{ status: number; json: T }> => {
      const res = await fetch(`${base}${route}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 400) throw new Error(`POST ${route}: ${res.status} ${text.slice(0, 500)}`);
      return { status: res.status, json: (text ? JSON.parse(text) : null) as T };
    };
    type Claimed = { run: { id: string }; lease: { token: string } };
    const start = () =>
      call<{ run: { id: string } }>(lead, '/api/v1/training-runs', { project: 'bench-loop', recipe: 'trl-dpo', base: 'policy-1' });
    const claim = (waitSeconds: number, leaseSeconds = 60) =>
      call<Claimed | null>(agent, '/api/v1/training-runs/claim', { agent: 'bench-agent', waitSeconds, leaseSeconds });
    const finish = (c: Claimed) =>
      call(agent, `/api/v1/training-runs/${c.run.id}/complete`, {
        leaseToken: c.lease.token,
        key: 'bench-done',
        outcome: 'failed',
        reason: 'bench',
      });

    // warm-up: the routes compiled and their pools open before anything is timed
    const warm = await start();
    const warmClaim = await claim(0);
    if (warmClaim.json?.run.id !== warm.json.run.id) throw new Error('warm-up: the started run was not claimed');
    await finish(warmClaim.json);

    const idle: number[] = [];
    const startOnly: number[] = [];
    for (let i = 0; i < CLAIM_SAMPLES; i++) {
      const waiting = claim(30);
      // the agent is idle in its long-poll well before the run is started
      await new Promise((r) => setTimeout(r, 400));
      const t0 = performance.now();
      const started = await start();
      startOnly.push(performance.now() - t0);
      const got = await waiting;
      idle.push(performance.now() - t0);
      if (got.status !== 200 || got.json?.run.id !== started.json.run.id)
        throw new Error(
          `sample ${i}: the idle agent got ${got.status} ${JSON.stringify(got.json?.run.id)}, not run ${started.json.run.id}`,
        );
      await finish(got.json);
    }
    const immediate: number[] = [];
    for (let i = 0; i < CLAIM_SAMPLES; i++) {
      const t0 = performance.now();
      const started = await start();
      const got = await claim(0);
      immediate.push(performance.now() - t0);
      if (got.json?.run.id !== started.json.run.id) throw new Error(`immediate claim ${i}: got ${JSON.stringify(got.json?.run.id)}`);
      await finish(got.json);
    }
    log(
      `train start → claimed by an idle agent: median ${median(idle).toFixed(0)} ms (start alone ${median(startOnly).toFixed(0)} ms; start + a claim at once ${median(immediate).toFixed(0)} ms); samples ${idle.map((x) => x.toFixed(0)).join(' ')}`,
    );

    // ingestion: one claimed run, batches of 5,000 points (10 series × 500 steps)
    await start();
    const run = (await claim(0, 600)).json!;
    const series = Array.from({ length: 10 }, (_, k) => (k === 0 ? 'loss' : k === 1 ? 'rewards/accuracies' : `series/${k}`));
    const batches = Math.ceil(LOOP_POINTS / EVENTS_BATCH);
    const batch = (b: number) =>
      Array.from({ length: EVENTS_BATCH }, (_, j) => ({
        step: b * 500 + (j % 500),
        name: series[Math.floor(j / 500)]!,
        value: Math.sin(b * 500 + j),
      }));
    const bodies = Array.from({ length: batches }, (_, b) =>
      JSON.stringify({ leaseToken: run.lease.token, key: `m-${b}`, metrics: batch(b) }),
    );
    const t1 = performance.now();
    let points = 0;
    for (const body of bodies) {
      const res = await fetch(`${base}/api/v1/training-runs/${run.run.id}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${agent}`, 'content-type': 'application/json' },
        body,
      });
      const answer = (await res.json()) as { points?: number; duplicate?: boolean };
      if (res.status !== 200 || answer.duplicate) throw new Error(`events: ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
      points += answer.points ?? 0;
    }
    const httpSeconds = (performance.now() - t1) / 1000;
    const stored = Number(
      (await client.query('SELECT count(*)::int AS n FROM training_run_metric WHERE "runId" = $1', [run.run.id])).rows[0].n,
    );
    if (points !== batches * EVENTS_BATCH || stored !== points)
      throw new Error(`events: ${points} points answered, ${stored} stored, expected ${batches * EVENTS_BATCH}`);

    // the comparator: the same points, plain INSERTs on a second run (no upsert, no key, no HTTP)
    const other = (await start()).json.run.id;
    const t2 = performance.now();
    for (let b = 0; b < batches; b++) {
      const rows = batch(b);
      await client.query(
        'INSERT INTO training_run_metric ("runId", name, step, value) SELECT $1, * FROM unnest($2::text[], $3::int[], $4::float8[])',
        [other, rows.map((r) => r.name), rows.map((r) => r.step), rows.map((r) => r.value)],
      );
    }
    const sqlSeconds = (performance.now() - t2) / 1000;
    log(
      `${points} metric points in ${batches} batches of ${EVENTS_BATCH}: ${(points / httpSeconds).toFixed(0)} points/s over HTTP, ${(points / sqlSeconds).toFixed(0)} points/s plain INSERT`,
    );
    await finish(run);

    return [
      {
        group: GROUP,
        name: `train start → claimed by an idle agent (long-poll), median of ${CLAIM_SAMPLES}`,
        value: median(idle),
        unit: 'ms',
        higherIsBetter: false,
        comparator: { name: 'start + an immediate claim (no wait)', value: median(immediate) },
        goal: '<= 2000 ms',
      },
      {
        group: GROUP,
        name: `metric points ingested, POST …/events batches of ${EVENTS_BATCH} (${points} points)`,
        value: points / httpSeconds,
        unit: 'points/s',
        higherIsBetter: true,
        comparator: { name: 'plain INSERT of the same points (pg)', value: points / sqlSeconds },
        goal: '>= 10000 points/s',
      },
    ];
  } finally {
    await stopBenchStudio(studio);
    await client.end().catch(() => undefined);
    await disconnectDb();
    await postgres.stop();
  }
}

/** The training area: each part on its own database (and studio, where it needs one). */
export async function run(): Promise<BenchFigure[]> {
  return [...(await sinkFigures()), ...(await loopFigures()), ...(await hillClimbFigures())];
}
