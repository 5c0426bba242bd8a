import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { recordAdjudication } from '../agreement/record-adjudication';
import { createCampaign } from '../campaigns/create-campaign';
import { saveRubricVersion } from '../campaigns/save-rubric-version';
import { db } from '../db/client';
import { claimNextItem } from './claim-next-item';
import { resetDatabase } from '../db/test/reset';
import { ensureProject } from '../trajectories/queries/projects';
import { storeTrajectory } from '../ingest/store-trajectory';
import { buildTrajectory } from '../formats/build-trajectory';
import { prepareTrajectory } from '../ingest/prepare-trajectory';
import { submitReview } from './submit-review';

/**
 * Issue 14 items 4, 5 and 12a: what concurrent callers and a reused key get. Each case failed
 * before its fix (concurrent adjudications: all but one answered a unique-violation 500; eight
 * concurrent claims by one reviewer made several live claims; another reviewer's key answered
 * "used by someone else" before the ownership check).
 */

const rubric = { title: 'r', questions: [{ id: 'quality', type: 'likert', prompt: 'quality', points: 5 }] };
const watched = { ranges: [[0, 100]] as [number, number][], speeds: [1], seeks: 0 };

async function setup(items = 3) {
  const project = await ensureProject({ slug: 'p', name: 'p' });
  for (let i = 0; i < items; i++) {
    const t = buildTrajectory({
      format: 'openai',
      task: { name: `t${i}`, instruction: 'do it' },
      policy: { model: 'm' },
      steps: [{ source: 'agent', text: `run ${i}` }],
    });
    await storeTrajectory(project.id, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null });
  }
  const version = await saveRubricVersion(project.id, 'r', rubric, null);
  const campaign = await createCampaign(
    project.id,
    { name: 'c', mode: 'single', rubricVersionId: version.versionId, overlap: 2, minCoverage: 0, open: true },
    null,
  );
  return { campaign };
}

async function user(role: 'reviewer' | 'lead' = 'reviewer') {
  const id = randomUUID();
  await db().user.create({ data: { id, email: `${id}@x.test`, name: role, role } });
  return { id, expertise: [] as string[] };
}

/** Settles every promise and sorts the outcomes into values and error codes (an error without an AppError code counts as 'INTERNAL'). */
async function outcomes<T>(calls: Promise<T>[]) {
  const settled = await Promise.allSettled(calls);
  return {
    values: settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : [])),
    codes: settled.flatMap((s) => (s.status === 'rejected' ? [((s.reason as { code?: string }).code ?? 'INTERNAL') as string] : [])),
  };
}

/**
 * One item of a fresh campaign and its lead, with eight different decisions on it sent at once
 * (the i-th explained by `rationale(i)`, on `basis`), settled.
 */
async function eightDecisions(rationale: (i: number) => string, basis: { basedOnRevision?: null } = {}) {
  const { campaign } = await setup(1);
  const lead = await user('lead');
  const item = await db().campaignItem.findFirstOrThrow({ select: { id: true } });
  const settled = await outcomes(
    Array.from({ length: 8 }, (_, i) =>
      recordAdjudication(lead.id, {
        campaignId: campaign.id,
        itemId: item.id,
        answers: { quality: 1 + (i % 5) },
        rationale: rationale(i),
        ...basis,
      }),
    ),
  );
  return { campaign, lead, item, ...settled };
}

describe('concurrent adjudications of one item (issue 14 item 4)', () => {
  beforeEach(resetDatabase);

  it('leads deciding from the same state: one wins, the others get CONFLICT, never an internal error', async () => {
    const { campaign, lead, item, values, codes } = await eightDecisions((i) => `decision number ${i} of eight`, { basedOnRevision: null });
    const decide = (quality: number, rationale: string, basedOnRevision: number | null) =>
      recordAdjudication(lead.id, { campaignId: campaign.id, itemId: item.id, answers: { quality }, rationale, basedOnRevision });
    expect(values).toHaveLength(1);
    expect(values[0]).toMatchObject({ revision: 1, duplicate: false });
    expect(codes).toEqual(Array(7).fill('CONFLICT'));
    const rows = await db().adjudication.findMany({ select: { revision: true, isCurrent: true } });
    expect(rows).toEqual([{ revision: 1, isCurrent: true }]);
    expect(await db().labelEvent.count({ where: { kind: 'adjudicated' } })).toBe(1);

    // deciding again from revision 1 is the next revision; from a stale state it is refused
    const next = await decide(3, 'on second look, middling', 1);
    expect(next).toMatchObject({ revision: 2, duplicate: false });
    await expect(decide(4, 'from a stale page', 1)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('revision 2'),
    });
  });

  it('the same decision sent eight times at once (a double click, a retry) is stored once and answered with it', async () => {
    const { campaign } = await setup(1);
    const lead = await user('lead');
    const item = await db().campaignItem.findFirstOrThrow({ select: { id: true } });
    const same = { campaignId: campaign.id, itemId: item.id, answers: { quality: 2 }, rationale: 'the same decision each time' };
    const { values, codes } = await outcomes(Array.from({ length: 8 }, () => recordAdjudication(lead.id, same)));
    expect(codes).toEqual([]);
    expect(new Set(values.map((v) => v.id)).size).toBe(1);
    expect(values.filter((v) => !v.duplicate)).toHaveLength(1);
    expect(await db().adjudication.count()).toBe(1);
  });

  it('different decisions at once without a stated basis become successive revisions, exactly one current', async () => {
    const { values, codes } = await eightDecisions((i) => `decision ${i} of eight`);
    expect(codes).toEqual([]);
    expect(values.map((v) => v.revision).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await db().adjudication.count({ where: { isCurrent: true } })).toBe(1);
  });
});

describe('one live claim per reviewer and campaign (issue 14 item 5)', () => {
  beforeEach(resetDatabase);

  it('eight concurrent claims by one reviewer give the same live claim back, resumed', async () => {
    const { campaign } = await setup(5);
    const r = await user();
    const now = new Date();
    const claims = await Promise.all(Array.from({ length: 8 }, () => claimNextItem(campaign.id, r, now)));
    expect(new Set(claims.map((c) => c!.assignmentId)).size).toBe(1);
    expect(claims.filter((c) => !c!.resumed)).toHaveLength(1);
    expect(await db().assignment.count({ where: { reviewerId: r.id, status: 'claimed' } })).toBe(1);
    expect((await db().campaignItem.aggregate({ _sum: { activeCount: true } }))._sum.activeCount).toBe(1);

    // after the submit, the next claim is a new item
    await submitReview(
      r.id,
      { assignmentId: claims[0]!.assignmentId, idempotencyKey: randomUUID(), answers: { quality: 3 }, coverage: watched },
      100,
      now,
    );
    const next = await claimNextItem(campaign.id, r, now);
    expect(next).toMatchObject({ resumed: false });
    expect(next!.assignmentId).not.toBe(claims[0]!.assignmentId);
  });
});

describe('another reviewer’s idempotency key (issue 14 item 12a)', () => {
  beforeEach(resetDatabase);

  it('answers as if the assignment were not theirs: the ownership check comes first', async () => {
    const { campaign } = await setup(2);
    const [alice, bob] = [await user(), await user()];
    const now = new Date();
    const a = (await claimNextItem(campaign.id, alice, now))!;
    const b = (await claimNextItem(campaign.id, bob, now))!;
    const key = randomUUID();
    const first = await submitReview(
      alice.id,
      { assignmentId: a.assignmentId, idempotencyKey: key, answers: { quality: 4 }, coverage: watched },
      100,
      now,
    );

    // Bob, on Alice's assignment, with Alice's key: the same answer as for any assignment not his
    const onHers = submitReview(
      bob.id,
      { assignmentId: a.assignmentId, idempotencyKey: key, answers: { quality: 1 }, coverage: watched },
      100,
      now,
    );
    await expect(onHers).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'No such assignment' });
    // Bob, on his own assignment, with a key that made a review elsewhere: refused, without saying whose
    const onHis = submitReview(
      bob.id,
      { assignmentId: b.assignmentId, idempotencyKey: key, answers: { quality: 1 }, coverage: watched },
      100,
      now,
    );
    await expect(onHis).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(onHis).rejects.not.toMatchObject({ message: expect.stringMatching(/someone else/) });
    // Alice's retry still answers her review
    const retry = await submitReview(
      alice.id,
      { assignmentId: a.assignmentId, idempotencyKey: key, answers: { quality: 4 }, coverage: watched },
      100,
      now,
    );
    expect(retry).toEqual({ ...first, duplicate: true });
    expect(await db().review.count()).toBe(1);
  });
});
