import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { projectAccess } from '../auth/project-access';
import { buildTrajectory } from '../formats/build-trajectory';
import { prepareTrajectory } from '../ingest/prepare-trajectory';
import { storeTrajectory } from '../ingest/store-trajectory';
import { db } from '../db/client';
import { resetDatabase } from '../db/test/reset';
import { campaignOnRubric } from '../db/test/test-campaign';
import { ensureProject } from '../trajectories/queries/projects';
import { trajectoryVideo } from '../video/video-props-for';
import { claimNextItem } from './claim-next-item';
import { saveReviewProgress } from './save-review-progress';
import { submitReview } from './submit-review';
import { assignmentView } from './view-assignment';
import { getCampaignDetail } from '../campaigns/queries/campaign-detail';

/*
 * Issue 43 §1: coverage proves attention. The server keeps what a reviewer earned per assignment
 * (a reload or a crash costs nothing), admits it only as fast as the clock allows, checks a submit
 * against the least time what it reports takes, flags a too-fast review for the lead or refuses it.
 */

const rubric = { title: 'r', questions: [{ id: 'quality', type: 'likert', prompt: 'quality', points: 5 }] };
// three steps of 46 words each: 12 s of reading apiece at 230 words a minute
const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

async function setup(settings: { tooFast?: 'flag' | 'refuse'; readingWpm?: number } = {}) {
  const project = await ensureProject({ slug: 'p', name: 'p' });
  const t = buildTrajectory({
    format: 'openai',
    task: { name: 'hoop', instruction: 'derive it' },
    policy: { model: 'm' },
    steps: [0, 1, 2].map(() => ({ source: 'agent' as const, text: words(46) })),
  });
  const stored = await storeTrajectory(project.id, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null });
  const campaign = await campaignOnRubric(project.id, rubric, {
    mode: 'single',
    overlap: 1,
    minCoverage: 0.6,
    coverageBasis: 'transcript',
    pacing: 'read',
    ...settings,
  });
  const id = randomUUID();
  await db().user.create({ data: { id, email: `${id}@x.test`, name: 'Reviewer', role: 'reviewer' } });
  const reviewer = { id, expertise: [] as string[], access: projectAccess('reviewer', [{ projectId: project.id, role: 'reviewer' }]) };
  const claimedAt = new Date('2026-12-07T10:00:00Z');
  const claim = (await claimNextItem(campaign.id, reviewer, claimedAt))!;
  return { project, campaign, reviewer, claim, claimedAt, trajectoryId: stored.id };
}

const at = (base: Date, seconds: number) => new Date(base.getTime() + seconds * 1000);
const report = (steps: number[], ranges: [number, number][] = []) => ({ ranges, speeds: [1], seeks: 0, transcriptSteps: steps });
const videoOf = async (id: string, blind: { hidePolicy: boolean; hideReward: boolean }, pacing: 'read' | 'skim') =>
  trajectoryVideo(id, { blind, pacing });

describe('coverage kept by the server and checked against the clock', () => {
  beforeEach(resetDatabase);

  it('keeps what a reviewer earned across a reload, only as fast as reading it takes, and the submit counts it', async () => {
    const s = await setup();
    // 10 s after the claim the page says it read all three steps: 10 s (+5 slack) hold one step of 12 s
    const first = await saveReviewProgress(
      s.reviewer,
      { assignmentId: s.claim.assignmentId, runs: [report([0, 1, 2])] },
      at(s.claimedAt, 10),
    );
    expect(first).toEqual({ runs: [{ ranges: [], transcriptSteps: [0] }], dropped: { steps: 2, frames: 0 } });
    // 15 s later, the second step fits
    const second = await saveReviewProgress(
      s.reviewer,
      { assignmentId: s.claim.assignmentId, runs: [report([0, 1])] },
      at(s.claimedAt, 25),
    );
    expect(second.runs[0]!.transcriptSteps).toEqual([0, 1]);

    // the page is reloaded: the view starts from what the server kept
    const view = await assignmentView(s.claim.assignmentId, s.reviewer.id, videoOf);
    expect(view.earned).toEqual([{ ranges: [], transcriptSteps: [0, 1] }]);
    expect(view.campaign.readingWpm).toBe(230);

    // a submit after the reload that reports nothing new still counts the two steps kept (2 of 3 >= 60%)
    const done = await submitReview(
      s.reviewer,
      { assignmentId: s.claim.assignmentId, idempotencyKey: randomUUID(), answers: { quality: 4 }, coverage: report([]) },
      at(s.claimedAt, 40),
    );
    const row = await db().review.findUniqueOrThrow({ where: { id: done.id }, select: { coverage: true } });
    expect(row.coverage).toMatchObject({
      transcriptSteps: [0, 1],
      transcriptShare: 2 / 3,
      attention: { elapsedSeconds: 40, minimumSeconds: 24, tooFast: false },
    });
  });

  it('an idle page earns nothing: a submit with no coverage is refused, whatever the time', async () => {
    const s = await setup();
    await expect(
      submitReview(
        s.reviewer,
        { assignmentId: s.claim.assignmentId, idempotencyKey: randomUUID(), answers: { quality: 4 }, coverage: report([]) },
        at(s.claimedAt, 300),
      ),
    ).rejects.toMatchObject({ code: 'BAD_INPUT', message: expect.stringMatching(/^Read at least 60% of the steps/) });
  });

  it('a review reporting everything read seconds after the claim is flagged for the lead by default', async () => {
    const s = await setup();
    const done = await submitReview(
      s.reviewer,
      { assignmentId: s.claim.assignmentId, idempotencyKey: randomUUID(), answers: { quality: 4 }, coverage: report([0, 1, 2]) },
      at(s.claimedAt, 5),
    );
    const row = await db().review.findUniqueOrThrow({ where: { id: done.id }, select: { coverage: true } });
    expect(row.coverage).toMatchObject({ attention: { elapsedSeconds: 5, minimumSeconds: 36, tooFast: true } });
    // the lead sees it, per review
    const detail = (await getCampaignDetail(s.campaign.id, new Date()))!;
    expect(detail.recentReviews).toEqual([
      expect.objectContaining({
        reviewer: 'Reviewer',
        task: 'hoop',
        coverage: { watched: 0, read: { steps: 3, of: 3 }, elapsedSeconds: 5, minimumSeconds: 36, tooFast: true },
      }),
    ]);
  });

  it('refused where the campaign says so, and accepted once the time could hold it (at its own reading speed)', async () => {
    const s = await setup({ tooFast: 'refuse', readingWpm: 115 });
    const submit = (seconds: number) =>
      submitReview(
        s.reviewer,
        { assignmentId: s.claim.assignmentId, idempotencyKey: randomUUID(), answers: { quality: 4 }, coverage: report([0, 1, 2]) },
        at(s.claimedAt, seconds),
      );
    // 46 words at 115 words a minute: 24 s a step, 72 s for three
    await expect(submit(40)).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: expect.stringContaining(
        'Submitted 40 s after the claim, but reading and watching what this review reports takes at least 72 s',
      ),
    });
    expect(await db().review.count()).toBe(0);
    await expect(submit(80)).resolves.toMatchObject({ revision: 1 });
  });

  it("refuses a save of someone else's assignment, and one that sends the wrong number of runs", async () => {
    const s = await setup();
    const other = { id: randomUUID(), access: s.reviewer.access };
    await expect(saveReviewProgress(other, { assignmentId: s.claim.assignmentId, runs: [report([0])] }, new Date())).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(
      saveReviewProgress(s.reviewer, { assignmentId: s.claim.assignmentId, runs: [report([0]), report([0])] }, new Date()),
    ).rejects.toMatchObject({ code: 'BAD_INPUT', message: 'runs: this assignment shows 1 run(s), the save sent 2' });
  });
});
