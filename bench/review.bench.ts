import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { recordAdjudication } from '../lib/agreement/record-adjudication';
import { adjudicationsOf, getAdjudicationView } from '../lib/agreement/queries/adjudications';
import { createApiToken } from '../lib/auth/create-api-token';
import { listReviews } from '../lib/review/list-reviews';
import { trajectoryVideo } from '../lib/video/video-props-for';
import { prepareCampaignVideoProps } from '../lib/video/prepare-campaign-video-props';
import { disconnectDb } from '../lib/db/client';
import { createCampaign } from '../lib/campaigns/create-campaign';
import { startEmbeddedPostgres } from '../lib/db/embedded-postgres';
import { freePort } from './free-port';
import { migrateDatabase } from '../lib/migrate-database';
import { ensureProject } from '../lib/trajectories/queries/projects';
import { campaignIntegrity } from '../lib/campaigns/queries/campaign-integrity';
import { insightGroupStatsDrift, type GroupStatsDrift } from '../lib/insight/queries/insight-group-stats';
import { saveRubricVersion } from '../lib/campaigns/save-rubric-version';
import { storeTrajectoryBatch } from '../lib/ingest/queries/store-trajectory-batch';
import { toStorable } from '../lib/ingest/queries/storable-trajectory';
import { ensureFirstMemberships } from '../lib/auth/queries/memberships';
import { ensureUser } from '../lib/auth/create-user';
import { env, setEnv } from '../lib/env';
import { SQL_POOL_APPLICATION } from '../lib/db/sql';
import { buildTrajectory } from '../lib/formats/build-trajectory';
import { prepareTrajectory } from '../lib/ingest/prepare-trajectory';
import type { BenchFigure } from './figure';
import { startBenchStudio, stopBenchStudio, untilHealthy } from './bench-studio';
import type { LoadPlan, LoadResult } from './review-load-client';
import pg from 'pg';

/**
 * Review load test: real HTTP against the production build (`witness start --no-demo --no-worker` on its
 * own database), 50 reviewers with API tokens claiming (`POST /api/v1/campaigns/:id/assignments`)
 * and submitting (`POST /api/v1/assignments/:id/reviews`) as fast as they can for
 * BENCH_REVIEW_SECONDS (default 120) or until the campaign is exhausted, after deriving the campaigns' blind video
 * props as the campaign.video-props job does once a campaign is created. One submit in twenty is
 * sent twice with the same idempotency key (a retried request). Beside it, in the same run, 5
 * sampling connections fetch a static file of the build, so the latencies have a yardstick.
 *
 * Afterwards the database is checked: every acknowledged review is there exactly once, no item
 * has more than k current reviews, no reviewer reviewed an item twice. The figures are p50/p95
 * of claim, submit and the static route.
 *
 * Then the soak, on a second campaign of the same studio, for BENCH_SOAK_SECONDS (default 60):
 * the 50 reviewers again, now with one claim in ten sent twice at once (both must answer the
 * same live claim), one submit in ten sent twice at once with one key, one in five cut off by
 * the client a few ms in and retried with its key until answered, and three leads adjudicating
 * one reviewed item at once, round after round (in-process: adjudication is a server action),
 * each from the revision they read. Figures: errors, duplicate claims and lost labels, each
 * required to be 0 (the bench throws otherwise), with the database's invariants checked after.
 */
const GROUP = 'review';
const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, '.data', 'bench-review');
/** the embedded cluster's own directory (startEmbeddedPostgres puts it under its dataDir's pg/) */
const pgDataDir = path.join(dataDir, 'pg', 'pg');
/** BENCH_REVIEW_REVIEWERS (profile runs only: 1 gives statement times without CPU contention); the figures are for 50 */
const REVIEWERS = Number(process.env.BENCH_REVIEW_REVIEWERS ?? 50);
/** connections sampling the static file in the same run (each waits 250 ms between requests) */
const STATIC_SAMPLERS = 5;
const ITEMS = Number(process.env.BENCH_REVIEW_ITEMS ?? 3000);
const K = 3;
const SECONDS = Number(process.env.BENCH_REVIEW_SECONDS ?? 120);
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const SOAK_LEADS = 3;

const log = (line: string) => process.stderr.write(`  [review] ${line}\n`);

const rubric = {
  title: 'Load test rubric',
  questions: [
    { id: 'overall', type: 'likert', prompt: 'Overall', required: true, points: 5, anchors: { '1': 'bad', '5': 'good' } },
    { id: 'comment', type: 'text', prompt: 'Comment', required: false },
  ],
};

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** BENCH_REVIEW_PROFILE=DIR writes the studio's CPU profile (node --cpu-prof) there, for the note on where the time goes. */
const PROFILE_DIR = process.env.BENCH_REVIEW_PROFILE;

export async function run(): Promise<BenchFigure[]> {
  await rm(dataDir, { recursive: true, force: true });
  const dbPort = await freePort();
  const port = await freePort();
  // the profile's folder first (before the cluster starts, so a folder that cannot be made leaves nothing running): the cluster's log, the load window and the statement stats are written into it
  if (PROFILE_DIR) await mkdir(PROFILE_DIR, { recursive: true });
  let postgres = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg'), port: dbPort });
  let studio: ChildProcess | undefined;
  try {
    if (PROFILE_DIR)
      postgres = await withStatementStats(postgres, () =>
        startEmbeddedPostgres({
          dataDir: path.join(dataDir, 'pg'),
          port: dbPort,
          // the cluster's log (auto_explain's plans under BENCH_REVIEW_EXPLAIN) beside the profile
          serverLog: (text) => appendFileSync(path.join(PROFILE_DIR, 'postgres.log'), text),
        }),
      );
    await migrateDatabase(postgres.url);
    setEnv('DATABASE_URL', postgres.url);

    const { campaign, soakCampaign, leads, tokens, projectId } = await seedReviewLoad(ITEMS);
    log(`seeded ${ITEMS} items (k=${K}), ${REVIEWERS} reviewers`);
    // what the campaign.video-props job a campaign's creation queues does (the studio runs without its worker here)
    const p0 = performance.now();
    for (const c of [campaign, soakCampaign]) await prepareCampaignVideoProps(c.id);
    log(
      `the campaigns' blind video props derived ahead of the claims (the campaign.video-props job) in ${((performance.now() - p0) / 1000).toFixed(1)} s`,
    );
    const propsFigures = await storedPropsFigures(projectId);

    studio = startBenchStudio({
      port,
      // over the database's Unix socket, as `witness start` reaches its embedded one
      databaseUrl: postgres.socketUrl,
      dataDir,
      worker: false,
      nodeArgs: PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : [],
    });
    const base = `http://127.0.0.1:${port}`;
    await untilHealthy(base, studio);
    const staticPath = await findStaticAsset(base);
    log(`studio up on ${base}; static yardstick ${staticPath}`);

    const statements = PROFILE_DIR ? await resetStatementStats(postgres.url) : null;
    const cpu0 = { web: processCpuMs(studio.pid!), db: postgresCpuMs(pgDataDir) };
    const sched0 = { web: mainThreadSched(studio.pid!), db: backendsSched(pgDataDir) };
    // the load's window on the monotonic clock the CPU profile's timestamps use (µs), to read the profile of the load alone
    const window = { from: Number(process.hrtime.bigint() / 1000n), to: 0 };
    const activity = sampleActivity(postgres.url);
    const load = await runLoadClient({
      base,
      campaignId: campaign.id,
      tokens,
      seconds: SECONDS,
      staticPath,
      staticSamplers: STATIC_SAMPLERS,
    });
    window.to = Number(process.hrtime.bigint() / 1000n);
    const where = await activity.stop();
    const wallMs = (window.to - window.from) / 1000;
    const webSched = schedDelta(sched0.web, mainThreadSched(studio.pid!));
    const dbSched = backendsDelta(sched0.db, backendsSched(pgDataDir));
    if (PROFILE_DIR) await writeFile(path.join(PROFILE_DIR, 'load-window.json'), JSON.stringify(window));
    const cpu = { web: processCpuMs(studio.pid!) - cpu0.web, db: postgresCpuMs(pgDataDir) - cpu0.db, client: load.cpuMs };
    const { claimMs, submitMs, staticMs, seconds, replays, errors } = load;
    const acknowledged = new Set(load.acknowledged);
    for (const line of load.errorLines) log(line);
    const requests = claimMs.length + submitMs.length + staticMs.length;
    log(
      `CPU over the load (${seconds.toFixed(1)} s, ${requests} requests, ${acknowledged.size} reviews): web ${cpu.web.toFixed(0)} ms, ` +
        `postgres ${cpu.db.toFixed(0)} ms, client ${cpu.client.toFixed(0)} ms; per review: web ${(cpu.web / acknowledged.size).toFixed(1)} ms, ` +
        `postgres ${(cpu.db / acknowledged.size).toFixed(1)} ms, client ${(cpu.client / acknowledged.size).toFixed(1)} ms; ` +
        `claim answer ${load.claimBytes.json} bytes of JSON (${load.claimBytes.wire} on the wire); load average ${loadavg()[0]!.toFixed(1)}`,
    );
    log(
      `where the hot pool's connections were (${where.samples} samples of pg_stat_activity, every ${ACTIVITY_EVERY_MS} ms; pool max ${where.poolMax}): ` +
        `open ${where.mean.open.toFixed(1)}, running a statement ${where.mean.running.toFixed(1)} (of them waiting on a lock ${where.mean.lock.toFixed(2)}: ${where.lockEvents || 'none'}; on rows of ${where.lockRelations || 'none'}), ` +
        `idle in a transaction (the web process's turn) ${where.mean.idleInTx.toFixed(1)}, idle in the pool ${where.mean.idle.toFixed(1)}; ` +
        `samples with no idle connection (a query would wait for one) ${(100 * where.noIdleShare).toFixed(0)}%; Prisma's connections running ${where.mean.prismaRunning.toFixed(2)}`,
    );
    log(
      `the web process's main thread (its event loop) over the ${(wallMs / 1000).toFixed(1)} s: running ${pct(webSched.runMs, wallMs)}, ` +
        `runnable but waiting for a CPU ${pct(webSched.waitMs, wallMs)}, idle (nothing to do: waiting on the database or the clients) ${pct(wallMs - webSched.runMs - webSched.waitMs, wallMs)}; ` +
        `the database's ${dbSched.backends} backends together: running ${(dbSched.runMs / wallMs).toFixed(2)} CPUs, waiting for a CPU ${(dbSched.waitMs / wallMs).toFixed(2)} backends on average`,
    );
    if (statements) await reportStatementStats(postgres.url, acknowledged.size, PROFILE_DIR!);

    // ---- invariants, from the database
    const integrity = await campaignIntegrity(campaign.id);
    // the stored per-group insight counts (kept by the write path's triggers) against a recount, after the load and after the soak
    const groupStats = await insightGroupStatsDrift(projectId);
    const soak = await runSoak(base, soakCampaign.id, projectId, tokens, leads);
    log(
      `${seconds.toFixed(0)} s: ${acknowledged.size} reviews acknowledged (${replays} replays answered with the same review), ${errors} errors`,
    );
    log(
      `database: ${integrity.currentReviews} current reviews, max per item ${integrity.maxReviewsPerItem} (k=${K}), duplicate reviewer/item pairs ${integrity.duplicatePairs}`,
    );
    const lost = [...acknowledged].filter((id) => !integrity.reviewIds.has(id)).length;
    if (
      lost ||
      integrity.currentReviews !== acknowledged.size ||
      integrity.maxReviewsPerItem > K ||
      integrity.duplicatePairs ||
      integrity.counterDrift ||
      integrity.activeDrift ||
      integrity.liveClaimDuplicates ||
      integrity.eventDrift ||
      integrity.summaryDrift ||
      groupStatsDrifted(groupStats) ||
      errors
    ) {
      throw new Error(
        `load test broke an invariant: lost ${lost}, acknowledged ${acknowledged.size} vs stored ${integrity.currentReviews}, max/item ${integrity.maxReviewsPerItem}, duplicates ${integrity.duplicatePairs}, counter drift ${integrity.counterDrift}/${integrity.activeDrift}, live claim duplicates ${integrity.liveClaimDuplicates}, event drift ${integrity.eventDrift}, summary drift ${integrity.summaryDrift}, group stats drift ${JSON.stringify(groupStats)}, errors ${errors}`,
      );
    }

    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const [c, s, st] = [sorted(claimMs), sorted(submitMs), sorted(staticMs)];
    const fig = (name: string, xs: number[], p: number, yard: number[]): BenchFigure => ({
      group: GROUP,
      name: `${name} p${p} (${REVIEWERS} reviewers, ${xs.length} requests)`,
      value: percentile(xs, p),
      unit: 'ms',
      higherIsBetter: false,
      comparator: { name: `static p${p}`, value: percentile(yard, p) },
      goal: p === 95 ? '<= 3x static p95' : undefined,
    });
    return [
      fig('claim', c, 50, st),
      fig('claim', c, 95, st),
      fig('submit', s, 50, st),
      fig('submit', s, 95, st),
      {
        group: GROUP,
        name: `reviews stored (${seconds.toFixed(0)} s, none lost, none over k, no duplicate)`,
        value: integrity.currentReviews / seconds,
        unit: 'reviews/s',
        higherIsBetter: true,
        goal: '>= 100 reviews/s',
      },
      ...soak,
      ...propsFigures,
    ];
  } finally {
    await stopBenchStudio(studio);
    await disconnectDb();
    await postgres.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The load test's data on the database DATABASE_URL names: `items` one-step trajectories, a
 * single-mode campaign with k = 3 (the load) and a second one (the soak), SOAK_LEADS leads and
 * REVIEWERS reviewers with API tokens, all members of the project.
 */
export async function seedReviewLoad(items: number) {
  // ---- seed: items trajectories, a single-mode campaign with k = 3, 50 reviewers with tokens
  const project = await ensureProject({ slug: 'load', name: 'Load test' });
  for (let from = 0; from < items; from += 500) {
    const batch = [];
    for (let i = from; i < Math.min(items, from + 500); i++) {
      const t = buildTrajectory({
        format: 'openai',
        task: { name: `task-${i}`, instruction: `Task ${i}` },
        policy: { model: 'load-model' },
        steps: [{ source: 'agent', text: `answer ${i}` }],
      });
      batch.push(await toStorable(prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null }));
    }
    await storeTrajectoryBatch(project.id, batch);
  }
  const version = await saveRubricVersion(project.id, 'load', rubric, null);
  const campaign = await createCampaign(
    project.id,
    { name: 'load', mode: 'single', rubricVersionId: version.versionId, overlap: K, minCoverage: 0, open: true },
    null,
  );
  const soakCampaign = await createCampaign(
    project.id,
    { name: 'soak', mode: 'single', rubricVersionId: version.versionId, overlap: K, minCoverage: 0, open: true },
    null,
  );
  const leads: string[] = [];
  for (let i = 0; i < SOAK_LEADS; i++) {
    const { user } = await ensureUser({
      email: `lead${i}@load.local`,
      name: `Lead ${i}`,
      role: 'lead',
      password: 'load-test-password',
      expertise: [],
    });
    await ensureFirstMemberships(user.id, [{ projectId: project.id, role: 'lead' }]);
    leads.push(user.id);
  }
  const tokens: string[] = [];
  for (let i = 0; i < REVIEWERS; i++) {
    const { user } = await ensureUser({
      email: `r${i}@load.local`,
      name: `Reviewer ${i}`,
      role: 'reviewer',
      password: 'load-test-password',
      expertise: [],
    });
    // reviewers claim only in their projects' campaigns (issue 14): without this every claim is a 404
    await ensureFirstMemberships(user.id, [{ projectId: project.id, role: 'reviewer' }]);
    tokens.push((await createApiToken(user.id, { name: `load ${i}` })).token);
  }
  return { projectId: project.id, campaign, soakCampaign, leads, tokens };
}

/** Runs the load client (bench/review-load-client.ts) in its own process and returns what it measured. */
function runLoadClient(plan: LoadPlan): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(import.meta.dirname, 'review-load-client.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: LoadResult | undefined;
    child.once('message', (m) => (result = m as LoadResult));
    child.once('error', reject);
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`the load client exited (${code}) without a result`))));
    child.send(plan);
  });
}

/** CPU (user + system, ms) a process has used so far, from /proc/PID/stat; with `reaped`, also its waited-for children's. */
function processCpuMs(pid: number, reaped = false): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the fields after the command name (which may hold spaces) in parentheses
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0);
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(0)}%`;

/**
 * A thread's scheduler times so far (/proc/PID/task/TID/schedstat: ns on a CPU, ns runnable
 * waiting on a run queue), ms. Over a window, wall - running - waiting is the time the thread
 * slept: for an event loop, nothing to do. Where the queue is: waiting for a CPU (the machine is
 * saturated) or idle (the web process waits on the database or the clients).
 */
function threadSched(pid: number, tid = pid): { runMs: number; waitMs: number } {
  const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
  return { runMs: run! / 1e6, waitMs: wait! / 1e6 };
}
const mainThreadSched = (pid: number) => threadSched(pid);
const schedDelta = (a: { runMs: number; waitMs: number }, b: { runMs: number; waitMs: number }) => ({
  runMs: b.runMs - a.runMs,
  waitMs: b.waitMs - a.waitMs,
});

/** Each live backend's (postmaster's child's) scheduler times, by pid. */
function backendsSched(pgDir: string): Map<number, { runMs: number; waitMs: number }> {
  const postmaster = Number(readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const out = new Map<number, { runMs: number; waitMs: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster) out.set(Number(entry), threadSched(Number(entry)));
    } catch {
      /* ended meanwhile */
    }
  }
  return out;
}

/** The backends alive at the window's end (the pools' connections), their times over it summed (a backend that ended inside it is missed). */
function backendsDelta(a: Map<number, { runMs: number; waitMs: number }>, b: Map<number, { runMs: number; waitMs: number }>) {
  let runMs = 0;
  let waitMs = 0;
  let backends = 0;
  for (const [pid, end] of b) {
    // one born in the window (a pool opening its connections as the load starts): all its time is the window's
    const start = a.get(pid) ?? { runMs: 0, waitMs: 0 };
    backends++;
    runMs += end.runMs - start.runMs;
    waitMs += end.waitMs - start.waitMs;
  }
  return { runMs, waitMs, backends };
}

/** CPU the embedded PostgreSQL has used so far (postmaster, its ended backends, and its live ones), ms. */
function postgresCpuMs(pgDir: string): number {
  const postmaster = Number(readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let ms = processCpuMs(postmaster, true);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster) ms += processCpuMs(Number(entry));
    } catch {
      /* ended meanwhile: its time is in the postmaster's reaped children */
    }
  }
  return ms;
}

const ACTIVITY_EVERY_MS = 50;

/** Any stored insight count (campaign, group, vote, frame) that differs from its recount. */
function groupStatsDrifted(d: GroupStatsDrift): boolean {
  return d.campaigns + d.groups + d.votes + d.frame > 0;
}

/**
 * Samples pg_stat_activity every ACTIVITY_EVERY_MS over the load, for where claims and submits
 * queue: the hot pool's connections (application_name SQL_POOL_APPLICATION) running a statement
 * (and of those, waiting on a lock), idle inside a transaction (the database waits on the web
 * process: its event loop or CPU), or idle in the pool. A sample with no idle connection is a
 * moment a new query would have waited in the pool. One short query per sample (~0.3 ms of the
 * database's CPU: ~0.6% of what the load uses).
 */
function sampleActivity(url: string) {
  const client = new pg.Client({ connectionString: url });
  const sums = { open: 0, running: 0, lock: 0, idleInTx: 0, idle: 0, prismaRunning: 0 };
  const lockEvents = new Map<string, number>();
  // the tables whose rows the waits are on: the tuple locks the waiting pool connections hold or wait for
  const lockRelations = new Map<string, number>();
  let samples = 0;
  let noIdle = 0;
  let stopped = false;
  const done = (async () => {
    await client.connect();
    while (!stopped) {
      const { rows } = await client.query<{ app: string; state: string | null; wtype: string | null; wevent: string | null }>(
        `SELECT application_name AS app, state, wait_event_type AS wtype, wait_event AS wevent FROM pg_stat_activity
         WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND client_addr IS NULL`,
      );
      samples++;
      let idle = 0;
      for (const r of rows) {
        if (r.app !== SQL_POOL_APPLICATION) {
          if (r.state === 'active') sums.prismaRunning++;
          continue;
        }
        sums.open++;
        if (r.state === 'active') {
          sums.running++;
          if (r.wtype === 'Lock') {
            sums.lock++;
            lockEvents.set(r.wevent ?? '?', (lockEvents.get(r.wevent ?? '?') ?? 0) + 1);
          }
        } else if (r.state?.startsWith('idle in transaction')) sums.idleInTx++;
        else if (r.state === 'idle') idle++;
      }
      sums.idle += idle;
      if (idle === 0) noIdle++;
      if (rows.some((r) => r.app === SQL_POOL_APPLICATION && r.wtype === 'Lock')) {
        const locks = await client.query<{ rel: string; n: number }>(
          `SELECT l.relation::regclass::text AS rel, count(DISTINCT l.pid)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
           WHERE a.application_name = $1 AND a.wait_event_type = 'Lock' AND l.locktype = 'tuple' GROUP BY 1`,
          [SQL_POOL_APPLICATION],
        );
        for (const l of locks.rows) lockRelations.set(l.rel, (lockRelations.get(l.rel) ?? 0) + l.n);
      }
      await new Promise((r) => setTimeout(r, ACTIVITY_EVERY_MS));
    }
    await client.end();
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      const n = Math.max(1, samples);
      const mean = Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, v / n])) as typeof sums;
      return {
        samples,
        mean,
        noIdleShare: noIdle / n,
        poolMax: env().WITNESS_SQL_POOL_MAX,
        lockEvents: [...lockEvents].map(([e, c]) => `${e} ${(c / n).toFixed(2)}`).join(', '),
        lockRelations: [...lockRelations].map(([e, c]) => `${e} ${(c / n).toFixed(2)}`).join(', '),
      };
    },
  };
}

/** Restarts the bench's database with pg_stat_statements loaded (profile runs: per-statement server time). */
async function withStatementStats(
  postgres: Awaited<ReturnType<typeof startEmbeddedPostgres>>,
  restart: () => ReturnType<typeof startEmbeddedPostgres>,
): Promise<Awaited<ReturnType<typeof startEmbeddedPostgres>>> {
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  // per-statement totals; under BENCH_REVIEW_EXPLAIN also the analysed plans of slow statements (in DIR/postgres.log)
  // BENCH_REVIEW_EXPLAIN=MS: auto_explain too, the analysed plans of statements slower than MS (to DIR/postgres.log)
  const explainMs = Number(process.env.BENCH_REVIEW_EXPLAIN ?? 0);
  const explain = [
    `auto_explain.log_min_duration = ${explainMs}`,
    `auto_explain.log_analyze = on`,
    `auto_explain.log_buffers = on`,
    `auto_explain.log_nested_statements = on`,
  ];
  const settings = [
    `shared_preload_libraries = pg_stat_statements${explainMs > 0 ? ', auto_explain' : ''}`,
    `pg_stat_statements.track = 'all'`,
    `pg_stat_statements.track_planning = on`,
    ...(explainMs > 0 ? explain : []),
  ];
  for (const setting of settings) await client.query(`ALTER SYSTEM SET ${setting}`);
  await client.end();
  await postgres.stop();
  const restarted = await restart();
  const again = new pg.Client({ connectionString: restarted.url });
  await again.connect();
  await again.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await again.end();
  return restarted;
}

async function resetStatementStats(url: string): Promise<true> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('SELECT pg_stat_statements_reset()');
  await client.end();
  return true;
}

/** Writes where the database's time went over the load (per statement: calls per review, mean and total ms) to DIR/statements.txt, and logs the top. */
async function reportStatementStats(url: string, reviews: number, dir: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ calls: string; total: number; mean: number; plan: number; rows: string; query: string }>(
    `SELECT calls::text, total_exec_time AS total, mean_exec_time AS mean, total_plan_time AS plan, rows::text, query FROM pg_stat_statements
     WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC`,
  );
  await client.end();
  const calls = rows.reduce((n, r) => n + Number(r.calls), 0);
  const total = rows.reduce((n, r) => n + r.total, 0);
  const lines = [
    `${reviews} reviews; ${calls} statements (${(calls / reviews).toFixed(1)} per review), ${total.toFixed(0)} ms executing (${(total / reviews).toFixed(2)} ms per review)`,
    'calls/review  mean ms  total ms  plan ms  query',
    ...rows.map(
      (r) =>
        `${(Number(r.calls) / reviews).toFixed(2).padStart(12)}  ${r.mean.toFixed(3).padStart(7)}  ${r.total.toFixed(0).padStart(8)}  ${r.plan.toFixed(0).padStart(7)}  ${r.query.replace(/\s+/g, ' ').slice(0, 160)}`,
    ),
  ];
  const full = rows.map(
    (r) =>
      `${(Number(r.calls) / reviews).toFixed(2)} calls/review, ${r.mean.toFixed(3)} ms mean, ${r.total.toFixed(0)} ms total, ${r.plan.toFixed(0)} ms planning\n${r.query}\n`,
  );
  await writeFile(path.join(dir, 'statements.txt'), `${lines.join('\n')}\n\n${full.join('\n')}`);
  for (const line of lines.slice(0, 22)) log(line);
}

/** A static file of the production build (a JS chunk the sign-in page loads). */
async function findStaticAsset(base: string): Promise<string> {
  const html = await (await fetch(`${base}/sign-in`)).text();
  const match = /\/_next\/static\/[^"']+\.js/.exec(html);
  if (!match) throw new Error('no static asset found on /sign-in');
  return match[0];
}

/**
 * The soak (see the header): returns its figures (errors, duplicate claims, lost labels, each 0)
 * or throws naming what broke.
 */
async function runSoak(base: string, campaignId: string, projectId: string, tokens: string[], leads: string[]): Promise<BenchFigure[]> {
  const deadline = performance.now() + SOAK_SECONDS * 1000;
  const acknowledged = new Map<string, string>(); // idempotency key -> review id
  const adjudicated = new Set<string>();
  let errors = 0;
  let duplicateClaims = 0;
  let mismatchedReplays = 0;
  let cutOff = 0;
  let doubleSubmits = 0;
  let doubleClaims = 0;
  let adjudicationRounds = 0;
  let conflicts = 0;
  let finished = 0;
  const fail = (what: string) => {
    errors++;
    if (errors <= 5) log(`soak: ${what}`);
  };

  async function claimOnce(headers: Record<string, string>): Promise<{ status: number; id?: string }> {
    const r = await fetch(`${base}/api/v1/campaigns/${campaignId}/assignments`, { method: 'POST', headers, body: '{}' });
    if (r.status === 204) return { status: 204 };
    const body = (await r.json()) as { assignment?: { assignment?: { id: string } } };
    if (r.status !== 201) fail(`claim answered ${r.status}: ${JSON.stringify(body).slice(0, 200)}`);
    return { status: r.status, id: body.assignment?.assignment?.id };
  }

  async function submitOnce(headers: Record<string, string>, assignmentId: string, body: string, signal?: AbortSignal) {
    const r = await fetch(`${base}/api/v1/assignments/${assignmentId}/reviews`, { method: 'POST', headers, body, signal });
    return { status: r.status, body: (await r.json()) as { review?: { id: string } } };
  }

  /** Sends until answered (a cut-off request is retried with the same key): the review id, or null after a refusal. */
  async function submitUntilAnswered(headers: Record<string, string>, assignmentId: string, key: string, body: string, cut: boolean) {
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        const signal = cut && attempt === 0 ? AbortSignal.timeout(1 + Math.floor(Math.random() * 8)) : undefined;
        const answer = await submitOnce(headers, assignmentId, body, signal);
        if (answer.status === 201 || answer.status === 200) return answer.body.review!.id;
        fail(`submit answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 200)}`);
        return null;
      } catch (error) {
        if ((error as Error).name !== 'TimeoutError' && (error as Error).name !== 'AbortError') throw error;
        cutOff++;
      }
    }
    fail(`submit with key ${key} never answered`);
    return null;
  }

  async function reviewer(token: string, index: number): Promise<void> {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    for (let n = 0; performance.now() < deadline; n++) {
      const twice = (index + n) % 10 === 3;
      const claims = await Promise.all(twice ? [claimOnce(headers), claimOnce(headers)] : [claimOnce(headers)]);
      if (twice) doubleClaims++;
      if (claims.some((c) => c.status === 204)) break;
      const ids = new Set(claims.map((c) => c.id).filter(Boolean));
      if (ids.size > 1) duplicateClaims++;
      const assignmentId = claims[0]!.id;
      if (!assignmentId) continue;
      const key = randomUUID();
      const body = JSON.stringify({
        answers: { overall: 1 + ((index + n) % 5) },
        coverage: { ranges: [], speeds: [1], seeks: 0 },
        idempotencyKey: key,
        durationSec: 20,
      });
      const double = (index + n) % 10 === 7;
      const cut = (index + n) % 5 === 1;
      const answers = await Promise.all(
        double
          ? [submitUntilAnswered(headers, assignmentId, key, body, false), submitUntilAnswered(headers, assignmentId, key, body, false)]
          : [submitUntilAnswered(headers, assignmentId, key, body, cut)],
      );
      if (double) doubleSubmits++;
      if (answers.some((a) => a === null)) continue;
      if (new Set(answers).size > 1) mismatchedReplays++;
      acknowledged.set(key, answers[0]!);
    }
    finished++;
  }

  async function adjudicators(): Promise<void> {
    while (performance.now() < deadline && finished < tokens.length) {
      const { reviews } = await listReviews({ campaignId, limit: 20 }, null);
      const itemId = reviews[Math.floor(Math.random() * reviews.length)]?.campaignItemId;
      if (!itemId) {
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      const view = (await getAdjudicationView(campaignId, itemId))!;
      const basedOnRevision = view.adjudications.find((a) => a.isCurrent)?.revision ?? null;
      adjudicationRounds++;
      const outcomes = await Promise.allSettled(
        leads.map((lead, i) =>
          recordAdjudication(lead, {
            campaignId,
            itemId,
            answers: { overall: 1 + ((adjudicationRounds + i) % 5) },
            rationale: `soak round ${adjudicationRounds}, lead ${i}`,
            basedOnRevision,
          }),
        ),
      );
      let won = 0;
      for (const o of outcomes) {
        if (o.status === 'fulfilled') {
          adjudicated.add(o.value.id);
          if (!o.value.duplicate) won++;
        } else if ((o.reason as { code?: string }).code === 'CONFLICT') conflicts++;
        else fail(`adjudication failed: ${String((o.reason as Error).message ?? o.reason).slice(0, 200)}`);
      }
      if (won !== 1) fail(`adjudication round ${adjudicationRounds}: ${won} decisions saved from one revision (expected exactly 1)`);
    }
  }

  const started = performance.now();
  await Promise.all([...tokens.map((t, i) => reviewer(t, i)), adjudicators()]);
  const seconds = (performance.now() - started) / 1000;

  const integrity = await campaignIntegrity(campaignId);
  const groupStats = await insightGroupStatsDrift(projectId);
  const stored = await adjudicationsOf(campaignId);
  const lostReviews = [...acknowledged.values()].filter((id) => !integrity.reviewIds.has(id)).length;
  const lostAdjudications = [...adjudicated].filter((id) => !stored.ids.has(id)).length;
  const lost =
    lostReviews +
    lostAdjudications +
    (integrity.currentReviews - acknowledged.size !== 0 ? 1 : 0) +
    integrity.eventDrift +
    stored.missingEvents +
    integrity.summaryDrift;
  const duplicates = duplicateClaims + integrity.liveClaimDuplicates + integrity.duplicatePairs + mismatchedReplays;
  log(
    `soak ${seconds.toFixed(0)} s: ${acknowledged.size} reviews (${doubleSubmits} double submits, ${cutOff} cut-off requests retried, ${doubleClaims} double claims), ` +
      `${adjudicationRounds} adjudication rounds x ${leads.length} leads (${stored.ids.size} decisions stored, ${conflicts} answered 409 as decided meanwhile); ` +
      `errors ${errors}, duplicate claims ${duplicates}, lost labels ${lost} (reviews ${lostReviews}, adjudications ${lostAdjudications}, stored ${integrity.currentReviews} vs acknowledged ${acknowledged.size}, event drift ${integrity.eventDrift}+${stored.missingEvents}, summary drift ${integrity.summaryDrift}), counters ${integrity.counterDrift}/${integrity.activeDrift}, group stats drift ${JSON.stringify(groupStats)}`,
  );
  if (
    errors ||
    duplicates ||
    lost ||
    integrity.counterDrift ||
    integrity.activeDrift ||
    groupStatsDrifted(groupStats) ||
    integrity.maxReviewsPerItem > K ||
    acknowledged.size === 0 ||
    stored.ids.size === 0
  ) {
    throw new Error(
      `soak broke an invariant: errors ${errors}, duplicate claims ${duplicates}, lost labels ${lost}, counters ${integrity.counterDrift}/${integrity.activeDrift}, group stats drift ${JSON.stringify(groupStats)}, max/item ${integrity.maxReviewsPerItem}, reviews ${acknowledged.size}, decisions ${stored.ids.size}`,
    );
  }
  const figure = (name: string, value: number): BenchFigure => ({
    group: GROUP,
    name: `soak ${name} (${SOAK_SECONDS} s, ${tokens.length} reviewers, ${leads.length} leads)`,
    value,
    unit: 'count',
    higherIsBetter: false,
    goal: '0',
  });
  return [
    figure('errors', errors),
    figure('duplicate claims', duplicates),
    figure('lost labels', lost),
    {
      group: GROUP,
      name: `soak labels stored (${acknowledged.size} reviews, ${stored.ids.size} adjudications)`,
      value: (acknowledged.size + stored.ids.size) / seconds,
      unit: 'labels/s',
      higherIsBetter: true,
    },
  ];
}

/**
 * The stored video props against deriving them, for one 200-step run (what the trajectory page
 * and a claim did per view before video_props): median of 5 reads each way, same process.
 */
async function storedPropsFigures(projectId: string): Promise<BenchFigure[]> {
  const steps = [];
  for (let i = 0; i < 200; i++) {
    steps.push(
      i % 2 === 0
        ? {
            source: 'agent' as const,
            text: `Step ${i}: I will look at the failing test and run it again with more output, then compare. `.repeat(3),
          }
        : { source: 'tool' as const, text: `$ pytest -x tests/test_${i}.py\n${'collected 12 items ... F\n'.repeat(6)}` },
    );
  }
  const t = buildTrajectory({
    format: 'openai',
    task: { name: 'long-run', instruction: 'Fix the failing tests.' },
    policy: { model: 'load-model' },
    steps,
  });
  const [stored] = await storeTrajectoryBatch(projectId, [
    await toStorable(prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null }),
  ]);
  if (!stored?.ok) throw new Error('the 200-step run was not stored');
  const median = async (fn: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await fn();
      times.push(performance.now() - t0);
    }
    return times.sort((a, b) => a - b)[2]!;
  };
  const derived = await median(() => trajectoryVideo(stored.id, { fresh: true }));
  const read = await median(() => trajectoryVideo(stored.id));
  log(`200-step run: props derived ${derived.toFixed(0)} ms, read from video_props ${read.toFixed(0)} ms`);
  return [
    {
      group: GROUP,
      name: 'video props of a 200-step run, read from video_props (median of 5)',
      value: read,
      unit: 'ms',
      higherIsBetter: false,
      comparator: { name: 'derived from the rows', value: derived },
    },
  ];
}
