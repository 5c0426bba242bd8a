import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTrajectory } from '../../formats/build-trajectory';
import { prepareTrajectory } from '../../ingest/prepare-trajectory';
import { submitReview } from '../../review/submit-review';
import { createCampaign } from '../../campaigns/create-campaign';
import { env } from '../../env';
import { db } from '../../db/client';
import { sql } from '../../db/sql';
import { resetDatabase } from '../../db/test/reset';
import { crowdReviews, seedInsightScenario } from '../../db/test/insight-scenario';
import { storeTrajectory } from '../../ingest/store-trajectory';
import { estimateGroupMoments, type GroupMoments } from './insight-estimate-stats';
import { insightGroupStatsDrift } from './insight-group-stats';
import { insightRefreshRunning, refreshQueuedInsight } from './insight-refresh';

/**
 * The stored per-group statistics (migration 20261202050510_insight_group_stats) stay exact through
 * every write that changes their inputs: real imports (storeTrajectory) and submits (claim +
 * submitReview, concurrent, with racing revisions), a random campaign drawn with recorded
 * probabilities over trajectories already in another campaign (shared items), judge scores added
 * and removed, rewards re-scored, a task moved to another environment, a re-import, trajectory and
 * campaign deletes. After each: the stored counts equal a recount (insightGroupStatsDrift), and
 * the prediction-powered sums from the stored frame counts equal the live frame's (relative 1e-10).
 */
let projectId = '';
const reviewers: [string, string] = [randomUUID(), randomUUID()];
const crowd = Array.from({ length: 4 }, () => randomUUID());
const coverage = { ranges: [[0, 100]] as [number, number][], speeds: [1], seeks: 0 };

const storeOptions = { source: null, sourceWhere: null, importedById: null };
/** A run of a task of clean-env by a third checkpoint, as an import stores it. */
const newRun = (task: string, run: number) =>
  prepareTrajectory(
    buildTrajectory({
      format: 'openai',
      task: {
        name: task,
        instruction: `Task ${task}`,
        environment: 'clean-env',
        acceptanceCriteria: [
          { key: 'works', text: 'It works', origin: 'task', verdict: null },
          { key: 'no_test_edits', text: 'Tests are not edited', origin: 'task', verdict: null },
        ],
      },
      policy: { model: 'acme-coder-7b', checkpoint: 'ckpt-3000' },
      steps: [
        { source: 'user', text: task },
        { source: 'agent', text: `run ${run}` },
      ],
      extra: { verifier: { reward: run % 2, components: {} } },
    }),
  );

const near = (a: number, b: number, what: string) =>
  expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(1e-10 * Math.max(1, Math.abs(b)));

function expectSameMoments(stored: GroupMoments[], live: GroupMoments[], at: string) {
  const byId = (m: GroupMoments[]) => [...m].sort((x, y) => x.groupId.localeCompare(y.groupId));
  const s = byId(stored);
  const l = byId(live);
  expect(
    s.map((g) => [g.groupId, g.picked, g.judged, g.uniform]),
    at,
  ).toEqual(l.map((g) => [g.groupId, g.picked, g.judged, g.uniform]));
  s.forEach((g, i) => {
    const ref = l[i]!;
    expect([...g.figures.keys()].sort(), `${at} ${g.groupId}`).toEqual([...ref.figures.keys()].sort());
    for (const [figure, blocks] of ref.figures) {
      for (const block of ['scored', 'unscored'] as const) {
        const want = blocks[block];
        const got = g.figures.get(figure)![block];
        const where = `${at} ${g.groupId} ${figure} ${block}`;
        expect(got === null, where).toBe(want === null);
        if (!want || !got) continue;
        for (const k of Object.keys(want) as (keyof typeof want)[]) {
          if (typeof want[k] === 'number') near(got[k] as number, want[k] as number, `${where} ${k}`);
          else expect(got[k], `${where} ${k}`).toBe(want[k]);
        }
      }
    }
  });
}

/** The stored statistics equal their recount, and the estimates' sums from them the live ones, for every filter the pages use. */
async function expectExact(at: string) {
  expect(await insightGroupStatsDrift(projectId), at).toEqual({ campaigns: 0, groups: 0, votes: 0, frame: 0 });
  const environments = await db().environment.findMany({ where: { projectId }, select: { id: true } });
  expectSameMoments(
    await estimateGroupMoments(projectId, 'environment', null, 'stored'),
    await estimateGroupMoments(projectId, 'environment', null, 'live'),
    `${at} (per environment)`,
  );
  for (const env of [null, ...environments.map((e) => e.id)])
    expectSameMoments(
      await estimateGroupMoments(projectId, 'policy', env, 'stored'),
      await estimateGroupMoments(projectId, 'policy', env, 'live'),
      `${at} (per policy in ${env ?? 'every environment'})`,
    );
}

const crowdAnswers = (i: number, round: number) => ({
  criteria: { works: (i + round) % 2 ? 'pass' : 'fail', no_test_edits: i % 3 ? 'pass' : 'fail' },
  overall: 1 + ((i + round) % 5),
  flags: (i + round) % 4 === 0 ? ['reward_hacking'] : (i + round) % 5 === 0 ? ['answer_leakage'] : [],
});

describe('stored per-group insight statistics', () => {
  let randomCampaign = '';

  beforeAll(async () => {
    await resetDatabase();
    for (const id of [...reviewers, ...crowd]) await db().user.create({ data: { id, email: `${id}@x.test`, name: 'R', role: 'reviewer' } });
    ({ projectId } = await seedInsightScenario('grp', reviewers));
  }, 120_000);

  it('the scenario seeded through imports and submits', async () => {
    expect(await db().insightGroupStat.count({ where: { projectId } })).toBeGreaterThan(0);
    expect(await db().insightFrameItem.count({ where: { projectId } })).toBe(20);
    await expectExact('after the seed');
  });

  it('a random campaign over trajectories already in a campaign, reviewed in part by concurrent reviewers with racing revisions', async () => {
    const { rubricVersionId } = await db().campaign.findFirstOrThrow({
      where: { projectId, mode: 'single' },
      select: { rubricVersionId: true },
    });
    // six more runs that are in no campaign yet: in the draw alone (their probability is the draw's, not combined)
    for (let run = 0; run < 6; run++) await storeTrajectory(projectId, newRun('grp-draw', run), storeOptions);
    const trajectories = await db().trajectory.findMany({ where: { projectId }, select: { id: true }, orderBy: { id: 'asc' } });
    const planned = trajectories.map((t, i) => ({
      trajectoryId: t.id,
      trajectoryBId: null,
      probability: [0.3, 0.6, 0.45][i % 3]!,
      selected: i % 4 !== 3,
    }));
    const campaign = await createCampaign(
      projectId,
      { name: 'draw', mode: 'single', rubricVersionId, overlap: 1, sampling: 'random', budget: { items: 20 } },
      null,
      planned,
    );
    randomCampaign = campaign.id;
    expect(await db().insightFrameItem.count({ where: { projectId, shared: true } })).toBe(40);
    expect(await db().insightFrameItem.count({ where: { projectId, shared: false } })).toBe(6);
    await expectExact('after the draw, before any review');
    await crowdReviews(campaign.id, crowd, crowdAnswers, 9);
    const reviewed = await db().campaignItem.count({ where: { campaignId: campaign.id, reviewCount: { gt: 0 } } });
    expect(reviewed).toBeGreaterThan(0);
    expect(reviewed).toBeLessThan(20); // part of the drawn set: the weights are not 1
    await expectExact('after concurrent submits and revisions');
    const moments = await estimateGroupMoments(projectId, 'environment');
    expect(moments.some((m) => !m.uniform)).toBe(true);
  }, 120_000);

  it('judge scores added and removed, rewards re-scored, a task moved to another environment', async () => {
    const ids = (await db().trajectory.findMany({ where: { projectId }, select: { id: true }, orderBy: { id: 'asc' } })).map((t) => t.id);
    await db().judgeScore.createMany({ data: ids.slice(0, 5).map((trajectoryId, i) => ({ trajectoryId, judge: 'j', score: i })) });
    await expectExact('after judge scores');
    await db().judgeScore.deleteMany({ where: { trajectoryId: { in: ids.slice(0, 3) } } });
    await expectExact('after judge scores removed');
    // as a reward import writes them: one statement over many rows, some to no reward, some above the threshold
    await sql(
      `UPDATE trajectory SET "verifierReward" = CASE WHEN id = ANY($2::text[]) THEN NULL ELSE coalesce("verifierReward", 0) * 0.5 + 0.75 END
       WHERE "projectId" = $1 AND id = ANY($3::text[])`,
      [projectId, ids.slice(4, 6), ids.slice(2, 12)],
    );
    await expectExact('after rewards re-scored');
    const task = await db().task.findFirstOrThrow({ where: { projectId, name: 'grp-clean-1' }, select: { id: true } });
    const hacky = await db().environment.findFirstOrThrow({ where: { projectId, name: 'hacky-env' }, select: { id: true } });
    await db().task.update({ where: { id: task.id }, data: { environmentId: hacky.id } });
    await expectExact('after a task moved');
  });

  it('a re-import of stored content changes nothing; a new import and its review are counted', async () => {
    const before = await db().insightGroupStat.findMany({ where: { projectId }, orderBy: [{ taskId: 'asc' }, { policyId: 'asc' }] });
    const first = await storeTrajectory(projectId, newRun('grp-new', 1), storeOptions);
    await expectExact('after a new import');
    const again = await storeTrajectory(projectId, newRun('grp-new', 1), storeOptions);
    expect(again.id).toBe(first.id);
    const after = await db().insightGroupStat.findMany({ where: { projectId }, orderBy: [{ taskId: 'asc' }, { policyId: 'asc' }] });
    expect(after.length).toBe(before.length + 1);
    expect(after.reduce((n, r) => n + r.trajectories, 0)).toBe(before.reduce((n, r) => n + r.trajectories, 0) + 1);
    await expectExact('after the same content again');
  });

  it("two connections writing the same (task, policy) key write different shards, neither waits on the other's lock, and the readers still equal the recount", async () => {
    // two runs of one task by one policy: the same insight_group_stat key
    const a = await storeTrajectory(projectId, newRun('grp-shard', 0), storeOptions);
    const b = await storeTrajectory(projectId, newRun('grp-shard', 1), storeOptions);
    const { taskId, policyId } = await db().trajectory.findUniqueOrThrow({ where: { id: a.id }, select: { taskId: true, policyId: true } });
    // two connections of different shards (pg_backend_pid() & 15); a third when the first two share one
    const clients: { client: pg.Client; shard: number }[] = [];
    try {
      while (new Set(clients.map((c) => c.shard)).size < 2) {
        const client = new pg.Client({ connectionString: env().DATABASE_URL });
        await client.connect();
        const [row] = (await client.query<{ shard: number }>('SELECT pg_backend_pid() & 15 AS shard')).rows;
        clients.push({ client, shard: row!.shard });
        if (clients.length > 1 && clients[1]!.shard === clients[0]!.shard) await clients.splice(1, 1)[0]!.client.end();
      }
      const [first, second] = clients as [(typeof clients)[0], (typeof clients)[0]];
      // a wait on the first's row lock would fail the second's statement instead of hanging the test
      await second.client.query(`SET lock_timeout = '10s'`);
      await first.client.query('BEGIN');
      await second.client.query('BEGIN');
      await first.client.query(`UPDATE trajectory SET "verifierReward" = 1 WHERE id = $1`, [a.id]);
      // the first's transaction is still open, holding its shard's row: the second writes its own
      await second.client.query(`UPDATE trajectory SET "verifierReward" = 0 WHERE id = $1`, [b.id]);
      await first.client.query('COMMIT');
      await second.client.query('COMMIT');
      const shards = await db().insightGroupStat.findMany({ where: { taskId, policyId }, select: { shard: true } });
      expect(shards.map((s) => s.shard)).toEqual(expect.arrayContaining([first.shard, second.shard]));
    } finally {
      await Promise.all(clients.map((c) => c.client.end()));
    }
    // the readers sum over the shards: of the task's two runs, the first now passes and the second no longer
    const rows = await sql<{ trajectories: string; passes: string }>(
      `SELECT sum(trajectories) AS trajectories, sum("verifierPasses") AS passes FROM insight_group_stat WHERE "taskId" = $1 AND "policyId" = $2`,
      [taskId, policyId],
    );
    expect(rows[0]).toEqual({ trajectories: '2', passes: '1' });
    await expectExact('after two connections wrote one key');
  });

  it("trajectories and a campaign's items deleted", async () => {
    const reviewed = await db().campaignItem.findMany({
      where: { campaignId: randomCampaign, reviewCount: { gt: 0 } },
      select: { trajectoryId: true },
      take: 2,
    });
    await insightRefreshRunning(); // this process's background summary refresh done before deleting behind its back
    await db().trajectory.deleteMany({ where: { id: { in: reviewed.map((r) => r.trajectoryId) } } });
    await expectExact('after trajectories deleted');
    await db().campaignItem.deleteMany({ where: { campaignId: randomCampaign } });
    expect(await db().insightFrameItem.count({ where: { campaignId: randomCampaign } })).toBe(0);
    expect(await db().insightFrameItem.count({ where: { projectId, shared: true } })).toBe(0);
    await expectExact("after the random campaign's items deleted");
  });

  it('every trigger is there and fires in replica mode too; without one, the check fails', async () => {
    const triggers = await sql<{ tgname: string; tgenabled: string }>(
      `SELECT tgname, tgenabled FROM pg_trigger WHERE tgname LIKE 'insight\\_%' AND NOT tgisinternal ORDER BY 1`,
    );
    expect(triggers.map((t) => t.tgname)).toEqual([
      'insight_campaign_update',
      'insight_frame_item_delete',
      'insight_frame_item_insert',
      'insight_frame_item_update',
      'insight_item_delete',
      'insight_item_insert',
      'insight_item_update',
      'insight_judge_delete',
      'insight_judge_insert',
      'insight_judge_update',
      'insight_summary_delete',
      'insight_summary_insert',
      'insight_summary_update',
      'insight_task_update',
      'insight_trajectory_delete',
      'insight_trajectory_delete_summary',
      'insight_trajectory_insert',
      'insight_trajectory_update',
    ]);
    expect(triggers.every((t) => t.tgenabled === 'A')).toBe(true);
    // a revision with the summary trigger off: the stored counts and frame no longer match
    const assignment = await db().assignment.findFirstOrThrow({
      where: { reviewerId: reviewers[0], status: 'submitted', item: { campaign: { mode: 'single' } } },
      select: { id: true, item: { select: { trajectoryId: true } } },
    });
    await refreshQueuedInsight();
    const summary = await db().trajectoryInsight.findUniqueOrThrow({ where: { trajectoryId: assignment.item.trajectoryId } });
    const flip = summary.passVotes > summary.failVotes ? 'fail' : 'pass';
    await sql(`ALTER TABLE trajectory_insight DISABLE TRIGGER insight_summary_update`);
    try {
      await submitReview(
        reviewers[0],
        {
          assignmentId: assignment.id,
          idempotencyKey: randomUUID(),
          answers: { criteria: { works: flip, no_test_edits: flip }, overall: flip === 'pass' ? 5 : 1, flags: [] },
          coverage,
        },
        100,
        new Date(),
      );
      // the summary is refreshed after the submit commits (lib/insight/queries/insight-refresh.ts): while the trigger is still off
      await refreshQueuedInsight();
    } finally {
      await sql(`ALTER TABLE trajectory_insight ENABLE ALWAYS TRIGGER insight_summary_update`);
    }
    expect((await insightGroupStatsDrift(projectId)).groups).toBeGreaterThan(0);
  });
});
