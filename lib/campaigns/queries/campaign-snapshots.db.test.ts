import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agreementDashboard } from '../../agreement/dashboard';
import { findDisagreements } from '../../agreement/disagreements';
import { questionRatings } from '../../agreement/question-ratings';
import { recordAdjudication } from '../../agreement/record-adjudication';
import { readCampaignSnapshot } from '../read-campaign-snapshot';
import { agreementPayload, refreshCampaignSnapshots, type AgreementSnapshotPayload } from '../refresh-campaign-snapshots';
import { agreementVariant, disagreementsVariant, PLAN_VARIANT } from '../snapshot-variant';
import { sweepCampaignSnapshots } from '../sweep-campaign-snapshots';
import { env } from '../../env';
import { buildTrajectory } from '../../formats/build-trajectory';
import { prepareTrajectory } from '../../ingest/prepare-trajectory';
import { installQueue, stopQueueClient } from '../../queue/boss';
import { jobContracts } from '../../queue/job-list';
import { planCampaignReview } from '../plan-campaign-review';
import { submitReview } from '../../review/submit-review';
import { loadAgreementData } from '../../agreement/queries/agreement-data';
import { db } from '../../db/client';
import { claimNextItem } from '../../review/claim-next-item';
import { skipAssignment } from '../../review/skip-assignment';
import { ensureProject } from '../../trajectories/queries/projects';
import { resetDatabase } from '../../db/test/reset';
import { storeTrajectory } from '../../ingest/store-trajectory';
import { getCampaignDetail } from './campaign-detail';
import { createCampaign } from '../create-campaign';
import { disagreementPage, findSnapshot, labelClock } from './campaign-snapshots';
import { saveRubricVersion } from '../save-rubric-version';
import { insightRefreshRunning } from '../../insight/queries/insight-refresh';

const rubric = {
  title: 'r',
  questions: [
    { id: 'criteria', type: 'criteria', prompt: 'Criteria' },
    { id: 'quality', type: 'likert', prompt: 'Quality', points: 5 },
    { id: 'flags', type: 'multi', prompt: 'Flags', options: [{ value: 'hack', label: 'Hack' }] },
  ],
};
const watched = { ranges: [[0, 100]] as [number, number][], speeds: [1], seeks: 0 };

async function seed(trajectories = 6, overlap = 3) {
  const project = await ensureProject({ slug: 'p', name: 'P' });
  const ids: string[] = [];
  for (let i = 0; i < trajectories; i++) {
    const t = buildTrajectory({
      format: 'openai',
      task: {
        name: `t${i}`,
        instruction: 'fix',
        acceptanceCriteria: [{ key: 'tests', text: 'Tests pass', origin: 'task', verdict: null }],
        environment: 'e',
      },
      policy: { model: `m${i % 2}` },
      steps: [{ source: 'agent', text: `run ${i}` }],
      extra: { verifier: { reward: i % 2, components: {} } },
    });
    ids.push((await storeTrajectory(project.id, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null })).id);
  }
  await db().judgeScore.create({ data: { trajectoryId: ids[0]!, judge: 'gpt', score: 0.8 } });
  const version = await saveRubricVersion(project.id, 'r', rubric, null);
  const campaign = await createCampaign(
    project.id,
    { name: 'c', mode: 'single', rubricVersionId: version.versionId, overlap, gold: [{ trajectoryId: ids[1]!, answers: { quality: 1 } }] },
    null,
  );
  const reviewers: { id: string; expertise: string[] }[] = [];
  for (const name of ['Ann', 'Ben', 'Cat', 'Dan']) {
    const id = randomUUID();
    await db().user.create({ data: { id, email: `${id}@x.test`, name, role: 'reviewer' } });
    reviewers.push({ id, expertise: [] });
  }
  const lead = randomUUID();
  await db().user.create({ data: { id: lead, email: `${lead}@x.test`, name: 'Lead', role: 'lead' } });
  return { project, campaign, reviewers, ids, lead };
}

const answersOf = (who: number, item: string) => ({
  criteria: { tests: (who + item.charCodeAt(item.length - 1)) % 3 === 0 ? 'fail' : 'pass' },
  quality: 1 + ((who * 2 + item.charCodeAt(item.length - 2)) % 5),
  flags: who === 2 ? ['hack'] : [],
});

async function claimAndSubmit(campaignId: string, who: number, reviewer: { id: string; expertise: string[] }, at = new Date()) {
  const claim = await claimNextItem(campaignId, reviewer, at);
  if (!claim) return null;
  await submitReview(
    reviewer.id,
    {
      assignmentId: claim.assignmentId,
      idempotencyKey: randomUUID(),
      answers: answersOf(who, claim.campaignItemId),
      coverage: watched,
      durationSec: 60,
    },
    100,
    at,
  );
  return claim;
}

/** The per-reviewer counts the slow way: every assignment of the campaign, aggregated (the query the page ran before). */
async function slowReviewerCounts(campaignId: string, now: Date) {
  const rows = await db().$queryRaw<
    { reviewerId: string; claimed: bigint; submitted: bigint; skipped: bigint; expired: bigint; lastActivity: Date | null }[]
  >`
    SELECT a."reviewerId",
           count(*) FILTER (WHERE a.status = 'claimed' AND a."leaseExpiresAt" > ${now}) AS claimed,
           count(*) FILTER (WHERE a.status = 'submitted') AS submitted,
           count(*) FILTER (WHERE a.status = 'skipped') AS skipped,
           count(*) FILTER (WHERE a.status = 'expired' OR (a.status = 'claimed' AND a."leaseExpiresAt" <= ${now})) AS expired,
           max(GREATEST(a."claimedAt", CASE WHEN a.status IN ('submitted', 'skipped') THEN a."finishedAt" END)) AS "lastActivity"
    FROM assignment a JOIN campaign_item ci ON ci.id = a."campaignItemId"
    WHERE ci."campaignId" = ${campaignId}
    GROUP BY a."reviewerId" ORDER BY a."reviewerId"`;
  return rows.map((r) => ({
    reviewerId: r.reviewerId,
    claimed: Number(r.claimed),
    submitted: Number(r.submitted),
    skipped: Number(r.skipped),
    expired: Number(r.expired),
    lastActivity: r.lastActivity?.toISOString() ?? null,
  }));
}

async function fastReviewerCounts(campaignId: string, now: Date) {
  const detail = (await getCampaignDetail(campaignId, now))!;
  return detail.reviewers
    .map((r) => ({
      reviewerId: r.reviewerId,
      claimed: r.claimed,
      submitted: r.submitted,
      skipped: r.skipped,
      expired: r.expired,
      lastActivity: r.lastActivity,
    }))
    .sort((a, b) => (a.reviewerId < b.reviewerId ? -1 : 1));
}

/** Label rows (every revision) per reviewer of the campaign, the slow way. */
async function slowLabelRows(campaignId: string): Promise<number> {
  const [row] = await db().$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM review r JOIN campaign_item ci ON ci.id = r."campaignItemId" WHERE ci."campaignId" = ${campaignId}`;
  return Number(row!.n);
}

describe('campaign_reviewer_stat (the campaign page reviewer table)', () => {
  beforeEach(resetDatabase);

  it('equals the aggregate over every assignment through claims, submits, revisions, skips, lapsed and expired leases, late submits and deletions', async () => {
    const { campaign, reviewers, ids } = await seed();
    const [ann, ben, cat, dan] = reviewers as [(typeof reviewers)[0], (typeof reviewers)[0], (typeof reviewers)[0], (typeof reviewers)[0]];
    const hourAgo = new Date(Date.now() - 3600_000);
    // Ann reviews two items; Ben one, then revises it; Cat skips one; Dan claims an hour ago (a lease of 30 min: lapsed now)
    await claimAndSubmit(campaign.id, 0, ann);
    await claimAndSubmit(campaign.id, 0, ann);
    const benClaim = (await claimAndSubmit(campaign.id, 1, ben))!;
    await submitReview(
      ben.id,
      { assignmentId: benClaim.assignmentId, idempotencyKey: randomUUID(), answers: answersOf(3, 'zz'), coverage: watched, durationSec: 9 },
      100,
      new Date(),
    );
    const catClaim = (await claimNextItem(campaign.id, cat, new Date()))!;
    await skipAssignment(catClaim.assignmentId, cat.id, 'not my field', new Date());
    await claimNextItem(campaign.id, cat, new Date()); // a live claim
    const danClaim = (await claimNextItem(campaign.id, dan, hourAgo))!;
    let now = new Date();
    expect(await fastReviewerCounts(campaign.id, now)).toEqual(await slowReviewerCounts(campaign.id, now));
    expect((await fastReviewerCounts(campaign.id, now)).find((r) => r.reviewerId === dan.id)).toMatchObject({ claimed: 0, expired: 1 });

    // Ann's next claim expires Dan's lapsed lease (status expired); then Dan submits it late (the slot is still free)
    await claimAndSubmit(campaign.id, 0, ann);
    expect(await db().assignment.findUniqueOrThrow({ where: { id: danClaim.assignmentId }, select: { status: true } })).toEqual({
      status: 'expired',
    });
    now = new Date();
    expect(await fastReviewerCounts(campaign.id, now)).toEqual(await slowReviewerCounts(campaign.id, now));
    await submitReview(
      dan.id,
      {
        assignmentId: danClaim.assignmentId,
        idempotencyKey: randomUUID(),
        answers: answersOf(4, 'zy'),
        coverage: watched,
        durationSec: 30,
      },
      100,
      new Date(),
    );
    now = new Date();
    const counts = await fastReviewerCounts(campaign.id, now);
    expect(counts).toEqual(await slowReviewerCounts(campaign.id, now));
    expect(counts.find((r) => r.reviewerId === dan.id)).toMatchObject({ submitted: 1, expired: 0 });
    expect(counts.find((r) => r.reviewerId === cat.id)).toMatchObject({ claimed: 1, skipped: 1 });
    // the label clock counts every review row (revisions too)
    expect((await labelClock(campaign.id)).labelChanges).toBe(await slowLabelRows(campaign.id));

    // a trajectory deleted (its item, assignments and reviews cascade) and a reviewer deleted
    const clock = await labelClock(campaign.id);
    // two items that have assignments (one with a review revised, if Ben's) and one that has none
    const touched = await db().$queryRaw<{ trajectoryId: string; n: bigint }[]>`
      SELECT ci."trajectoryId", count(a.id) AS n FROM campaign_item ci LEFT JOIN assignment a ON a."campaignItemId" = ci.id
      WHERE ci."campaignId" = ${campaign.id} GROUP BY 1 ORDER BY count(a.id) DESC, 1`;
    const doomed = [touched[0]!, touched[1]!, touched.find((t) => Number(t.n) === 0)].filter((t) => t !== undefined);
    expect(doomed.filter((t) => Number(t.n) > 0)).toHaveLength(2);
    await insightRefreshRunning(); // this process's background summary refresh done before deleting behind its back
    for (const t of doomed) await db().trajectory.delete({ where: { id: t.trajectoryId } });
    expect(ids).toContain(doomed[0]!.trajectoryId);
    await db().user.delete({ where: { id: ben.id } });
    now = new Date();
    expect(await fastReviewerCounts(campaign.id, now)).toEqual(
      (await slowReviewerCounts(campaign.id, now)).map((r) => ({
        ...r,
        // last activity keeps what a reviewer did on items since deleted (the slow way forgets it)
        lastActivity: counts.find((c) => c.reviewerId === r.reviewerId)!.lastActivity,
      })),
    );
    expect((await labelClock(campaign.id)).labelChanges).not.toBe(clock.labelChanges);
  });

  it('stays exact under concurrent claims and submits of many reviewers', async () => {
    const { campaign, reviewers } = await seed(12, 4);
    const errors: unknown[] = [];
    await Promise.all(
      reviewers.map(async (r, who) => {
        for (let i = 0; i < 12; i++) {
          const done = await claimAndSubmit(campaign.id, who, r).catch((e: unknown) => (errors.push(e), null));
          if (!done) break;
        }
      }),
    );
    expect(errors).toEqual([]);
    const now = new Date();
    const fast = await fastReviewerCounts(campaign.id, now);
    expect(fast.reduce((s, r) => s + r.submitted, 0)).toBe(48);
    expect(fast).toEqual(await slowReviewerCounts(campaign.id, now));
  });
});

describe('campaign snapshots (agreement, disagreements, plan)', () => {
  beforeAll(async () => installQueue(env().DATABASE_URL!, jobContracts));
  beforeEach(resetDatabase);
  afterAll(stopQueueClient);

  /** as for a campaign too large to build in the page: the job builds it */
  const jobOnly = { buildInPageMaxLabels: -1 };
  const queued = async () =>
    db().$queryRaw<{ data: { campaignId?: string } }[]>`SELECT data FROM pgboss.job WHERE name = 'campaign.snapshot' AND state = 'created'`;

  /** What the pages would compute live from the same data, as stored JSON holds it. */
  async function live(campaignId: string) {
    const data = (await loadAgreementData(campaignId))!;
    const agreement = agreementPayload(agreementDashboard(data, { threshold: 0.5, replicates: 1000 }));
    const queue = findDisagreements(questionRatings(data), {});
    const plan = await planCampaignReview(campaignId);
    return JSON.parse(JSON.stringify({ agreement, queue, plan, reviews: data.reviews.length }));
  }

  async function stored(campaignId: string) {
    const agreement = (await findSnapshot<AgreementSnapshotPayload>(campaignId, 'agreement', ''))!;
    const disagreements = (await findSnapshot<{ count: number }>(campaignId, 'disagreements', ''))!;
    const plan = (await findSnapshot<{ plan: unknown }>(campaignId, 'plan', ''))!;
    const rows = await disagreementPage(disagreements.id, 0, 10_000);
    return {
      agreement: agreement.payload,
      queue: rows.map((r) => ({ itemId: r.itemId, reviews: r.reviews, splits: r.splits })),
      plan: plan.payload.plan,
      reviews: agreement.reviews,
      count: disagreements.payload.count,
    };
  }

  it('computing, then equal to the live computation; a new review or adjudication marks it stale and the job refreshes it', async () => {
    const { campaign, reviewers, lead } = await seed(6, 4);
    for (const [who, r] of reviewers.slice(0, 3).entries()) for (let i = 0; i < 6; i++) await claimAndSubmit(campaign.id, who, r);

    // none yet: the page says computing and queues the job
    const first = await readCampaignSnapshot(campaign.id, agreementVariant({}), new Date(), jobOnly);
    expect(first).toMatchObject({ state: 'computing', snapshot: null });
    expect((await queued()).map((j) => j.data)).toEqual([{ campaignId: campaign.id }]);

    // the job's use-case builds every default snapshot (workers/jobs/campaign-snapshot/handler.db.test.ts runs it as a job); each equals the live computation on the same data
    expect(await refreshCampaignSnapshots(campaign.id)).toMatchObject({ written: ['agreement', 'disagreements', 'plan'] });
    const want = await live(campaign.id);
    const got = await stored(campaign.id);
    expect(got.queue.length).toBeGreaterThan(0);
    expect(got.count).toBe(want.queue.length);
    expect({ agreement: got.agreement, queue: got.queue, plan: got.plan, reviews: got.reviews }).toEqual(want);
    expect(got.agreement.questions.length).toBeGreaterThan(0);
    expect(got.agreement.matrix.matrix.cells.length).toBeGreaterThan(0);
    expect(await readCampaignSnapshot(campaign.id, agreementVariant({}), new Date(), jobOnly)).toMatchObject({
      state: 'current',
      newer: 0,
    });
    // again: nothing to do (idempotent)
    expect(await refreshCampaignSnapshots(campaign.id)).toEqual({ written: [], skipped: ['agreement', 'disagreements', 'plan'] });

    // a new review: stale (with how many changes), the sweep and the page queue a refresh, the refresh brings it level with live
    await db().$executeRaw`DELETE FROM pgboss.job WHERE name = 'campaign.snapshot'`;
    expect(await claimAndSubmit(campaign.id, 3, reviewers[3]!)).not.toBeNull();
    const stale = await readCampaignSnapshot(campaign.id, disagreementsVariant({}), new Date(), jobOnly);
    expect(stale).toMatchObject({ state: 'stale', newer: 1 });
    expect(stale.snapshot).not.toBeNull();
    expect(await sweepCampaignSnapshots(new Date())).toEqual([campaign.id]);
    expect((await queued()).map((j) => j.data)).toEqual([{ campaignId: campaign.id }]);
    await refreshCampaignSnapshots(campaign.id);
    expect(await sweepCampaignSnapshots(new Date())).toEqual([]);
    const after = await stored(campaign.id);
    const wantAfter = await live(campaign.id);
    expect({ agreement: after.agreement, queue: after.queue, plan: after.plan, reviews: after.reviews }).toEqual(wantAfter);
    expect(after.reviews).toBe(got.reviews + 1);

    // an adjudication moves the clock too (the dashboard counts adjudicated items)
    const item = got.queue[0]!.itemId;
    await recordAdjudication(lead, {
      campaignId: campaign.id,
      itemId: item,
      answers: { criteria: { tests: 'pass' }, quality: 3, flags: [] },
      rationale: 'the tests pass on a clean checkout',
    });
    expect(await readCampaignSnapshot(campaign.id, agreementVariant({}), new Date(), jobOnly)).toMatchObject({ state: 'stale' });
    await refreshCampaignSnapshots(campaign.id);
    const adjudicated = (await findSnapshot<AgreementSnapshotPayload>(campaign.id, 'agreement', ''))!;
    expect(adjudicated.payload.campaign.adjudicated).toBe(1);
  });

  it('a variant (other thresholds) is built on request and equals the live queue with those thresholds', async () => {
    const { campaign, reviewers } = await seed();
    for (const [who, r] of reviewers.slice(0, 3).entries()) for (let i = 0; i < 6; i++) await claimAndSubmit(campaign.id, who, r);
    const variant = disagreementsVariant({ majorityCut: 0.5, ordinalRange: 4 });
    expect(await readCampaignSnapshot(campaign.id, variant, new Date(), jobOnly)).toMatchObject({ state: 'computing' });
    expect((await queued()).map((j) => j.data)).toEqual([{ campaignId: campaign.id, variant }]);
    expect(await refreshCampaignSnapshots(campaign.id, variant)).toMatchObject({ written: ['disagreements?cut=0.5&range=4'] });
    const snap = (await findSnapshot<{ count: number }>(campaign.id, 'disagreements', 'cut=0.5&range=4'))!;
    const rows = await disagreementPage(snap.id, 0, 10_000);
    const want = findDisagreements(questionRatings((await loadAgreementData(campaign.id))!), { majorityCut: 0.5, ordinalRange: 4 });
    expect(rows.map((r) => ({ itemId: r.itemId, reviews: r.reviews, splits: r.splits }))).toEqual(JSON.parse(JSON.stringify(want)));
    expect(snap.payload.count).toBe(want.length);
    // a second page of a queue reads from its offset
    expect((await disagreementPage(snap.id, 1, 10_000)).map((r) => r.itemId)).toEqual(want.slice(1).map((d) => d.itemId));
    expect(PLAN_VARIANT.kind).toBe('plan');

    // another question's reviewer matrix (?q=) is an agreement variant, built on request
    const q = agreementVariant({ matrixQuestion: 'quality' });
    expect(q).toEqual({ kind: 'agreement', threshold: 0.5, q: 'quality' });
    expect(await refreshCampaignSnapshots(campaign.id, q)).toMatchObject({ written: ['agreement?q=quality'] });
    const matrix = (await findSnapshot<AgreementSnapshotPayload>(campaign.id, 'agreement', 'q=quality'))!;
    const wantMatrix = agreementPayload(agreementDashboard((await loadAgreementData(campaign.id))!, { matrixQuestion: 'quality' }));
    expect(matrix.payload.matrix.questionKey).toBe('quality');
    expect(matrix.payload).toEqual(JSON.parse(JSON.stringify(wantMatrix)));
  });

  it('a small campaign: the page builds its snapshots itself (never "computing"), equal to the live computation', async () => {
    const { campaign, reviewers } = await seed(6, 4);
    for (const [who, r] of reviewers.slice(0, 3).entries()) for (let i = 0; i < 6; i++) await claimAndSubmit(campaign.id, who, r);
    const view = await readCampaignSnapshot<AgreementSnapshotPayload>(campaign.id, agreementVariant({}), new Date());
    expect(view.state).toBe('current');
    const want = await live(campaign.id);
    expect(view.snapshot!.payload).toEqual(want.agreement);
    expect((await stored(campaign.id)).queue).toEqual(want.queue);
    expect(await queued()).toEqual([]);
    // a review later: the next view brings it level again
    expect(await claimAndSubmit(campaign.id, 3, reviewers[3]!)).not.toBeNull();
    const again = await readCampaignSnapshot<AgreementSnapshotPayload>(campaign.id, agreementVariant({}), new Date());
    expect(again).toMatchObject({ state: 'current' });
    expect(again.snapshot!.reviews).toBe(view.snapshot!.reviews + 1);
  });
});

describe('deleting what the stored counts hang on', () => {
  beforeEach(resetDatabase);

  it('a campaign with reviews, skips and live claims deletes whole (its stat rows go with it), and so does its project', async () => {
    const { project, campaign, reviewers } = await seed(6, 2);
    for (const [who, r] of reviewers.slice(0, 2).entries()) for (let i = 0; i < 3; i++) await claimAndSubmit(campaign.id, who, r);
    const skipped = (await claimNextItem(campaign.id, reviewers[2]!, new Date()))!;
    await skipAssignment(skipped.assignmentId, reviewers[2]!.id, 'not my field', new Date());
    await claimNextItem(campaign.id, reviewers[3]!, new Date()); // a live claim
    expect(await db().campaignReviewerStat.count({ where: { campaignId: campaign.id } })).toBeGreaterThan(0);
    await insightRefreshRunning(); // this process's background summary refresh done before deleting behind its back
    await db().campaign.delete({ where: { id: campaign.id } });
    expect(await db().campaignReviewerStat.count({ where: { campaignId: campaign.id } })).toBe(0);
    expect(await db().review.count()).toBe(0);

    // a second campaign in the same project, reviewed, then the whole project deleted
    const version = await db().rubricVersion.findFirstOrThrow({ select: { id: true } });
    const second = await createCampaign(project.id, { name: 'c2', mode: 'single', rubricVersionId: version.id, overlap: 1 }, null);
    expect(await claimAndSubmit(second.id, 0, reviewers[0]!)).not.toBeNull();
    await insightRefreshRunning(); // this process's background summary refresh done before deleting behind its back
    await db().project.delete({ where: { id: project.id } });
    expect(await db().campaignReviewerStat.count()).toBe(0);
    expect(await db().trajectory.count()).toBe(0);
  });
});
