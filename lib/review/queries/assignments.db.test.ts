import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildTrajectory } from '../../formats/build-trajectory';
import type { Trajectory } from '../../formats/trajectory';
import { prepareTrajectory } from '../../ingest/prepare-trajectory';
import { claimNextItem } from '../claim-next-item';
import { CLAIM_STATEMENT } from './assignments';
import { settleClaim } from '../settle-claim';
import { skipAssignment } from '../skip-assignment';
import { campaignOnRubric, likertRubric } from '../../db/test/test-campaign';
import { db } from '../../db/client';
import { inSqlTransaction, sql } from '../../db/sql';
import { ensureProject } from '../../trajectories/queries/projects';
import { resetDatabase } from '../../db/test/reset';
import { env } from '../../env';
import { storeTrajectoryBatch } from '../../ingest/queries/store-trajectory-batch';
import { toStorable } from '../../ingest/queries/storable-trajectory';

function trajectory(task: string, model: string): Trajectory {
  return buildTrajectory({
    format: 'openai',
    task: { name: task, instruction: `do ${task}`, environment: 'env' },
    policy: { model },
    steps: [{ source: 'agent', text: `${task} by ${model}` }],
    extra: { verifier: { reward: 1, components: {} } },
  });
}

async function setup(items: number, overlap: number, mode: 'single' | 'pairwise' = 'single', requiredExpertise: string[] = []) {
  const project = await ensureProject({ slug: 'p', name: 'p' });
  const origin = { source: null, sourceWhere: null, importedById: null };
  const batch = [];
  for (let i = 0; i < items; i++)
    for (const model of mode === 'pairwise' ? ['m1', 'm2'] : ['m1'])
      batch.push(await toStorable(prepareTrajectory(trajectory(`task-${i}`, model)), origin));
  await storeTrajectoryBatch(project.id, batch);
  const campaign = await campaignOnRubric(project.id, likertRubric, { mode, overlap, requiredExpertise });
  return { project, campaign };
}

/** Reviewers without credentials (claiming needs none; sign-in is tested elsewhere). */
async function reviewers(n: number, expertise: string[] = []) {
  const rows = Array.from({ length: n }, () => ({
    id: randomUUID(),
    email: `${randomUUID()}@x.test`,
    name: 'R',
    role: 'reviewer' as const,
    expertise,
  }));
  await db().user.createMany({ data: rows });
  return rows.map(({ id, expertise: e }) => ({ id, expertise: e }));
}

describe('claiming review items', () => {
  beforeEach(resetDatabase);

  it('50 reviewers claiming at once: no item over k, nobody gets an item twice, every slot used', async () => {
    const { campaign } = await setup(10, 3);
    const people = await reviewers(50);
    const now = new Date();
    // each reviewer claims and submits until nothing is left, all concurrently
    const taken = await Promise.all(
      people.map(async (r) => {
        const mine: string[] = [];
        for (;;) {
          const claim = await claimNextItem(campaign.id, r, now);
          if (!claim) return mine;
          mine.push(claim.campaignItemId);
          await inSqlTransaction((run) => settleClaim(run, claim.assignmentId, r.id, 3, now));
        }
      }),
    );
    for (const mine of taken) expect(new Set(mine).size).toBe(mine.length);
    const items = await db().campaignItem.findMany({
      where: { campaignId: campaign.id },
      select: { reviewCount: true, activeCount: true },
    });
    expect(items.every((i) => i.reviewCount === 3 && i.activeCount === 3)).toBe(true);
    expect(taken.flat()).toHaveLength(30);
    const submitted = await db().assignment.count({ where: { status: 'submitted' } });
    expect(submitted).toBe(30);
  });

  it('resumes a live claim, expires abandoned ones back to the pool, and skips free the slot', async () => {
    const { campaign } = await setup(1, 1);
    const [a, b] = await reviewers(2);
    const t0 = new Date('2026-11-30T10:00:00Z');
    const first = await claimNextItem(campaign.id, a!, t0);
    expect(first).not.toBeNull();
    expect((await claimNextItem(campaign.id, a!, t0))?.resumed).toBe(true);
    expect(await claimNextItem(campaign.id, b!, t0)).toBeNull(); // k=1 taken
    const later = new Date(t0.getTime() + 31 * 60_000); // lease is 30 min
    const second = await claimNextItem(campaign.id, b!, later);
    expect(second?.campaignItemId).toBe(first!.campaignItemId);
    // a's late submit is refused: the only slot went to b
    await expect(inSqlTransaction((run) => settleClaim(run, first!.assignmentId, a!.id, 1, later))).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await skipAssignment(second!.assignmentId, b!.id, 'cannot judge this', later);
    const item = await db().campaignItem.findFirstOrThrow({ where: { campaignId: campaign.id }, select: { activeCount: true } });
    expect(item.activeCount).toBe(0);
    expect(await claimNextItem(campaign.id, b!, later)).toBeNull(); // never the same item twice
  });

  it('only reviewers with the required expertise get items', async () => {
    const { campaign } = await setup(2, 1, 'single', ['physics']);
    const [novice] = await reviewers(1);
    const [physicist] = await reviewers(1, ['physics']);
    await expect(claimNextItem(campaign.id, novice!, new Date())).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await claimNextItem(campaign.id, physicist!, new Date())).not.toBeNull();
  });

  it('pairwise campaigns pair trajectories of the same task from different policies', async () => {
    const { campaign } = await setup(3, 2, 'pairwise');
    expect(campaign.items).toBe(3);
    const items = await db().campaignItem.findMany({
      where: { campaignId: campaign.id },
      select: { trajectory: { select: { taskId: true, policyId: true } }, trajectoryB: { select: { taskId: true, policyId: true } } },
    });
    for (const i of items) {
      expect(i.trajectory.taskId).toBe(i.trajectoryB!.taskId);
      expect(i.trajectory.policyId).not.toBe(i.trajectoryB!.policyId);
    }
  });

  it('never answers "nothing left" while a free slot is only locked by a concurrent claim: it waits for that claim', async () => {
    const { campaign } = await setup(1, 2);
    const [a] = await reviewers(1);
    const item = await db().campaignItem.findFirstOrThrow({ where: { campaignId: campaign.id }, select: { id: true } });
    // another claim's transaction holds the one item's row (as a pick does until it commits), then lets go without taking it
    const holder = new pg.Client({ connectionString: env().DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM campaign_item WHERE id = $1 FOR NO KEY UPDATE', [item.id]);
      const claim = claimNextItem(campaign.id, a!, new Date());
      await new Promise((r) => setTimeout(r, 400)); // every skipping try has met the locked row by now
      await holder.query('COMMIT');
      // skipping tries alone answered null here: one slot of two free, and the reviewer told nothing is left
      expect(await claim).toMatchObject({ campaignItemId: item.id, resumed: false });
    } finally {
      await holder.end();
    }
  });

  it("a fresh campaign's claim walks the queue index in order, with the parameters' plan and the generic one", async () => {
    // Issue 17's profile: before the campaign's creation refreshed campaign_item's statistics, the
    // planner took a fresh table for a handful of rows and bitmap-scanned, anti-joined and sorted
    // every item of the campaign on each claim (55 ms a claim at 3,000 items, one reviewer, against 1.0 ms).
    const { campaign } = await setup(3000, 3);
    const reviewer = randomUUID();
    const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
    // over the simple protocol (PREPARE and EXPLAIN of a statement with $n placeholders), on a client of its own
    const client = new pg.Client({ connectionString: env().DATABASE_URL });
    await client.connect();
    const plans: string[] = [];
    try {
      const text = async (q: string) => (await client.query<{ 'QUERY PLAN': string }>(q)).rows.map((r) => r['QUERY PLAN']).join('\n');
      await client.query(`PREPARE claim_plan AS ${CLAIM_STATEMENT}`);
      const args = [campaign.id, reviewer, now, 3, randomUUID(), now, false, false].map((v) => `'${String(v)}'`).join(', ');
      plans.push(await text(`EXPLAIN EXECUTE claim_plan(${args})`));
      plans.push(await text(`EXPLAIN (GENERIC_PLAN) ${CLAIM_STATEMENT}`));
    } finally {
      await client.end();
    }
    for (const plan of plans) {
      expect(plan).toMatch(/Index Scan using "campaign_item_campaignId_selected_reviewCount_activeCount_q_idx" on campaign_item q/);
      // the head of the queue is read in the index's order, its first 16 rows, not all of them sorted
      expect(plan).not.toMatch(/Sort Key: q\."reviewCount"/);
    }
  });

  it("a submit's settle runs the rest of its transaction on generic plans, and only its transaction", async () => {
    const { campaign } = await setup(1, 1);
    const [a] = await reviewers(1);
    const now = new Date();
    const claim = await claimNextItem(campaign.id, a!, now);
    const inside = await inSqlTransaction(async (run) => {
      await settleClaim(run, claim!.assignmentId, a!.id, 1, now);
      return (await run<{ mode: string }>(`SELECT current_setting('plan_cache_mode') AS mode`, []))[0]!.mode;
    });
    expect(inside).toBe('force_generic_plan');
    // SET LOCAL: the pool's connections are back on the default after the commit
    const after = await Promise.all(
      Array.from({ length: 12 }, () => sql<{ mode: string }>(`SELECT current_setting('plan_cache_mode') AS mode`)),
    );
    expect(new Set(after.map((r) => r[0]!.mode))).toEqual(new Set(['auto']));
  });
});
