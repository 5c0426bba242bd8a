import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { ensureUser } from '../lib/auth/create-user';
import { projectAccess } from '../lib/auth/project-access';
import type { SessionUser } from '../lib/auth/session-user';
import { disconnectDb } from '../lib/db/client';
import { startEmbeddedPostgres } from '../lib/db/embedded-postgres';
import { setEnv } from '../lib/env';
import { migrateDatabase } from '../lib/migrate-database';
import { viewHillClimb } from '../lib/training/view-hill-climb';
import { launchBenchChromium, signInCookie, startBenchStudio, stopBenchStudio, untilHealthy } from './bench-studio';
import type { BenchFigure } from './figure';
import { freePort } from './free-port';
import { COMPARISONS_SQL, pairwiseProjectSql } from './pairwise-bench-data';

/**
 * The hill-climb page at scale (issue 41, goal p95 ≤ 200 ms): a project whose base policy has a
 * chain of BENCH_HILL_CHECKPOINTS (default 100) checkpoints, each trained by a run with
 * BENCH_HILL_POINTS (default 10,000) metric points (loss every step: 1M rows in all), the 20
 * labels of a pairwise campaign each, and 10 eval trajectories each (judged); each checkpoint but the first
 * has a canary campaign against its parent (its 10 eval tasks, one blind vote each), so the page
 * computes BENCH_HILL_CHECKPOINTS - 1 comparisons' win rates. Timed: the page's view
 * (lib/training/view-hill-climb.ts, in-process) p95 over 20 loads, and the page's server render
 * (HTML over HTTP, production `witness start --no-worker`, signed in as an admin) p95 over 20
 * loads, beside the sign-in page's p95 (a static route of the same build) in the same loop.
 */
const GROUP = 'training';
const root = path.resolve(import.meta.dirname, '..');
const CHECKPOINTS = Number(process.env.BENCH_HILL_CHECKPOINTS ?? 100);
const POINTS = Number(process.env.BENCH_HILL_POINTS ?? 10_000);
const LOADS = 20;
const log = (line: string) => process.stderr.write(`  [training] ${line}\n`);
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)]!;

export function seedHillClimbSql(): string {
  const ck = (col: string) => `'ck'||lpad((${col})::text,4,'0')`;
  const run = (col: string) => `'run'||lpad((${col})::text,4,'0')`;
  return `
    ${pairwiseProjectSql({ projectId: 'hp', slug: 'bench-hill', tasks: 20, policies: 2, order: 'task' })}
    INSERT INTO "campaign" ("id","projectId","name","mode","status","rubricVersionId","overlap") VALUES ('c','hp','pairs','pairwise','open','rv',1);
    INSERT INTO "campaign_item" ("id","campaignId","trajectoryId","trajectoryBId","reviewCount","activeCount")
      SELECT 'i-'||lpad(n::text,7,'0'), 'c', ta, tb, 1, 1 FROM pairs;
    ${COMPARISONS_SQL}
    INSERT INTO "task" ("id","projectId","name","instruction","split","updatedAt")
      SELECT 'ev'||t,'hp','eval-'||t,'Held out '||t,'eval',now() FROM generate_series(1,10) t;
    INSERT INTO "training_run" ("id","projectId","recipe","basePolicy","exportId","datasetSha256","datasetRows","status","attempts","updatedAt","createdAt")
      SELECT ${run('r')},'hp','trl-dpo',CASE WHEN r = 1 THEN 'policy-1' ELSE ${ck('r - 1')} END,'export-'||r,md5(r::text)||md5(r::text),20,'succeeded',1,now(),
             now() - (${CHECKPOINTS} - r) * interval '1 hour'
      FROM generate_series(1,${CHECKPOINTS}) r;
    INSERT INTO "policy" ("id","projectId","name","model","checkpoint","parentId","trainingRunId","createdAt")
      SELECT ${ck('r')},'hp',${ck('r')},'model-1','/ckpt/'||r,CASE WHEN r = 1 THEN 'pl001' ELSE ${ck('r - 1')} END,${run('r')},
             now() - (${CHECKPOINTS} - r) * interval '1 hour'
      FROM generate_series(1,${CHECKPOINTS}) r;
    INSERT INTO "training_run_metric" ("runId","name","step","value")
      SELECT ${run('r')},'loss',s,0.7 * exp(-s / 2000.0) + 0.01 * r / ${CHECKPOINTS} FROM generate_series(1,${CHECKPOINTS}) r, generate_series(0,${POINTS - 1}) s;
    INSERT INTO "training_run_label" ("runId","reviewId","kind","campaignId","reviewerId","durationSec")
      SELECT ${run('r')}, pc.id, 'pairwise', 'c', pc."reviewerId", 60 FROM generate_series(1,${CHECKPOINTS}) r, "pairwise_comparison" pc;
    INSERT INTO "trajectory" ("id","projectId","taskId","policyId","sourceFormat","contentHash","stepCount","verifierReward")
      SELECT 'et-'||r||'-'||t,'hp','ev'||t,${ck('r')},'openai',md5('eval/'||r||'/'||t),1,CASE WHEN (r + t) % 3 = 0 THEN 0 ELSE 1 END
      FROM generate_series(1,${CHECKPOINTS}) r, generate_series(1,10) t;
    INSERT INTO "judge_score" ("id","trajectoryId","judge","score")
      SELECT 'js-'||r||'-'||t,'et-'||r||'-'||t,'bench-judge',((r * 7 + t * 3) % 10) / 10.0
      FROM generate_series(1,${CHECKPOINTS}) r, generate_series(1,10) t;
    INSERT INTO "campaign" ("id","projectId","name","mode","status","rubricVersionId","overlap","blind","filter")
      SELECT 'cc'||r,'hp','Canary: '||${ck('r')}||' vs '||${ck('r - 1')},'pairwise','open','rv',1,'{"hidePolicy":true,"hideReward":true}'::jsonb,
             jsonb_build_object('canary', jsonb_build_object('child', ${ck('r')}, 'parent', ${ck('r - 1')}))
      FROM generate_series(2,${CHECKPOINTS}) r;
    INSERT INTO "campaign_item" ("id","campaignId","trajectoryId","trajectoryBId","reviewCount","activeCount")
      SELECT 'ci-'||r||'-'||t,'cc'||r,
             CASE WHEN (r + t) % 2 = 0 THEN 'et-'||r||'-'||t ELSE 'et-'||(r - 1)||'-'||t END,
             CASE WHEN (r + t) % 2 = 0 THEN 'et-'||(r - 1)||'-'||t ELSE 'et-'||r||'-'||t END, 1, 1
      FROM generate_series(2,${CHECKPOINTS}) r, generate_series(1,10) t;
    INSERT INTO "assignment" ("id","campaignItemId","reviewerId","status","leaseExpiresAt")
      SELECT 'as-'||i.id, i.id, 'u'||(1 + abs(hashtext(i.id)) % 5), 'submitted', now() FROM "campaign_item" i WHERE i."campaignId" LIKE 'cc%';
    INSERT INTO "pairwise_comparison" ("id","assignmentId","campaignItemId","reviewerId","preference","rationale","idempotencyKey")
      SELECT 'pc-'||i.id, 'as-'||i.id, i.id, a."reviewerId", (ARRAY[-2,-1,1,2])[1 + abs(hashtext(i.id||'p')) % 4], 'bench rationale', 'k-'||i.id
      FROM "campaign_item" i JOIN "assignment" a ON a."campaignItemId" = i.id WHERE i."campaignId" LIKE 'cc%';
    UPDATE "training_run" SET "canaryCampaignId" = 'cc'||substr(id, 4)::int WHERE substr(id, 4)::int >= 2;
    ANALYZE;`;
}

async function timeGet(base: string, route: string, cookie: string | null): Promise<{ ms: number; bytes: number }> {
  const t0 = performance.now();
  const res = await fetch(`${base}${route}`, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
  const body = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`GET ${route}: HTTP ${res.status} ${body.slice(0, 300)}`);
  return { ms, bytes: body.length };
}

export async function hillClimbFigures(): Promise<BenchFigure[]> {
  const dir = path.join(root, '.data', 'bench-hill-climb');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const postgres = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: await freePort() });
  let studio: ReturnType<typeof startBenchStudio> | undefined;
  try {
    await migrateDatabase(postgres.url);
    setEnv('DATABASE_URL', postgres.url);
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    const s0 = performance.now();
    try {
      await client.query(seedHillClimbSql());
    } finally {
      await client.end();
    }
    log(`hill climb: seeded ${CHECKPOINTS} checkpoints × ${POINTS} metric points in ${((performance.now() - s0) / 1000).toFixed(1)} s`);
    const password = 'bench-hill-password';
    const { user } = await ensureUser({ email: 'admin@bench-hill.local', name: 'Admin', role: 'admin', password, expertise: [] });

    // the view, in-process (the page's queries and their assembly), warm-up untimed
    const admin: SessionUser = { ...user, access: projectAccess('admin', []) };
    const first = await viewHillClimb(admin, { project: 'bench-hill' });
    const series = first.curves.flatMap((c) => c.series);
    if (first.checkpoints.length !== CHECKPOINTS + 1)
      throw new Error(`the view lists ${first.checkpoints.length} checkpoints, expected ${CHECKPOINTS + 1}`);
    const compared = first.checkpoints.filter((c) => c.winRates?.human.n).length;
    if (compared !== CHECKPOINTS - 1)
      throw new Error(`the view has ${compared} checkpoints with human win rates, expected ${CHECKPOINTS - 1}`);
    if (!series.length || series.some((s) => s.points.length > 200))
      throw new Error(`curves: ${series.map((s) => s.points.length).join(', ')} points`);
    const viewMs: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const t0 = performance.now();
      await viewHillClimb(admin, { project: 'bench-hill' });
      viewMs.push(performance.now() - t0);
    }
    await disconnectDb();
    log(`hill climb: the view p95 ${p95(viewMs).toFixed(0)} ms over ${LOADS} (${series.length} series of ≤ 200 points shown)`);

    // the page, server-rendered by the production build, beside the sign-in page in the same loop
    const port = await freePort();
    studio = startBenchStudio({ port, databaseUrl: postgres.url, dataDir: dir, worker: false });
    const base = `http://localhost:${port}`;
    await untilHealthy(base, studio);
    const browser = await launchBenchChromium();
    const cookie = await signInCookie(browser, base, user.email, password).finally(() => browser.close());
    const route = '/training/hill-climb?project=bench-hill';
    const warm = await timeGet(base, route, cookie);
    await timeGet(base, '/sign-in', null);
    const page: number[] = [];
    const signInMs: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      page.push((await timeGet(base, route, cookie)).ms);
      signInMs.push((await timeGet(base, '/sign-in', null)).ms);
    }
    log(
      `hill climb: page HTML p95 ${p95(page).toFixed(0)} ms (${(warm.bytes / 1024).toFixed(0)} KiB), sign-in page p95 ${p95(signInMs).toFixed(0)} ms, over ${LOADS} each`,
    );
    return [
      {
        group: GROUP,
        name: `hill-climb page, ${CHECKPOINTS} checkpoints × ${POINTS} metric points: server render (HTML) p95 of ${LOADS}`,
        value: p95(page),
        unit: 'ms',
        higherIsBetter: false,
        comparator: { name: 'sign-in page (static, same loop)', value: p95(signInMs) },
        goal: '<= 200 ms',
      },
      {
        group: GROUP,
        name: `hill-climb view (lib/training/view-hill-climb.ts, in-process), ${CHECKPOINTS} checkpoints × ${POINTS} points: p95 of ${LOADS}`,
        value: p95(viewMs),
        unit: 'ms',
        higherIsBetter: false,
      },
    ];
  } finally {
    await stopBenchStudio(studio);
    await disconnectDb();
    await postgres.stop();
  }
}
