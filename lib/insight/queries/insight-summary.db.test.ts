import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { claimNextItem } from '../../review/claim-next-item';
import { createCampaign } from '../../campaigns/create-campaign';
import { db } from '../../db/client';
import { INSIGHT_RULES_VERSION } from '../trajectory-summary';
import { migrateDatabase } from '../../migrate-database';
import { submitReview } from '../../review/submit-review';
import { resetDatabase } from '../../db/test/reset';
import { crowdReviews, seedInsightScenario } from '../../db/test/insight-scenario';
import pg from 'pg';
import { insightDrift, refreshTrajectoryInsight } from './insight-summary';
import { trajectoryEstimateRows } from './insight-estimate-rows';
import { pgRun, sql } from '../../db/sql';
import { insightRefreshRunning, refreshQueuedInsight } from './insight-refresh';

/**
 * The trajectory summaries the insight pages read (lib/insight/queries/insight-summary.ts): written by the real
 * submits, moved by revisions, right under concurrent submits, rebuilt by the migrate backfill.
 */
let projectId = '';
const reviewers: [string, string] = [randomUUID(), randomUUID()];
const coverage = { ranges: [[0, 100]] as [number, number][], speeds: [1], seeks: 0 };

/** the stored summaries, once what the submits queued is refreshed (lib/insight/queries/insight-refresh.ts) */
const summaries = async () => {
  await refreshQueuedInsight();
  return (await db().trajectoryInsight.findMany({ where: { projectId }, orderBy: { trajectoryId: 'asc' } })).map(
    ({ updatedAt: _, ...row }) => row,
  );
};
const stored = async (trajectoryId: string) => {
  await refreshQueuedInsight();
  return db().trajectoryInsight.findUniqueOrThrow({ where: { trajectoryId } });
};

async function trajectoryOf(taskName: string, checkpoint: string, run: 'pass' | 'fail') {
  return db().trajectory.findFirstOrThrow({
    where: { projectId, task: { name: taskName }, policy: { checkpoint }, verifierReward: run === 'pass' ? 1 : 0 },
    select: { id: true },
  });
}

describe('trajectory insight summaries', () => {
  beforeAll(async () => {
    await resetDatabase();
    for (const id of reviewers) await db().user.create({ data: { id, email: `${id}@x.test`, name: 'R', role: 'reviewer' } });
    ({ projectId } = await seedInsightScenario('summ', reviewers));
  }, 120_000);

  it('each submit leaves a summary of its trajectory that fits the labels it was given', async () => {
    const rows = await summaries();
    expect(rows).toHaveLength(20);
    // hacky-env, ckpt-2000: both reviewers fail it and flag reward hacking (Likert 2 -> 0.25); its two comparisons' sides fail works and no_test_edits
    const hacked = await db().trajectory.findFirstOrThrow({
      where: { projectId, task: { name: 'summ-hacky-1' }, policy: { checkpoint: 'ckpt-2000' } },
      select: { id: true },
    });
    const row = rows.find((r) => r.trajectoryId === hacked.id)!;
    expect(row).toMatchObject({
      reviews: 2,
      passVotes: 0,
      failVotes: 2,
      rewardHacking: true,
      answerLeakage: false,
      likertN: 2,
      itemVotes: [[0, 2, 1]],
      rulesVersion: 1,
    });
    expect(row.likertSum).toBeCloseTo(0.5, 12);
    expect(row.criteria).toEqual({ works: [0, 4], no_test_edits: [0, 4] });
    const newest = await db().review.findFirstOrThrow({
      where: { item: { trajectoryId: hacked.id }, isCurrent: true },
      orderBy: [{ submittedAt: 'desc' }, { id: 'desc' }],
      select: { id: true, submittedAt: true },
    });
    expect(row.flaggedReviewId).toBe(newest.id);
    expect(row.flaggedAt?.getTime()).toBe(newest.submittedAt.getTime());
    // nothing flagged on clean-env
    expect(rows.filter((r) => r.flaggedReviewId !== null)).toHaveLength(4);
  });

  it('a revision moves its vote: the summary is recomputed from the current reviews, not incremented', async () => {
    const t = await trajectoryOf('summ-clean-1', 'ckpt-1000', 'pass');
    const before = await stored(t.id);
    expect(before).toMatchObject({ reviews: 2, passVotes: 2, failVotes: 0 });
    const assignment = await db().assignment.findFirstOrThrow({
      // its single-mode review (the trajectory is in a pairwise campaign too; rows have no order of their own)
      where: { reviewerId: reviewers[0], item: { trajectoryId: t.id, campaign: { mode: 'single' } } },
      select: { id: true },
    });
    const revise = (key: string) =>
      submitReview(
        reviewers[0],
        {
          assignmentId: assignment.id,
          idempotencyKey: key,
          answers: { criteria: { works: 'fail', no_test_edits: 'pass' }, overall: 1, flags: ['answer_leakage'] },
          coverage,
        },
        100,
        new Date(),
      );
    const key = randomUUID();
    await revise(key);
    await revise(key); // the same submit again changes nothing
    const after = await stored(t.id);
    expect(after).toMatchObject({ reviews: 2, passVotes: 1, failVotes: 1, answerLeakage: true, itemVotes: [[1, 1, 1]], likertN: 2 });
    expect(after.likertSum).toBeCloseTo(0.75, 12);
  });

  it('two reviewers submitting on one trajectory at once, in two campaigns, are both counted', async () => {
    const t = await trajectoryOf('summ-clean-3', 'ckpt-2000', 'pass');
    const before = await stored(t.id);
    const rubricVersionId = (
      await db().campaign.findFirstOrThrow({ where: { projectId, mode: 'single' }, select: { rubricVersionId: true } })
    ).rubricVersionId;
    const filter = { taskNames: ['summ-clean-3'], policy: 'acme-coder-7b@ckpt-2000', minReward: 1 };
    // two campaigns: the submits lock different items, so only the summary's own lock orders them
    const campaigns = await Promise.all(
      ['again 1', 'again 2'].map((name) => createCampaign(projectId, { name, mode: 'single', rubricVersionId, overlap: 1, filter }, null)),
    );
    const claims = await Promise.all(reviewers.map((id, i) => claimNextItem(campaigns[i]!.id, { id, expertise: [] }, new Date())));
    for (const claim of claims)
      expect((await db().campaignItem.findUniqueOrThrow({ where: { id: claim!.campaignItemId } })).trajectoryId).toBe(t.id);
    await Promise.all(
      reviewers.map((id, i) =>
        submitReview(
          id,
          {
            assignmentId: claims[i]!.assignmentId,
            idempotencyKey: randomUUID(),
            answers: { criteria: { works: 'pass', no_test_edits: 'pass' }, overall: 5, flags: [] },
            coverage,
          },
          100,
          new Date(),
        ),
      ),
    );
    const after = await stored(t.id);
    expect(after.reviews).toBe(before.reviews + 2);
    expect(after.passVotes).toBe(before.passVotes + 2);
  });

  it('under many concurrent submits and revisions on shared trajectories, every stored summary equals a recount of its labels', async () => {
    const rubricVersionId = (
      await db().campaign.findFirstOrThrow({ where: { projectId, mode: 'single' }, select: { rubricVersionId: true } })
    ).rubricVersionId;
    const filter = { taskNames: ['summ-hacky-1', 'summ-hacky-2'], policy: 'acme-coder-7b@ckpt-1000' };
    const campaign = await createCampaign(projectId, { name: 'crowd', mode: 'single', rubricVersionId, overlap: 8, filter }, null);
    const crowd = Array.from({ length: 8 }, () => randomUUID());
    for (const id of crowd) await db().user.create({ data: { id, email: `${id}@x.test`, name: 'C', role: 'reviewer' } });
    const answers = (i: number, round: number) => ({
      criteria: { works: (i + round) % 2 ? 'pass' : 'fail', no_test_edits: i % 3 ? 'pass' : 'fail' },
      overall: 1 + ((i + round) % 5),
      flags: (i + round) % 4 === 0 ? ['reward_hacking'] : [],
    });
    // each: a submit, then two revisions of it racing each other with new keys
    await crowdReviews(campaign.id, crowd, answers);
    const all = (await summaries()).map((r) => r.trajectoryId);
    const crowded = (await db().campaignItem.findMany({ where: { campaignId: campaign.id }, select: { trajectoryId: true } })).map(
      (i) => i.trajectoryId,
    );
    for (const t of crowded) expect((await stored(t)).reviews).toBeGreaterThan(8);
    expect(await insightDrift(all)).toBe(0);
    // and the check sees a summary that is off by one vote, or in one criterion only
    const [first] = crowded;
    const row = await stored(first!);
    await db().trajectoryInsight.update({ where: { trajectoryId: first! }, data: { passVotes: row.passVotes + 1 } });
    expect(await insightDrift(all)).toBe(1);
    await db().trajectoryInsight.update({
      where: { trajectoryId: first! },
      data: { passVotes: row.passVotes, criteria: { ...(row.criteria as object), works: [0, 0] } },
    });
    expect(await insightDrift(all)).toBe(1);
    await db().trajectoryInsight.update({ where: { trajectoryId: first! }, data: { criteria: row.criteria as object } });
    expect(await insightDrift(all)).toBe(0);
  }, 120_000);

  it('a submit queues its trajectory with its label, and the process that took it refreshes the summary after the commit, with no read', async () => {
    const t = await trajectoryOf('summ-clean-2', 'ckpt-1000', 'pass');
    const before = await stored(t.id);
    const assignment = await db().assignment.findFirstOrThrow({
      where: { reviewerId: reviewers[1], status: 'submitted', item: { trajectoryId: t.id, campaign: { mode: 'single' } } },
      select: { id: true },
    });
    await submitReview(
      reviewers[1],
      {
        assignmentId: assignment.id,
        idempotencyKey: randomUUID(),
        answers: { criteria: { works: 'fail', no_test_edits: 'fail' }, overall: 1, flags: ['reward_hacking'] },
        coverage,
      },
      100,
      new Date(),
    );
    // no reader drains here: the background drain the submit started does it
    await insightRefreshRunning();
    expect(await sql<{ n: number }>('SELECT count(*)::int AS n FROM insight_refresh')).toEqual([{ n: 0 }]);
    const after = await db().trajectoryInsight.findUniqueOrThrow({ where: { trajectoryId: t.id } });
    expect(after).toMatchObject({ reviews: before.reviews, failVotes: before.failVotes + 1, rewardHacking: true });
    expect(await insightDrift([t.id])).toBe(0);
  });

  it('a refresh queued and never done (the process stopped after the commit) is done by the next reader, which reads the recount', async () => {
    const t = await trajectoryOf('summ-clean-1', 'ckpt-2000', 'pass');
    const exact = await stored(t.id);
    // as a crash would leave it: the label committed with its queue row, the summary not refreshed yet
    await sql(`UPDATE trajectory_insight SET "passVotes" = "passVotes" + 5 WHERE "trajectoryId" = $1`, [t.id]);
    await sql(`INSERT INTO insight_refresh ("trajectoryId") VALUES ($1)`, [t.id]);
    expect(await insightDrift([t.id])).toBe(1);
    const [row] = await trajectoryEstimateRows(projectId, [t.id]);
    expect(row).toMatchObject({ passVotes: exact.passVotes, failVotes: exact.failVotes });
    expect(await insightDrift([t.id])).toBe(0);
    expect(await sql<{ n: number }>('SELECT count(*)::int AS n FROM insight_refresh')).toEqual([{ n: 0 }]);
  });

  it('a reader waits for a refresh in flight on another connection instead of reading around it', async () => {
    const t = await trajectoryOf('summ-clean-2', 'ckpt-2000', 'pass');
    const exact = await stored(t.id);
    await sql(`UPDATE trajectory_insight SET "failVotes" = "failVotes" + 3 WHERE "trajectoryId" = $1`, [t.id]);
    await sql(`INSERT INTO insight_refresh ("trajectoryId") VALUES ($1)`, [t.id]);
    const other = new pg.Client({ connectionString: inject('databaseUrl') });
    await other.connect();
    try {
      // a drain on another connection has taken the row and not committed yet
      await other.query('BEGIN');
      const taken = await other.query<{ trajectoryId: string }>(
        `DELETE FROM insight_refresh q WHERE q.id IN (SELECT id FROM insight_refresh ORDER BY id FOR UPDATE) RETURNING q."trajectoryId"`,
      );
      expect(taken.rows.map((r) => r.trajectoryId)).toEqual([t.id]);
      let settled = false;
      const reading = refreshQueuedInsight().then((n) => ((settled = true), n));
      await new Promise((r) => setTimeout(r, 500));
      expect(settled).toBe(false);
      await refreshTrajectoryInsight(pgRun(other), [t.id]);
      await other.query('COMMIT');
      expect(await reading).toBe(0);
    } finally {
      await other.end();
    }
    expect(await db().trajectoryInsight.findUniqueOrThrow({ where: { trajectoryId: t.id } })).toMatchObject({
      passVotes: exact.passVotes,
      failVotes: exact.failVotes,
    });
  });

  it('migrate backfills missing and outdated summaries once per rules version, to what the submits wrote', async () => {
    const url = inject('databaseUrl');
    const expected = await summaries();
    const ids = expected.map((r) => r.trajectoryId);
    // as after an upgrade whose rules changed: no backfill recorded for this version, rows missing or older
    await db().insightBackfill.deleteMany({});
    await db().trajectoryInsight.deleteMany({ where: { trajectoryId: { in: ids.slice(0, 7) } } });
    await db().trajectoryInsight.update({ where: { trajectoryId: ids[10]! }, data: { rulesVersion: 0, passVotes: 99 } });
    expect((await migrateDatabase(url)).insightRefreshed).toBe(8);
    expect(await summaries()).toEqual(expected);
    expect(await db().insightBackfill.findMany({ select: { rulesVersion: true, refreshed: true } })).toEqual([
      { rulesVersion: INSIGHT_RULES_VERSION, refreshed: 8 },
    ]);
    // recorded: the next start does not scan the labels again, even if a row went missing behind its back
    await db().trajectoryInsight.deleteMany({ where: { trajectoryId: ids[0]! } });
    expect((await migrateDatabase(url)).insightRefreshed).toBe(0);
    expect(await db().trajectoryInsight.count({ where: { projectId } })).toBe(expected.length - 1);
  });
});
