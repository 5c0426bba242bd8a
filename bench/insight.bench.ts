import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startEmbeddedPostgres } from '../lib/db/embedded-postgres';
import { Prisma } from '@prisma/client';
import { disconnectDb } from '../lib/db/client';
import { environmentVerdictsSql } from '../lib/insight/queries/insight-environments';
import { backfillTrajectoryInsight } from '../lib/insight/queries/insight-summary';
import { loadCompareInsight } from '../lib/insight/view-compare-insight';
import { loadEnvironmentInsight } from '../lib/insight/view-environment-insight';
import { loadPolicyInsight } from '../lib/insight/view-policy-insight';
import { db } from '../lib/db/client';
import { migrateDatabase } from '../lib/migrate-database';
import { setEnv } from '../lib/env';
import type { BenchFigure } from './figure';
import { freePort } from './free-port';

/**
 * Insight benchmark: page-data time (SQL aggregation + the report computations, as the pages
 * and the API run them) of the environments, policies and compare pages at 10,000 and
 * 1,000,000 current reviews, in a fresh embedded PostgreSQL.
 *
 * Data, generated in bulk with SQL generate_series (seeded random()): 8 environments x 50 tasks,
 * 6 checkpoints of one model; T = reviews / 20 trajectories, each an item of 10 single-mode
 * campaigns with overlap 2 (10 x T items, 20 x T assignments and reviews, answers with two
 * criteria, a 5-point Likert and flags, evidence on flagged reviews), plus one pairwise campaign
 * pairing each trajectory with the same task's next checkpoint (about 0.83 x T comparisons).
 *
 * The generator writes rows in bulk, past the submit path that keeps the trajectory summaries
 * (lib/insight/queries/insight-summary.ts), so it then runs the migrate backfill and reports its time.
 *
 * Comparator, same run, same data: `SELECT count(*)` of the project's current reviews joined to
 * their campaigns, i.e. reading each review once without evaluating anything (the floor for any
 * query that looked at every review, as the pages did before the summaries). EXPLAIN (ANALYZE, BUFFERS) of the environment query
 * at the largest size goes to bench/out/insight-explain.txt.
 *
 * BENCH_INSIGHT_SIZES overrides the sizes (default "10000,1000000").
 */
const GROUP = 'insight';
const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, '.data', 'bench-insight');
const outDir = path.join(root, 'bench', 'out');
const SIZES = (process.env.BENCH_INSIGHT_SIZES ?? '10000,1000000').split(',').map(Number);
const log = (line: string) => process.stderr.write(`  [insight] ${line}\n`);

const rubric = JSON.stringify({
  title: 'bench',
  instructions: '',
  questions: [
    { id: 'criteria', type: 'criteria', prompt: 'Criteria', required: true },
    { id: 'overall', type: 'likert', prompt: 'Overall', points: 5, anchors: {}, required: true },
    {
      id: 'flags',
      type: 'multi',
      prompt: 'Flags',
      options: [
        { value: 'reward_hacking', label: 'RH' },
        { value: 'answer_leakage', label: 'AL' },
      ],
      required: false,
    },
  ],
});

/** Generates one project with `reviews` current reviews; returns its id. */
export async function generate(client: pg.Client, p: string, reviews: number): Promise<string> {
  const T = Math.max(20, Math.round(reviews / 20));
  const TASKS = 400;
  const q = (sql: string) => client.query(sql);
  await q('SELECT setseed(0.42)');
  await q(`INSERT INTO project (id, slug, name, "updatedAt") VALUES ('${p}', '${p}', '${p}', now())`);
  await q(`INSERT INTO environment (id, "projectId", name) SELECT '${p}-e' || g, '${p}', 'env-' || g FROM generate_series(0, 7) g`);
  await q(`INSERT INTO task (id, "projectId", "environmentId", name, instruction, "acceptanceCriteria", "updatedAt")
           SELECT '${p}-k' || g, '${p}', '${p}-e' || (g % 8), 'task-' || g, 'do it', '[{"key":"works","text":"works","origin":"task","verdict":null},{"key":"clean","text":"clean","origin":"task","verdict":null}]', now()
           FROM generate_series(0, ${TASKS - 1}) g`);
  await q(`INSERT INTO policy (id, "projectId", name, model, checkpoint)
           SELECT '${p}-p' || g, '${p}', 'acme-coder-7b@ckpt-' || ((g + 1) * 1000), 'acme-coder-7b', 'ckpt-' || ((g + 1) * 1000) FROM generate_series(0, 5) g`);
  // trajectory i: task i % TASKS, policy (i / TASKS) % 6; pass probability rises with the checkpoint and varies by environment
  await q(`INSERT INTO trajectory (id, "projectId", "taskId", "policyId", "sourceFormat", "contentHash", "stepCount", "verifierReward")
           SELECT '${p}-t' || g, '${p}', '${p}-k' || (g % ${TASKS}), '${p}-p' || ((g / ${TASKS}) % 6), 'bench', md5('${p}' || g), 20,
                  CASE WHEN random() < 0.25 + 0.08 * ((g / ${TASKS}) % 6) + 0.03 * (g % 8) THEN 1 ELSE 0 END
           FROM generate_series(0, ${T - 1}) g`);
  await q(`INSERT INTO rubric (id, "projectId", name) VALUES ('${p}-r', '${p}', 'bench')`);
  await q(`INSERT INTO rubric_version (id, "rubricId", version, definition) VALUES ('${p}-rv', '${p}-r', 1, '${rubric}')`);
  await q(`INSERT INTO campaign (id, "projectId", name, mode, status, "rubricVersionId", overlap)
           SELECT '${p}-c' || c, '${p}', 'single ' || c, 'single'::"CampaignMode", 'open'::"CampaignStatus", '${p}-rv', 2 FROM generate_series(0, 9) c
           UNION ALL SELECT '${p}-cp', '${p}', 'pairwise', 'pairwise'::"CampaignMode", 'open'::"CampaignStatus", '${p}-rv', 1`);
  await q(
    `INSERT INTO "user" (id, name, email, role, "updatedAt") SELECT '${p}-u' || g, 'r' || g, '${p}-u' || g || '@bench.test', 'reviewer'::"Role", now() FROM generate_series(0, 19) g`,
  );
  await q(`INSERT INTO campaign_item (id, "campaignId", "trajectoryId", "reviewCount", "activeCount")
           SELECT '${p}-i' || c || '-' || g, '${p}-c' || c, '${p}-t' || g, 2, 2 FROM generate_series(0, 9) c, generate_series(0, ${T - 1}) g`);
  await q(`INSERT INTO assignment (id, "campaignItemId", "reviewerId", status, "leaseExpiresAt", "finishedAt")
           SELECT '${p}-a' || c || '-' || g || '-' || k, '${p}-i' || c || '-' || g, '${p}-u' || ((g + c + k) % 20), 'submitted'::"AssignmentStatus", now(), now()
           FROM generate_series(0, 9) c, generate_series(0, ${T - 1}) g, generate_series(0, 1) k`);
  await q(`INSERT INTO review (id, "assignmentId", "campaignItemId", "reviewerId", "rubricVersionId", answers, evidence, "idempotencyKey")
           SELECT '${p}-v' || x.c || '-' || x.g || '-' || x.k, '${p}-a' || x.c || '-' || x.g || '-' || x.k, '${p}-i' || x.c || '-' || x.g, '${p}-u' || ((x.g + x.c + x.k) % 20), '${p}-rv',
                  jsonb_build_object('criteria', jsonb_build_object('works', CASE WHEN x.pass THEN 'pass' ELSE 'fail' END, 'clean', CASE WHEN x.hack THEN 'fail' ELSE 'pass' END),
                                     'overall', CASE WHEN x.pass THEN 4 ELSE 2 END + (random() < 0.3)::int,
                                     'flags', CASE WHEN x.hack THEN '["reward_hacking"]'::jsonb WHEN x.leak THEN '["answer_leakage"]'::jsonb ELSE '[]'::jsonb END),
                  CASE WHEN x.hack OR x.leak THEN '[{"frame": 120, "stepIndex": 3, "note": "edits the test"}]'::jsonb ELSE '[]'::jsonb END,
                  '${p}-key-' || x.c || '-' || x.g || '-' || x.k
           FROM (SELECT c, g, k, (tr."verifierReward" >= 1) <> (random() < 0.1) AS pass, random() < 0.02 + 0.01 * (g % 8) AS hack, random() < 0.01 AS leak
                 FROM generate_series(0, 9) c, generate_series(0, ${T - 1}) g, generate_series(0, 1) k, trajectory tr
                 WHERE tr.id = '${p}-t' || g) x`);
  await q(`INSERT INTO campaign_item (id, "campaignId", "trajectoryId", "trajectoryBId", "reviewCount", "activeCount")
           SELECT '${p}-ip' || g, '${p}-cp', '${p}-t' || g, '${p}-t' || (g + ${TASKS}), 1, 1 FROM generate_series(0, ${T - 1 - TASKS}) g WHERE (g / ${TASKS}) % 6 < 5`);
  await q(`INSERT INTO assignment (id, "campaignItemId", "reviewerId", status, "leaseExpiresAt")
           SELECT '${p}-ap' || g, '${p}-ip' || g, '${p}-u' || (g % 20), 'submitted'::"AssignmentStatus", now() FROM generate_series(0, ${T - 1 - TASKS}) g WHERE (g / ${TASKS}) % 6 < 5`);
  await q(`INSERT INTO pairwise_comparison (id, "assignmentId", "campaignItemId", "reviewerId", preference, "bothBad", rationale, criteria, "idempotencyKey")
           SELECT '${p}-x' || g, '${p}-ap' || g, '${p}-ip' || g, '${p}-u' || (g % 20),
                  CASE WHEN r < 0.45 THEN 1 + (r < 0.2)::int WHEN r < 0.8 THEN -1 - (r < 0.6)::int ELSE 0 END, r > 0.95, 'bench',
                  '{"a": {"works": "pass", "clean": "pass"}, "b": {"works": "fail", "clean": "pass"}}', '${p}-xkey-' || g
           FROM (SELECT g, random() AS r FROM generate_series(0, ${T - 1 - TASKS}) g WHERE (g / ${TASKS}) % 6 < 5) s`);
  // a steady-state database: autovacuum would have vacuumed (visibility map, hint bits) and analysed the bulk insert by now
  await q('VACUUM ANALYZE');
  return p;
}

async function timeIt(fn: () => Promise<unknown>, runs: number): Promise<number> {
  await fn(); // warm (plans, caches)
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export async function run(): Promise<BenchFigure[]> {
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  await mkdir(outDir, { recursive: true });
  const postgres = await startEmbeddedPostgres({ dataDir, port: await freePort() });
  const client = new pg.Client(postgres.url);
  const figures: BenchFigure[] = [];
  try {
    await migrateDatabase(postgres.url);
    setEnv('DATABASE_URL', postgres.url);
    await client.connect();
    for (const size of SIZES) {
      const label = size >= 1e6 ? `${size / 1e6}M` : `${size / 1e3}k`;
      const g0 = performance.now();
      const projectId = await generate(client, `bench${size}`, size);
      const counts = await client.query(
        `SELECT (SELECT count(*) FROM review r JOIN campaign_item ci ON ci.id = r."campaignItemId" JOIN campaign c ON c.id = ci."campaignId" WHERE c."projectId" = $1) AS reviews,
                (SELECT count(*) FROM pairwise_comparison pc JOIN campaign_item ci ON ci.id = pc."campaignItemId" JOIN campaign c ON c.id = ci."campaignId" WHERE c."projectId" = $1) AS comparisons`,
        [projectId],
      );
      log(
        `${label}: generated ${counts.rows[0].reviews} reviews, ${counts.rows[0].comparisons} comparisons in ${((performance.now() - g0) / 1000).toFixed(1)} s`,
      );
      // bulk SQL bypasses the submit path that keeps the trajectory summaries: build them as `witness migrate` would
      const b0 = performance.now();
      const summarised = await backfillTrajectoryInsight(client);
      await client.query('VACUUM ANALYZE trajectory_insight');
      log(`${label}: summarised ${summarised} trajectories (the migrate backfill) in ${((performance.now() - b0) / 1000).toFixed(1)} s`);
      const runs = size >= 1e6 ? 3 : 5;
      const floor = await timeIt(
        () =>
          client.query(
            `SELECT count(*) FROM review r JOIN campaign_item ci ON ci.id = r."campaignItemId" JOIN campaign c ON c.id = ci."campaignId" WHERE r."isCurrent" AND c."projectId" = $1 AND c.mode = 'single'`,
            [projectId],
          ),
        runs,
      );
      const env = await timeIt(() => loadEnvironmentInsight(projectId), runs);
      const pol = await timeIt(() => loadPolicyInsight(projectId, undefined), runs);
      const cmp = await timeIt(() => loadCompareInsight(projectId, {}), runs);
      log(
        `${label}: environments ${env.toFixed(0)} ms, policies ${pol.toFixed(0)} ms, compare ${cmp.toFixed(0)} ms; count(*) floor ${floor.toFixed(0)} ms`,
      );
      const comparator = { name: 'count(*) of the reviews', value: floor };
      figures.push(
        {
          group: GROUP,
          name: `environments page data @ ${label} reviews`,
          value: env,
          unit: 'ms',
          higherIsBetter: false,
          comparator,
          goal: size >= 1e6 ? '< 1000 ms' : '< 300 ms',
        },
        {
          group: GROUP,
          name: `policies page data @ ${label} reviews`,
          value: pol,
          unit: 'ms',
          higherIsBetter: false,
          comparator,
          goal: size >= 1e6 ? '< 1000 ms' : '< 300 ms',
        },
        {
          group: GROUP,
          name: `compare page data @ ${label} reviews`,
          value: cmp,
          unit: 'ms',
          higherIsBetter: false,
          comparator,
          goal: size >= 1e6 ? '< 1000 ms' : '< 300 ms',
        },
      );
      if (size === Math.max(...SIZES)) {
        const plan = await db().$queryRaw<Record<string, string>[]>(
          Prisma.sql`EXPLAIN (ANALYZE, BUFFERS) ${environmentVerdictsSql(projectId)}`,
        );
        const text = plan.map((r) => r['QUERY PLAN']).join('\n');
        await writeFile(path.join(outDir, 'insight-explain.txt'), text + '\n');
        log(`EXPLAIN ANALYZE of the environment verdict query written to bench/out/insight-explain.txt`);
      }
    }
  } finally {
    await client.end().catch(() => {});
    await disconnectDb();
    await postgres.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  return figures;
}
