import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { claimNextItem } from '../lib/review/claim-next-item';
import { disconnectDb } from '../lib/db/client';
import { copyFrom } from '../lib/db/copy-from';
import { startEmbeddedPostgres, type RunningPostgres } from '../lib/db/embedded-postgres';
import { migrateDatabase } from '../lib/migrate-database';
import { closeSqlPool } from '../lib/db/sql';
import { closeTrajectoryBatchPool } from '../lib/db/pg-pool';
import { storeTrajectory } from '../lib/ingest/store-trajectory';
import { setEnv } from '../lib/env';
import { buildTrajectory } from '../lib/formats/build-trajectory';
import type { CastEvent, Step } from '../lib/formats/trajectory';
import { prepareTrajectory } from '../lib/ingest/prepare-trajectory';
import { DEMO_CAMPAIGNS } from '../prisma/seed/seed-demo-campaigns';
import { seedDemo } from '../prisma/seed/seed-demo';
import { freePort } from './free-port';

/**
 * The pages bench's two databases, in one embedded cluster kept under .data/bench-pages-cache
 * between runs (building the bench scale takes minutes; starting the kept cluster, a second):
 *
 * - `pages_demo`: the demo seed, with one claimed review and one claimed comparison;
 * - `pages_bench`: a copy of it (CREATE DATABASE ... TEMPLATE) plus the bench-scale rows, loaded
 *   with COPY: 100k trajectories (2 steps each) in the demo project, one campaign of 100k items
 *   reviewed by 10 reviewers (1M assignments, 1M reviews, each item's insight summary), and a
 *   1,000-step trajectory with a 10 MB terminal recording.
 *
 * The cache is keyed by this file and the demo seed's sources: a change to either rebuilds it.
 * Migrations added since it was built are applied on open (as `witness start` would to a
 * production database), so a new index or summary table is measured on the same rows.
 * BENCH_PAGES_REBUILD=1 rebuilds it anyway; `rm -rf .data/bench-pages-cache` removes it.
 *
 * BENCH_PAGES_DATA=video builds only what the 1,000-step run's figures read: `pages_demo` as
 * above and `pages_bench` as its copy plus the 1,000-step trajectory, stored by the same function
 * as in the full build (none of the 100k trajectories, 1M reviews or their summaries: building
 * those takes 30+ min of CPU on two cores). It is kept apart, under .data/bench-pages-cache-video,
 * and its ids have no bench-scale campaign (`bench: null`): only the 1,000-step page can be timed on it.
 */
export const TRAJECTORIES = 100_000;
export const REVIEWERS = 10;
export const BIG_STEPS = 1000;
const BIG_CAST_BYTES = 10 * 2 ** 20;

/** what the bench-scale database holds: everything (`full`), or the demo seed and the 1,000-step run only (`video`) */
export type BenchPagesData = 'full' | 'video';
export const BENCH_PAGES_DATA: BenchPagesData = (() => {
  const v = process.env.BENCH_PAGES_DATA ?? 'full';
  if (v !== 'full' && v !== 'video') throw new Error(`BENCH_PAGES_DATA=${v}: expected full or video`);
  return v;
})();

type Log = (line: string) => void;

const root = path.resolve(import.meta.dirname, '..');
export const cacheDir = path.join(root, '.data', BENCH_PAGES_DATA === 'full' ? 'bench-pages-cache' : 'bench-pages-cache-video');

/** the ids the pages need, found once when the databases are built */
export interface BenchPagesIds {
  projectId: string;
  demo: { campaign: string; item: string };
  /** null when only the video data was built (BENCH_PAGES_DATA=video) */
  bench: { campaign: string; item: string } | null;
  pairwise: string;
  physics: string;
  reviewAssignment: string;
  compareAssignment: string;
  derivation: string;
  big: string;
}

export interface BenchPagesDatabases {
  postgres: RunningPostgres;
  demoUrl: string;
  benchUrl: string;
  ids: BenchPagesIds;
  /** true when this run built them (false: opened from the cache) */
  built: boolean;
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else if (!e.name.includes('.test.')) out.push(p);
  }
  return out.sort();
}

/** what the cached databases were built from: this file, the demo seed and which data */
async function cacheKey(): Promise<string> {
  const hash = createHash('sha256').update(`${BENCH_PAGES_DATA}\0`);
  for (const file of [path.join(import.meta.dirname, 'pages-bench-data.ts'), ...(await filesUnder(path.join(root, 'prisma', 'seed')))]) {
    hash
      .update(path.relative(root, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  }
  return hash.digest('hex');
}

const withDatabase = (url: string, database: string) => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

/** Closes this process's pools on the database `DATABASE_URL` names (before it is copied as a template, or another is used). */
async function closePools(): Promise<void> {
  await disconnectDb();
  await closeSqlPool();
  await closeTrajectoryBatchPool();
}

/** The bench's databases: opened from the cache when it was built from the same sources, built (minutes) otherwise. */
export async function openBenchPagesDatabases(log: Log): Promise<BenchPagesDatabases> {
  const key = await cacheKey();
  const keyFile = path.join(cacheDir, 'key.txt');
  const idsFile = path.join(cacheDir, 'ids.json');
  const cached =
    process.env.BENCH_PAGES_REBUILD !== '1' &&
    existsSync(idsFile) &&
    existsSync(keyFile) &&
    (await readFile(keyFile, 'utf8')).trim() === key;
  if (!cached) {
    log(
      existsSync(cacheDir)
        ? 'the cached databases were built from other sources: rebuilding'
        : 'building the databases (kept for the next run)',
    );
    await rm(cacheDir, { recursive: true, force: true });
  }
  const postgres = await startEmbeddedPostgres({ dataDir: cacheDir, port: await freePort(), database: 'pages_demo' });
  const demoUrl = withDatabase(postgres.url, 'pages_demo');
  const benchUrl = withDatabase(postgres.url, 'pages_bench');
  try {
    if (cached) {
      for (const url of [demoUrl, benchUrl]) {
        const m = await migrateDatabase(url);
        if (m.applied.length) log(`${new URL(url).pathname.slice(1)}: applied ${m.applied.join(', ')}`);
      }
      log('databases opened from the cache');
      return { postgres, demoUrl, benchUrl, ids: JSON.parse(await readFile(idsFile, 'utf8')) as BenchPagesIds, built: false };
    }
    const ids = await build(log, demoUrl, benchUrl);
    await writeFile(idsFile, JSON.stringify(ids, null, 2));
    await writeFile(keyFile, key);
    return { postgres, demoUrl, benchUrl, ids, built: true };
  } catch (error) {
    await closePools();
    await postgres.stop();
    throw error;
  }
}

async function build(log: Log, demoUrl: string, benchUrl: string): Promise<BenchPagesIds> {
  const t0 = performance.now();
  await migrateDatabase(demoUrl);
  setEnv('DATABASE_URL', demoUrl);
  const seeded = await seedDemo();
  const projectId = seeded.projectId;

  const q = new pg.Client({ connectionString: demoUrl });
  await q.connect();
  let partial: Omit<BenchPagesIds, 'bench' | 'big'>;
  try {
    const campaignId = async (name: string) => (await one<{ id: string }>(q, `SELECT id FROM campaign WHERE name = $1`, [name])).id;
    const single = await campaignId(DEMO_CAMPAIGNS.single);
    const pairwise = await campaignId(DEMO_CAMPAIGNS.pairwise);
    const physics = await campaignId(DEMO_CAMPAIGNS.untouched);
    const userId = async (email: string) =>
      (await one<{ id: string; expertise: string[] }>(q, `SELECT id, expertise FROM "user" WHERE email = $1`, [email])) as {
        id: string;
        expertise: string[];
      };
    const physicist = await userId('physicist@witness.local');
    const reviewer = await userId('reviewer@witness.local');
    const claimOrExisting = async (campaign: string, who: { id: string; expertise: string[] }) => {
      const claim = await claimNextItem(campaign, who, new Date());
      if (claim) return claim.assignmentId;
      const a = await one<{ id: string }>(
        q,
        `SELECT a.id FROM assignment a JOIN campaign_item i ON i.id = a."campaignItemId" WHERE i."campaignId" = $1 AND a."reviewerId" = $2 LIMIT 1`,
        [campaign, who.id],
      );
      return a.id;
    };
    const reviewAssignment = await claimOrExisting(physics, physicist);
    const compareAssignment = await claimOrExisting(pairwise, reviewer);
    // the adjudication page of the item with the most current reviews (the demo's contested ones)
    const item = await one<{ id: string }>(
      q,
      `SELECT i.id FROM campaign_item i JOIN review r ON r."campaignItemId" = i.id AND r."isCurrent"
       WHERE i."campaignId" = $1 GROUP BY i.id ORDER BY count(*) DESC, i.id LIMIT 1`,
      [single],
    );
    // the demo's physics derivation (the trajectory a lead opens most)
    const derivation = await one<{ id: string }>(
      q,
      `SELECT t.id FROM trajectory t JOIN task k ON k.id = t."taskId" WHERE k.name LIKE '%damped-spring%' ORDER BY t."createdAt" LIMIT 1`,
    );
    partial = {
      projectId,
      demo: { campaign: single, item: item.id },
      pairwise,
      physics,
      reviewAssignment,
      compareAssignment,
      derivation: derivation.id,
    };
  } finally {
    await q.end();
  }
  log(`demo database seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // the bench-scale database starts as a copy of the demo one
  await closePools();
  const admin = new pg.Client({ connectionString: withDatabase(demoUrl, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE pages_bench TEMPLATE pages_demo`);
  } finally {
    await admin.end();
  }
  const scaled = BENCH_PAGES_DATA === 'full' ? await buildBenchScale(log, benchUrl, projectId) : null;
  if (!scaled) log('BENCH_PAGES_DATA=video: the bench-scale rows are not built, only the 1,000-step trajectory');
  setEnv('DATABASE_URL', benchUrl);
  const big = await storeBigTrajectory(log, projectId);
  await closePools();
  log(`both databases built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { ...partial, bench: scaled ? { campaign: scaled.campaignId, item: scaled.itemId } : null, big };
}

const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');

function* rows(n: number, row: (i: number) => string, batch = 2000): Generator<string> {
  let buf = '';
  for (let i = 0; i < n; i++) {
    buf += row(i);
    if ((i + 1) % batch === 0) {
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}

async function one<T extends pg.QueryResultRow>(client: pg.Client, sql: string, params: unknown[] = []): Promise<T> {
  const r = await client.query<T>(sql, params);
  if (!r.rows[0]) throw new Error(`bench data: no row for ${sql.slice(0, 120)}`);
  return r.rows[0];
}

/**
 * Adds the bench-scale rows to the demo database: their JSON (answers, coverage, insight
 * summaries) is copied from what the demo seed stored, so every page reads real shapes.
 */
async function buildBenchScale(log: Log, url: string, projectId: string): Promise<{ campaignId: string; itemId: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // the rows are generated consistent; skipping the foreign-key triggers while they load takes
    // 4M index look-ups out of the 1M-review COPY (this session only)
    await client.query(`SET session_replication_role = replica`);
    const t0 = performance.now();
    const env = await one<{ id: string }>(
      client,
      `INSERT INTO environment (id, "projectId", name) VALUES ('bench-env', $1, 'bench-scale') RETURNING id`,
      [projectId],
    );
    const now = new Date().toISOString();
    await copyFrom(
      client,
      `COPY task (id, "projectId", "environmentId", name, instruction, "updatedAt") FROM STDIN`,
      rows(
        1000,
        (i) =>
          `bench-task-${i}\t${projectId}\t${env.id}\tbench-task-${String(i).padStart(4, '0')}\tSolve bench task ${i}: show $x_${i}$.\t${now}\n`,
      ),
    );
    await copyFrom(
      client,
      `COPY policy (id, "projectId", name, model, checkpoint) FROM STDIN`,
      rows(10, (i) => `bench-policy-${i}\t${projectId}\tbench-model@ckpt-${i}\tbench-model\tckpt-${i}\n`),
    );
    const day = 86_400_000;
    const start = Date.now() - 30 * day;
    await copyFrom(
      client,
      `COPY trajectory (id, "projectId", "taskId", "policyId", "sourceFormat", "contentHash", "stepCount", "verifierReward", "createdAt") FROM STDIN`,
      rows(
        TRAJECTORIES,
        (i) =>
          `bench-t-${i}\t${projectId}\tbench-task-${i % 1000}\tbench-policy-${i % 10}\tatif\tbench-hash-${i}\t2\t${(i % 7) / 6}\t${new Date(start + i * 25_000).toISOString()}\n`,
      ),
    );
    await copyFrom(
      client,
      `COPY step (id, "trajectoryId", index, source, text) FROM STDIN`,
      rows(TRAJECTORIES * 2, (i) => {
        const t = i >> 1;
        return i % 2 === 0
          ? `bench-s-${i}\tbench-t-${t}\t0\tuser\tSolve bench task ${t % 1000}.\n`
          : `bench-s-${i}\tbench-t-${t}\t1\tagent\t${esc(`The answer is $x = ${t}$.\n\nDone.`)}\n`;
      }),
    );
    log(
      `bench scale: ${TRAJECTORIES} trajectories + ${TRAJECTORIES * 2} steps copied in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    // one campaign over all of them, like the demo's single campaign (same rubric), reviewed by REVIEWERS reviewers each
    const demo = await one<{ id: string; rubricVersionId: string; blind: unknown }>(
      client,
      `SELECT id, "rubricVersionId", blind FROM campaign WHERE name = $1 AND "projectId" = $2`,
      [DEMO_CAMPAIGNS.single, projectId],
    );
    const sample = await one<{ answers: unknown; evidence: unknown; coverage: unknown }>(
      client,
      `SELECT answers, evidence, coverage FROM review r JOIN campaign_item i ON i.id = r."campaignItemId" WHERE i."campaignId" = $1 LIMIT 1`,
      [demo.id],
    );
    const insight = await one<Record<string, unknown>>(
      client,
      `SELECT "itemVotes", criteria, "rulesVersion" FROM trajectory_insight WHERE "projectId" = $1 AND reviews > 0 LIMIT 1`,
      [projectId],
    );
    await client.query(
      `INSERT INTO campaign (id, "projectId", name, mode, status, "rubricVersionId", overlap, "minCoverage", blind)
       VALUES ('bench-campaign', $1, 'Bench scale: 100k runs, 10 reviews each', 'single', 'open', $2, ${REVIEWERS}, 0, $3)`,
      [projectId, demo.rubricVersionId, JSON.stringify(demo.blind)],
    );
    await copyFrom(
      client,
      `COPY "user" (id, name, email, role, "updatedAt") FROM STDIN`,
      rows(REVIEWERS, (r) => `bench-reviewer-${r}\tBench Reviewer ${r}\tbench-${r}@bench.local\treviewer\t${now}\n`),
    );
    await copyFrom(
      client,
      `COPY campaign_item (id, "campaignId", "trajectoryId", "reviewCount", "activeCount") FROM STDIN`,
      rows(TRAJECTORIES, (i) => `bench-item-${i}\tbench-campaign\tbench-t-${i}\t${REVIEWERS}\t${REVIEWERS}\n`),
    );
    const t1 = performance.now();
    await copyFrom(
      client,
      `COPY assignment (id, "campaignItemId", "reviewerId", status, "claimedAt", "leaseExpiresAt", "finishedAt") FROM STDIN`,
      rows(TRAJECTORIES * REVIEWERS, (k) => {
        const i = Math.floor(k / REVIEWERS);
        const at = new Date(start + k * 2500).toISOString();
        return `bench-a-${k}\tbench-item-${i}\tbench-reviewer-${k % REVIEWERS}\tsubmitted\t${at}\t${at}\t${at}\n`;
      }),
    );
    const answers = esc(JSON.stringify(sample.answers));
    const evidence = esc(JSON.stringify(sample.evidence));
    const coverage = esc(JSON.stringify(sample.coverage));
    await copyFrom(
      client,
      `COPY review (id, "assignmentId", "campaignItemId", "reviewerId", "rubricVersionId", answers, evidence, coverage, "idempotencyKey", "durationSec", "submittedAt") FROM STDIN`,
      rows(TRAJECTORIES * REVIEWERS, (k) => {
        const i = Math.floor(k / REVIEWERS);
        const at = new Date(start + k * 2500 + 60_000).toISOString();
        return `bench-r-${k}\tbench-a-${k}\tbench-item-${i}\tbench-reviewer-${k % REVIEWERS}\t${demo.rubricVersionId}\t${answers}\t${evidence}\t${coverage}\tbench-key-${k}\t${60 + (k % 240)}\t${at}\n`;
      }),
    );
    log(`bench scale: ${TRAJECTORIES * REVIEWERS} assignments + reviews copied in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    const itemVotes = esc(JSON.stringify(insight.itemVotes));
    const criteria = esc(JSON.stringify(insight.criteria));
    await copyFrom(
      client,
      `COPY trajectory_insight ("trajectoryId", "projectId", reviews, "passVotes", "failVotes", "rewardHacking", "answerLeakage", "likertN", "likertSum", "likertSumSquares", "itemVotes", criteria, "rulesVersion", "updatedAt") FROM STDIN`,
      rows(TRAJECTORIES, (i) => {
        const pass = i % (REVIEWERS + 1);
        return `bench-t-${i}\t${projectId}\t${REVIEWERS}\t${pass}\t${REVIEWERS - pass}\t${i % 97 === 0 ? 't' : 'f'}\tf\t${REVIEWERS}\t${REVIEWERS * 3}\t${REVIEWERS * 10}\t${itemVotes}\t${criteria}\t${insight.rulesVersion}\t${now}\n`;
      }),
    );
    await client.query('ANALYZE');
    log(`bench scale: built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return { campaignId: 'bench-campaign', itemId: 'bench-item-0' };
  } finally {
    await client.end();
  }
}

/** The 1,000-step run with a 10 MB cast, stored through the importer's own path (storeTrajectory). */
async function storeBigTrajectory(log: Log, projectId: string): Promise<string> {
  const steps: Array<Partial<Step> & Pick<Step, 'source' | 'text'>> = [{ source: 'user', text: 'Fix the failing build; show each step.' }];
  const castSeconds = 3600;
  for (let i = 1; i < BIG_STEPS; i++) {
    steps.push({
      source: 'agent',
      text: `Step ${i}: the log shows **error ${i}**; with $n = ${i}$ the loop runs $O(n^2)$ times, so I change it.`,
      reasoning: `Check step ${i} against the previous output.`,
      toolCalls: [{ id: `c${i}`, name: 'bash', arguments: { command: `make -j2 test-${i}` } }],
      observations: [
        { toolCallId: `c${i}`, content: Array.from({ length: 20 }, (_, k) => `test ${i}.${k} ok`).join('\n'), isError: false },
      ],
      castTime: (i / BIG_STEPS) * castSeconds,
    });
  }
  const line = (k: number) => `\x1b[32m[${k}]\x1b[0m building target ${k % 977} ${'.'.repeat(k % 50)}\r\n`;
  const events: CastEvent[] = [];
  let bytes = 0;
  for (let k = 0; bytes < BIG_CAST_BYTES; k++) {
    const data = line(k);
    bytes += data.length + 20;
    events.push([(k / 150_000) * castSeconds, 'o', data]);
  }
  const trajectory = buildTrajectory({
    format: 'harbor',
    task: { name: 'bench-1000-step-build', instruction: 'Fix the failing build.' },
    policy: { model: 'bench-model', checkpoint: 'long' },
    steps,
    extra: { terminal: { version: 2, width: 120, height: 40, title: null, events } },
  });
  const stored = await storeTrajectory(projectId, prepareTrajectory(trajectory), { source: null, sourceWhere: null, importedById: null });
  log(`bench scale: the ${BIG_STEPS}-step trajectory with a ${(bytes / 2 ** 20).toFixed(1)} MB cast (${events.length} events) stored`);
  return stored.id;
}
