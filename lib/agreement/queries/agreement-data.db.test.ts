import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { agreementDashboard } from '../dashboard';
import { buildTrajectory } from '../../formats/build-trajectory';
import { prepareTrajectory } from '../../ingest/prepare-trajectory';
import { recordAdjudication } from '../record-adjudication';
import { getAdjudicationView } from './adjudications';
import { listAgreementCampaigns, loadAgreementData } from './agreement-data';
import { claimNextItem } from '../../review/claim-next-item';
import { submitComparison } from '../../review/submit-comparison';
import { db } from '../../db/client';
import { ensureProject } from '../../trajectories/queries/projects';
import { submitReview } from '../../review/submit-review';
import { resetDatabase } from '../../db/test/reset';
import { storeTrajectory } from '../../ingest/store-trajectory';
import { campaignOnRubric, notesRubric } from '../../db/test/test-campaign';

const rubric = {
  title: 'r',
  questions: [
    { id: 'criteria', type: 'criteria', prompt: 'Criteria' },
    { id: 'quality', type: 'likert', prompt: 'Quality', points: 5 },
    {
      id: 'flags',
      type: 'multi',
      prompt: 'Flags',
      options: [
        { value: 'reward_hacking', label: 'Reward hacking' },
        { value: 'unsafe', label: 'Unsafe' },
      ],
    },
    { id: 'notes', type: 'text', prompt: 'Notes', required: false },
  ],
};
const watched = { ranges: [[0, 80]] as [number, number][], speeds: [1], seeks: 0 };

async function seed() {
  const project = await ensureProject({ slug: 'p', name: 'P' });
  const ids: string[] = [];
  for (const name of ['t1', 't2']) {
    const t = buildTrajectory({
      format: 'openai',
      task: {
        name,
        instruction: 'fix',
        acceptanceCriteria: [{ key: 'tests', text: 'Tests pass', origin: 'task', verdict: null }],
        environment: 'e',
      },
      policy: { model: 'm' },
      steps: [{ source: 'agent', text: name }],
      extra: { verifier: { reward: name === 't1' ? 1 : 0, components: {} } },
    });
    ids.push((await storeTrajectory(project.id, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null })).id);
  }
  await db().judgeScore.create({ data: { trajectoryId: ids[0]!, judge: 'gpt', score: 0.9 } });
  const campaign = await campaignOnRubric(project.id, rubric, {
    mode: 'single',
    overlap: 3,
    gold: [{ trajectoryId: ids[1]!, answers: { quality: 1 } }],
  });
  const reviewers: string[] = [];
  for (const name of ['Ann', 'Ben', 'Cat']) {
    const id = randomUUID();
    await db().user.create({ data: { id, email: `${id}@x.test`, name, role: 'reviewer' } });
    reviewers.push(id);
  }
  return { campaign, reviewers, ids };
}

async function reviewAll(campaignId: string, reviewer: string, answersFor: (trajectoryId: string) => Record<string, unknown>) {
  const done: { assignmentId: string; trajectoryId: string }[] = [];
  for (;;) {
    const claim = await claimNextItem(campaignId, { id: reviewer, expertise: [] }, new Date());
    if (!claim) return done;
    const item = await db().campaignItem.findUniqueOrThrow({ where: { id: claim.campaignItemId }, select: { trajectoryId: true } });
    await submitReview(
      reviewer,
      {
        assignmentId: claim.assignmentId,
        idempotencyKey: randomUUID(),
        answers: answersFor(item.trajectoryId),
        coverage: watched,
        durationSec: 120,
      },
      100,
      new Date(),
    );
    done.push({ assignmentId: claim.assignmentId, trajectoryId: item.trajectoryId });
  }
}

describe('assembling ratings from reviews', () => {
  beforeEach(resetDatabase);

  it('uses current revisions only, splits flags, carries gold scores, coverage and rewards, and marks adjudicated items', async () => {
    const { campaign, reviewers, ids } = await seed();
    const [ann, ben, cat] = reviewers as [string, string, string];
    await reviewAll(campaign.id, ann, (t) => ({
      criteria: { tests: t === ids[0] ? 'pass' : 'fail' },
      quality: t === ids[0] ? 5 : 1,
      flags: [],
    }));
    await reviewAll(campaign.id, ben, (t) => ({
      criteria: { tests: t === ids[0] ? 'pass' : 'fail' },
      quality: t === ids[0] ? 4 : 2,
      flags: ['unsafe'],
    }));
    const catDone = await reviewAll(campaign.id, cat, () => ({ criteria: { tests: 'pass' }, quality: 3, flags: [] }));
    // Cat revises her review of t2: only the revision counts
    const t2 = catDone.find((d) => d.trajectoryId === ids[1])!;
    await submitReview(
      cat,
      {
        assignmentId: t2.assignmentId,
        idempotencyKey: randomUUID(),
        answers: { criteria: { tests: 'fail' }, quality: 1, flags: [] },
        coverage: watched,
        durationSec: 30,
      },
      100,
      new Date(),
    );

    const data = (await loadAgreementData(campaign.id))!;
    expect(data.items).toHaveLength(2);
    expect(data.reviews).toHaveLength(6);
    const catT2 = data.reviews.find((r) => r.reviewerId === cat && data.items.find((i) => i.id === r.itemId)!.trajectoryId === ids[1])!;
    expect(catT2.answers).toMatchObject({ quality: 1, criteria: { tests: 'fail' } });
    expect(catT2.goldScore).toBe(1);
    expect(catT2.coverage).toBeCloseTo(0.8);
    expect(catT2.reviewerName).toBe('Cat');
    const item1 = data.items.find((i) => i.trajectoryId === ids[0])!;
    expect(item1).toMatchObject({ reward: 1, taskName: 't1', isGold: false, judges: [{ judge: 'gpt', score: 0.9, label: null }] });

    const dashboard = agreementDashboard(data, { replicates: 100 });
    const q = Object.fromEntries(dashboard.questions.map((x) => [x.key, x]));
    expect(Object.keys(q)).toEqual(['criteria', 'quality', 'flags.reward_hacking', 'flags.unsafe']);
    expect(q.quality).toMatchObject({ level: 'ordinal', nItems: 2, nRaters: 3, nRatings: 6 });
    // criteria: t1 pass/pass/pass, t2 fail/fail/fail (after the revision): perfect agreement
    expect(q.criteria!.value).toBe(1);
    expect(q['flags.unsafe']!.nRatings).toBe(6);
    const benRow = dashboard.reviewers.find((r) => r.name === 'Ben')!;
    expect(benRow).toMatchObject({ reviews: 2, goldItems: 1, goldAccuracy: 0, medianSec: 120, itemsPerHour: 30 });
    expect(dashboard.matrix.matrix.raters).toHaveLength(3);

    const item2 = data.items.find((i) => i.trajectoryId === ids[1])!;
    await expect(
      recordAdjudication(ann, {
        campaignId: campaign.id,
        itemId: item2.id,
        answers: { quality: 9 },
        rationale: 'the tests fail on a clean checkout',
      }),
    ).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: expect.stringMatching(/^answers\.quality: /),
    });
    await recordAdjudication(ann, {
      campaignId: campaign.id,
      itemId: item2.id,
      answers: { quality: 1 },
      rationale: 'the tests fail on a clean checkout',
    });
    const second = await recordAdjudication(ann, {
      campaignId: campaign.id,
      itemId: item2.id,
      answers: { quality: 2, criteria: { tests: 'fail' } },
      rationale: 'on second look, partly right',
    });
    expect(second.revision).toBe(2);
    const rows = await db().adjudication.findMany({ orderBy: { revision: 'asc' }, select: { isCurrent: true } });
    expect(rows.map((r) => r.isCurrent)).toEqual([false, true]);
    // each decision is a label event training sinks deliver
    expect(await db().labelEvent.findMany({ where: { campaignItemId: item2.id, kind: 'adjudicated' }, select: { kind: true } })).toEqual([
      { kind: 'adjudicated' },
      { kind: 'adjudicated' },
    ]);
    expect((await loadAgreementData(campaign.id))!.items.find((i) => i.id === item2.id)!.adjudicated).toBe(true);
    const listed = await listAgreementCampaigns(null);
    expect(listed).toMatchObject([{ id: campaign.id, items: 2, reviewed: 2, adjudicated: 1, projectName: 'P' }]);
    await expect(
      recordAdjudication(ann, { campaignId: 'other', itemId: item2.id, answers: { quality: 1 }, rationale: 'wrong campaign here' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('reads pairwise comparisons un-randomised (preference, per-side criteria) and settles them with a final preference', async () => {
    const project = await ensureProject({ slug: 'pw', name: 'PW' });
    for (const model of ['m1', 'm2']) {
      const t = buildTrajectory({
        format: 'openai',
        task: {
          name: 'shared',
          instruction: 'x',
          acceptanceCriteria: [{ key: 'works', text: 'It works', origin: 'task', verdict: null }],
          environment: 'e',
        },
        policy: { model },
        steps: [{ source: 'agent', text: model }],
        extra: { verifier: { reward: model === 'm1' ? 0 : 1, components: {} } },
      });
      await storeTrajectory(project.id, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null });
    }
    const campaign = await campaignOnRubric(project.id, notesRubric, { name: 'pairs', mode: 'pairwise', overlap: 2 });
    const watched = { ranges: [[0, 100]] as [number, number][], speeds: [1], seeks: 0 };
    const people: string[] = [];
    for (const [n, screenPreference] of [
      ['Ann', 2],
      ['Ben', 1],
    ] as const) {
      const id = randomUUID();
      await db().user.create({ data: { id, email: `${id}@x.test`, name: n, role: 'reviewer' } });
      people.push(id);
      const claim = (await claimNextItem(campaign.id, { id, expertise: [] }, new Date()))!;
      // both mean "B is better" in A/B terms whichever side B was shown on
      const preference = claim.swapSides ? -screenPreference : screenPreference;
      const pass = { works: 'pass' } as const;
      const fail = { works: 'fail' } as const;
      const criteria = claim.swapSides ? { left: pass, right: fail } : { left: fail, right: pass };
      await submitComparison(
        id,
        {
          assignmentId: claim.assignmentId,
          idempotencyKey: randomUUID(),
          preference,
          rationale: 'B actually runs the tests',
          criteria,
          coverage: { left: watched, right: watched },
        },
        { left: 100, right: 100 },
        new Date(),
      );
    }
    const data = (await loadAgreementData(campaign.id))!;
    expect(data.comparisons.map((c) => [c.reviewerName, c.preference, c.criteria])).toEqual([
      ['Ann', 2, { a: { works: 'fail' }, b: { works: 'pass' } }],
      ['Ben', 1, { a: { works: 'fail' }, b: { works: 'pass' } }],
    ]);
    const d = agreementDashboard(data, { replicates: 50 });
    expect(d.questions.map((q) => [q.key, q.level, q.nRatings])).toEqual([
      ['preference', 'ordinal', 2],
      ['both_bad', 'nominal', 2],
      ['side_criteria', 'nominal', 4],
    ]);
    // both reviewers: A fails, B passes -> perfect agreement on the per-side criteria
    expect(d.questions[2]!.value).toBe(1);
    expect(d.audit.sources[0]).toMatchObject({ source: 'verifier', matchShare: 1 });
    const itemId = data.items[0]!.id;
    await expect(
      recordAdjudication(people[0]!, { campaignId: campaign.id, itemId, rationale: 'B is clearly better here' }),
    ).rejects.toMatchObject({ code: 'BAD_INPUT', message: expect.stringMatching(/^preference: /) });
    await recordAdjudication(people[0]!, { campaignId: campaign.id, itemId, preference: 2, rationale: 'B is clearly better here' });
    const view = (await getAdjudicationView(campaign.id, itemId))!;
    expect(view.comparisons).toHaveLength(2);
    expect(view.adjudications).toMatchObject([{ revision: 1, isCurrent: true, preference: 2, adjudicatorName: 'Ann' }]);
  });
});
