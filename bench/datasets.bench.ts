import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { exportDataset } from '../lib/datasets/export-dataset';
import { disconnectDb } from '../lib/db/client';
import { startEmbeddedPostgres } from '../lib/db/embedded-postgres';
import { migrateDatabase } from '../lib/migrate-database';
import { setEnv } from '../lib/env';
import type { BenchFigure } from './figure';
import { freePort } from './free-port';
import { COMPARISONS_SQL, pairwiseProjectSql } from './pairwise-bench-data';

/**
 * Dataset export benchmark: `witness export --format trl-dpo` (exportDataset, in process) of
 * 100,000 preference pairs from one pairwise campaign (50 tasks x 64 policies, every pair of a
 * task's trajectories is an item with one comparison, no ties; trajectories of 6 steps with a
 * bash tool call and its output), streamed from a fresh embedded PostgreSQL into a JSONL file.
 *
 * Comparator, same run, same database: `COPY (SELECT ...) TO STDOUT` of the same rows (each
 * comparison with its preference and both trajectories' steps as JSON), read to the end by
 * the client. Peak RSS (VmHWM reset before each run) for 10,000 and 100,000 pairs shows whether
 * memory stays flat as rows grow. BENCH_DATASETS_N overrides 100000.
 */
const GROUP = 'datasets';
const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, '.data', 'bench-datasets');
const N = Number(process.env.BENCH_DATASETS_N ?? 100_000);
const SMALL = Math.min(10_000, N);
const TASKS = 50;
const POLICIES = 64;

const log = (line: string) => process.stderr.write(`  [datasets] ${line}\n`);
const mib = (n: number) => n / 1024 / 1024;

function vmHwmBytes(): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

async function withPeakRss<T>(fn: () => Promise<T>): Promise<{ result: T; peak: number; method: string }> {
  let reset = false;
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    reset = true;
  } catch {
    /* not Linux */
  }
  let sampled = process.memoryUsage().rss;
  const timer = setInterval(() => (sampled = Math.max(sampled, process.memoryUsage().rss)), 20);
  try {
    const result = await fn();
    const hwm = reset ? vmHwmBytes() : null;
    return { result, peak: hwm ?? Math.max(sampled, process.memoryUsage().rss), method: hwm !== null ? 'VmHWM' : 'sampled' };
  } finally {
    clearInterval(timer);
  }
}

/** COPY ... TO STDOUT through node-postgres's submittable interface; counts the bytes. */
class CopyOut implements pg.Submittable {
  bytes = 0;
  rows = 0;
  callback?: (error: Error | null) => void;
  constructor(private readonly sql: string) {}
  submit(connection: pg.Connection): void {
    connection.query(this.sql);
  }
  handleCopyData(msg: { chunk: Buffer }): void {
    this.bytes += msg.chunk.length;
    this.rows++;
  }
  handleError(error: Error): void {
    this.finish(error);
  }
  handleReadyForQuery(): void {
    this.finish(null);
  }
  private finish(error: Error | null) {
    const cb = this.callback;
    this.callback = undefined;
    cb?.(error);
  }
  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
}

function copyOut(client: pg.Client, sql: string): Promise<{ bytes: number; rows: number }> {
  return new Promise((resolve, reject) => {
    const q = new CopyOut(sql);
    q.callback = (error) => (error ? reject(error) : resolve({ bytes: q.bytes, rows: q.rows }));
    client.query(q as unknown as pg.QueryConfig);
  });
}

/** Everything with generate_series: 50 tasks x 64 policies x 6 steps; two pairwise campaigns (SMALL and N items). */
async function seed(client: pg.Client): Promise<void> {
  const sql = `
    ${pairwiseProjectSql({ projectId: 'bp', slug: 'bench-datasets', tasks: TASKS, policies: POLICIES, order: 'task' })}
    INSERT INTO "campaign" ("id","projectId","name","mode","status","rubricVersionId","overlap") VALUES ('c-small','bp','small','pairwise','open','rv',1), ('c-large','bp','large','pairwise','open','rv',1);
    INSERT INTO "campaign_item" ("id","campaignId","trajectoryId","trajectoryBId","reviewCount","activeCount")
      SELECT c.id||'-'||lpad(n::text,6,'0'), c.id, ta, tb, 1, 1 FROM pairs, (VALUES ('c-small', ${SMALL}), ('c-large', ${N})) AS c(id, k) WHERE n <= c.k;
    ${COMPARISONS_SQL}
    ANALYZE;`;
  await client.query(sql);
}

function copySql(campaignId: string): string {
  const steps = (col: string) =>
    `(SELECT json_agg(json_build_object('index', s."index", 'source', s.source, 'text', s.text, 'toolCalls', s."toolCalls", 'observations', s.observations) ORDER BY s."index") FROM "step" s WHERE s."trajectoryId" = i."${col}")`;
  return `COPY (SELECT c.id, c."reviewerId", c.preference, c."bothBad", i.id AS item, i."trajectoryId", i."trajectoryBId", ${steps('trajectoryId')} AS a, ${steps('trajectoryBId')} AS b
    FROM "pairwise_comparison" c JOIN "campaign_item" i ON i.id = c."campaignItemId" WHERE i."campaignId" = '${campaignId}' AND c."isCurrent" ORDER BY i.id) TO STDOUT`;
}

export async function run(): Promise<BenchFigure[]> {
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const postgres = await startEmbeddedPostgres({ dataDir, port: await freePort() });
  const outDir = await mkdtemp(path.join(tmpdir(), 'witness-bench-datasets-'));
  const client = new pg.Client({ connectionString: postgres.url });
  try {
    await migrateDatabase(postgres.url);
    setEnv('DATABASE_URL', postgres.url);
    await client.connect();
    const s0 = performance.now();
    await seed(client);
    log(`seeded ${N} + ${SMALL} pairwise items over ${TASKS * POLICIES} trajectories in ${((performance.now() - s0) / 1000).toFixed(1)} s`);

    const exportOnce = async (campaignId: string, name: string) => {
      const out = path.join(outDir, `${name.replace(/\W+/g, '-')}.jsonl`);
      const t0 = performance.now();
      const { result, peak, method } = await withPeakRss(() => exportDataset({ format: 'trl-dpo', projectId: 'bp', campaignId }, out));
      const seconds = (performance.now() - t0) / 1000;
      const size = (await stat(out)).size;
      log(
        `${name}: ${result.rows} rows in ${seconds.toFixed(2)} s (${(result.rows / seconds).toFixed(0)} rows/s), ${mib(size).toFixed(0)} MiB, peak RSS ${mib(peak).toFixed(0)} MiB (${method})`,
      );
      return { rows: result.rows, seconds, peak, size };
    };
    await exportOnce('c-small', 'warm-up (untimed)');
    const small = await exportOnce('c-small', 'small');
    const large = await exportOnce('c-large', 'large');
    if (large.rows !== N) throw new Error(`expected ${N} rows, got ${large.rows}`);

    const c0 = performance.now();
    const copied = await copyOut(client, copySql('c-large'));
    const copySeconds = (performance.now() - c0) / 1000;
    log(
      `COPY TO STDOUT: ${copied.rows} rows, ${mib(copied.bytes).toFixed(0)} MiB in ${copySeconds.toFixed(2)} s (${(copied.rows / copySeconds).toFixed(0)} rows/s)`,
    );

    return [
      {
        group: GROUP,
        name: `export ${N} DPO pairs (rows/s)`,
        value: large.rows / large.seconds,
        unit: 'rows/s',
        higherIsBetter: true,
        comparator: { name: 'COPY TO STDOUT', value: copied.rows / copySeconds },
        goal: '>= 0.5x COPY',
      },
      {
        group: GROUP,
        name: `peak RSS at ${N} pairs`,
        value: mib(large.peak),
        unit: 'MiB',
        higherIsBetter: false,
        comparator: { name: `${SMALL} pairs`, value: mib(small.peak) },
        goal: 'flat (about 1x)',
      },
    ];
  } finally {
    await client.end().catch(() => undefined);
    await disconnectDb();
    await postgres.stop();
    await rm(outDir, { recursive: true, force: true });
  }
}
