import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildTrajectory } from '../formats/build-trajectory';
import type { Trajectory } from '../formats/trajectory';
import { prepareTrajectory } from '../ingest/prepare-trajectory';
import { claimNextItem } from './claim-next-item';
import { db } from '../db/client';
import { ensureProject } from '../trajectories/queries/projects';
import { submitReview, type SubmitReviewInput } from './submit-review';
import { resetDatabase } from '../db/test/reset';
import { storeTrajectory } from '../ingest/store-trajectory';
import { verdictQuestion } from './rubric-testing';
import { campaignOnRubric } from '../db/test/test-campaign';

const criteria = [
  { key: 'tests_pass', text: 'Tests pass', origin: 'verifier' as const, verdict: true },
  { key: 'no_test_edits', text: 'Tests unchanged', origin: 'task' as const, verdict: null },
];

function trajectory(name: string): Trajectory {
  return buildTrajectory({
    format: 'openai',
    task: { name, instruction: 'fix it', acceptanceCriteria: criteria, environment: 'env' },
    policy: { model: 'm' },
    steps: [{ source: 'agent', text: name }],
  });
}

const rubric = {
  title: 'r',
  questions: [
    { id: 'criteria', type: 'criteria', prompt: 'criteria' },
    { id: 'quality', type: 'likert', prompt: 'quality', points: 5 },
    verdictQuestion('verdict'),
  ],
};
const answers = { criteria: { tests_pass: 'pass', no_test_edits: 'fail' }, quality: 2, verdict: 'reject' };
const watched = { ranges: [[0, 100]] as [number, number][], speeds: [1], seeks: 0 };

/** A review of `claim` by `reviewerId` with a new key, over a 100-frame video: `answers`, covered as `watched`, unless `fields` says otherwise. */
function submitWatched(reviewerId: string, claim: { assignmentId: string }, fields: Partial<SubmitReviewInput> = {}) {
  return submitReview(
    reviewerId,
    { assignmentId: claim.assignmentId, idempotencyKey: randomUUID(), answers, coverage: watched, ...fields },
    100,
    new Date(),
  );
}

async function setup(options: { minCoverage?: number; gold?: boolean; coverageBasis?: 'video' | 'transcript' | 'either' } = {}) {
  const project = await ensureProject({ slug: 'p', name: 'p' });
  const stored = await storeTrajectory(project.id, prepareTrajectory(trajectory('t1')), {
    source: null,
    sourceWhere: null,
    importedById: null,
  });
  const campaign = await campaignOnRubric(project.id, rubric, {
    mode: 'single',
    overlap: 2,
    minCoverage: options.minCoverage ?? 0.8,
    coverageBasis: options.coverageBasis ?? 'video',
    gold: options.gold
      ? [{ trajectoryId: stored.id, answers: { verdict: 'reject', criteria: { tests_pass: 'pass', no_test_edits: 'fail' } } }]
      : [],
  });
  const reviewer = { id: randomUUID(), expertise: [] as string[] };
  await db().user.create({ data: { id: reviewer.id, email: `${reviewer.id}@x.test`, name: 'R', role: 'reviewer' } });
  const claim = (await claimNextItem(campaign.id, reviewer, new Date()))!;
  return { campaign, reviewer, claim };
}

describe('submitting reviews', () => {
  beforeEach(resetDatabase);

  it('a double submit with the same key makes one review, concurrently too', async () => {
    const { reviewer, claim } = await setup();
    const key = randomUUID();
    const results = await Promise.all(
      [0, 1, 2].map(() =>
        submitReview(reviewer.id, { assignmentId: claim.assignmentId, idempotencyKey: key, answers, coverage: watched }, 100, new Date()),
      ),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(await db().review.count()).toBe(1);
    const item = await db().campaignItem.findFirstOrThrow({ select: { reviewCount: true, activeCount: true } });
    expect(item).toEqual({ reviewCount: 1, activeCount: 1 });
  });

  it('refuses a submit below the minimum watch coverage, computing the share itself', async () => {
    const { reviewer, claim } = await setup({ minCoverage: 0.8 });
    const partial = {
      ranges: [
        [0, 40],
        [20, 60],
      ] as [number, number][],
      speeds: [2],
      seeks: 3,
    };
    await expect(submitWatched(reviewer.id, claim, { coverage: partial })).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: 'Watch at least 80% of the video before submitting (so far 60%)',
    });
    expect(await db().review.count()).toBe(0);
  });

  it('counts transcript reading on a transcript or either basis, and stores the coverage with its parts', async () => {
    // 4 steps; the video of 400 frames shows them at [100, 200), [200, 250), [250, 350), [350, 380)
    const measure = {
      totalFrames: 400,
      chapters: [
        { step: 0, fromFrame: 100, toFrame: 200 },
        { step: 1, fromFrame: 200, toFrame: 250 },
        { step: 2, fromFrame: 250, toFrame: 350 },
        { step: 3, fromFrame: 350, toFrame: 380 },
      ],
      steps: [0, 1, 2, 3],
    };
    const submit = (claim: { assignmentId: string }, reviewerId: string, coverage: Parameters<typeof submitReview>[1]['coverage']) =>
      submitReview(reviewerId, { assignmentId: claim.assignmentId, idempotencyKey: randomUUID(), answers, coverage }, measure, new Date());

    const t = await setup({ minCoverage: 0.75, coverageBasis: 'transcript' });
    // the whole video played does not read the transcript; an unknown step (9) counts for nothing
    await expect(submit(t.claim, t.reviewer.id, { ranges: [[0, 400]], transcriptSteps: [0, 1, 9] })).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: "Read at least 75% of the steps of the video's transcript before submitting (so far 50%)",
    });
    const done = await submit(t.claim, t.reviewer.id, { ranges: [[0, 40]], speeds: [1], seeks: 2, transcriptSteps: [3, 0, 1, 1] });
    const stored = await db().review.findUniqueOrThrow({ where: { id: done.id }, select: { coverage: true } });
    expect(stored.coverage).toEqual({
      basis: 'transcript',
      share: 0.75,
      ranges: [[0, 40]],
      totalFrames: 400,
      videoShare: 0.1,
      transcriptSteps: [0, 1, 3],
      totalSteps: 4,
      transcriptShare: 0.75,
      speeds: [1],
      seeks: 2,
      // submitted at once: reading three steps takes at least 3 x 1.5 s (no text known: the floor), flagged (issue 43 §1)
      attention: { elapsedSeconds: expect.any(Number), minimumSeconds: 4.5, tooFast: true },
    });

    await resetDatabase();
    const e = await setup({ minCoverage: 0.5, coverageBasis: 'either' });
    // played [0, 100) = 25% and read step 2 (its moment [250, 350) = 25%): together 50%
    await expect(submit(e.claim, e.reviewer.id, { ranges: [[0, 100]], transcriptSteps: [] })).rejects.toMatchObject({
      message: 'Watch or read at least 50% of the video before submitting (so far 25%)',
    });
    const either = await submit(e.claim, e.reviewer.id, { ranges: [[0, 100]], transcriptSteps: [2] });
    const row = await db().review.findUniqueOrThrow({ where: { id: either.id }, select: { coverage: true } });
    expect(row.coverage).toMatchObject({ basis: 'either', share: 0.5, videoShare: 0.25, transcriptShare: 0.25, transcriptSteps: [2] });

    await resetDatabase();
    const v = await setup({ minCoverage: 0.5, coverageBasis: 'video' });
    // on a video basis reading does not count
    await expect(submit(v.claim, v.reviewer.id, { ranges: [[0, 100]], transcriptSteps: [0, 1, 2, 3] })).rejects.toMatchObject({
      message: 'Watch at least 50% of the video before submitting (so far 25%)',
    });
  });

  it('refuses answers that do not fit the rubric, naming the question', async () => {
    const { reviewer, claim } = await setup();
    await expect(submitWatched(reviewer.id, claim, { answers: { ...answers, quality: 9 } })).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: expect.stringMatching(/^quality: /),
    });
    await expect(submitWatched(reviewer.id, claim, { answers: { quality: 3, verdict: 'accept' } })).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: expect.stringMatching(/^criteria: /),
    });
  });

  it('keeps every revision, counts the item once, and refuses changes after the campaign closes', async () => {
    const { campaign, reviewer, claim } = await setup();
    const first = await submitWatched(reviewer.id, claim);
    const second = await submitWatched(reviewer.id, claim, { answers: { ...answers, quality: 4 } });
    expect([first.revision, second.revision]).toEqual([1, 2]);
    const rows = await db().review.findMany({ orderBy: { revision: 'asc' }, select: { isCurrent: true, answers: true } });
    expect(rows.map((r) => r.isCurrent)).toEqual([false, true]);
    expect((await db().campaignItem.findFirstOrThrow({ select: { reviewCount: true } })).reviewCount).toBe(1);
    await db().campaign.update({ where: { id: campaign.id }, data: { status: 'closed' } });
    await expect(submitWatched(reviewer.id, claim)).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('scores gold items against the known answers, and another reviewer cannot submit on your claim', async () => {
    const { reviewer, claim } = await setup({ gold: true });
    const other = randomUUID();
    await db().user.create({ data: { id: other, email: `${other}@x.test`, name: 'O', role: 'reviewer' } });
    await expect(submitWatched(other, claim)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await submitWatched(reviewer.id, claim, { answers: { ...answers, verdict: 'accept' } });
    expect((await db().review.findFirstOrThrow({ select: { goldScore: true } })).goldScore).toBeCloseTo(2 / 3);
  });
});
