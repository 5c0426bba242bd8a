import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { recordAdjudication } from '../agreement/record-adjudication';
import { projectAccess } from '../auth/project-access';
import type { SessionUser } from '../auth/session-user';
import { getAdjudicationView, reopenedItems } from '../agreement/queries/adjudications';
import { createUser } from '../auth/create-user';
import { createCampaign } from '../campaigns/create-campaign';
import { saveRubricVersion } from '../campaigns/save-rubric-version';
import { itemLabelsForIds } from '../datasets/queries/dataset-items';
import { resolveDatasetScope } from '../datasets/resolve-dataset-scope';
import { db } from '../db/client';
import { claimNextItem } from './claim-next-item';
import { reviewerQueues } from './queries/review-queue';
import { codeOf } from '../db/test/error-code';
import { resetDatabase } from '../db/test/reset';
import { ensureProject, projectSettings } from '../trajectories/queries/projects';
import { storeTrajectory } from '../ingest/store-trajectory';
import { buildTrajectory } from '../formats/build-trajectory';
import { prepareTrajectory } from '../ingest/prepare-trajectory';
import { setSelfReview } from './set-self-review';
import { submitComparison } from './submit-comparison';
import { submitReview, submitReviewBody } from './submit-review';

/** Issue 39, rows 10-12: evidence checked against the item, self-review, revisions after adjudication. */

const rubric = { title: 'r', questions: [{ id: 'quality', type: 'likert', prompt: 'quality', points: 5 }] };
const watched = { ranges: [[0, 100]] as [number, number][], speeds: [1], seeks: 0 };
const FRAMES = 100;
const STEPS = 3;

async function user(role: 'lead' | 'reviewer', projectId: string): Promise<SessionUser> {
  const u = await createUser({ email: `${role}-${randomUUID().slice(0, 8)}@i.test`, name: role, role, password: 'long enough password' });
  return { ...u, access: projectAccess(role, [{ projectId, role }]) };
}

async function trajectoryIn(projectId: string, name: string, importedById: string | null, task = name) {
  const t = buildTrajectory({
    format: 'openai',
    task: { name: task, instruction: 'do it' },
    policy: { model: `m-${name}` },
    steps: Array.from({ length: STEPS }, (_, i) => ({ source: 'agent' as const, text: `${name} step ${i}` })),
  });
  return storeTrajectory(projectId, prepareTrajectory(t), { source: null, sourceWhere: null, importedById });
}

/** A project with a lead and a reviewer, one trajectory (uploaded by `uploader`) in a 1-item single campaign of overlap k. */
async function setup(options: { k?: number; uploader?: 'lead' | null } = {}) {
  const project = await ensureProject({ slug: 'p', name: 'p' });
  const lead = await user('lead', project.id);
  const reviewer = await user('reviewer', project.id);
  const stored = await trajectoryIn(project.id, 't1', options.uploader === 'lead' ? lead.id : null);
  const version = await saveRubricVersion(project.id, 'r', rubric, null);
  const campaign = await createCampaign(
    project.id,
    { name: 'c', mode: 'single', rubricVersionId: version.versionId, overlap: options.k ?? 1, minCoverage: 0, open: true },
    null,
  );
  return { project, lead, reviewer, campaign, trajectoryId: stored.id };
}

const review = (assignmentId: string, extra: Record<string, unknown> = {}) => ({
  assignmentId,
  idempotencyKey: randomUUID(),
  answers: { quality: 4 },
  coverage: watched,
  ...extra,
});

async function refusal(work: Promise<unknown>): Promise<{ code: string; message: string; field?: string }> {
  try {
    await work;
  } catch (error) {
    const e = error as { code: string; message: string; details?: { field?: string } };
    return { code: e.code, message: e.message, field: e.details?.field };
  }
  throw new Error('expected a refusal');
}

describe('evidence is checked against the item (row 10)', () => {
  beforeEach(resetDatabase);

  it('refuses a frame past the video, a step past the trajectory, a side on a single review and an invisible note, with where and what, writing nothing', async () => {
    const { reviewer, campaign } = await setup();
    const claim = (await claimNextItem(campaign.id, reviewer, new Date()))!;
    const note = (e: Record<string, unknown>) => ({ frame: 10, stepIndex: 1, note: 'look here', ...e });
    const submit = (evidence: unknown[]) => submitReview(reviewer, review(claim.assignmentId, { evidence }) as never, FRAMES, new Date());

    expect(await refusal(submit([note({}), note({ frame: 1e15 })]))).toEqual({
      code: 'BAD_INPUT',
      message: "evidence.1.frame: 1,000,000,000,000,000 is past the video's last frame 99",
      field: 'evidence.1.frame',
    });
    expect(await refusal(submit([note({ frame: FRAMES })]))).toMatchObject({
      message: "evidence.0.frame: 100 is past the video's last frame 99",
    });
    expect(await refusal(submit([note({ stepIndex: 999_999 })]))).toEqual({
      code: 'BAD_INPUT',
      message: 'evidence.0.stepIndex: 999,999 is past the last step: the trajectory has 3 (indexes 0 to 2)',
      field: 'evidence.0.stepIndex',
    });
    expect(await refusal(submit([note({ side: 'b' })]))).toEqual({
      code: 'BAD_INPUT',
      message: 'evidence.0.side: "b": a single-item review has one video; side is only for comparisons',
      field: 'evidence.0.side',
    });
    // zero-width spaces, a word joiner, a BOM, a bidi mark and white space: nothing a reader sees
    for (const invisible of ['\u200b\u200b\u200b', '\u200c\u200d \u2060\ufeff', '\u200e\n\t\u200b']) {
      expect(await refusal(submit([note({ note: invisible })]))).toEqual({
        code: 'BAD_INPUT',
        message: 'evidence.0.note: an evidence note needs text: this one is only spaces or invisible characters',
        field: 'evidence.0.note',
      });
    }
    expect(await db().review.count()).toBe(0);
    expect(await db().assignment.findUniqueOrThrow({ where: { id: claim.assignmentId }, select: { status: true } })).toEqual({
      status: 'claimed',
    });

    // the API's use-case (the same skeleton): the note is refused in the body, the frame against the video it measures itself
    expect(
      await refusal(submitReviewBody(reviewer, claim.assignmentId, review('x', { evidence: [note({ note: '\u200b' })] }), new Date())),
    ).toMatchObject({
      code: 'BAD_INPUT',
      message: 'body evidence.0.note: an evidence note needs text: this one is only spaces or invisible characters',
    });
    const api = await refusal(
      submitReviewBody(reviewer, claim.assignmentId, review('x', { evidence: [note({ frame: 1e15 })] }), new Date()),
    );
    expect(api.message).toMatch(/^evidence\.0\.frame: 1,000,000,000,000,000 is past the video's last frame [\d,]+$/);

    // a note inside the video and the trajectory, with visible text among invisible characters, is kept
    const ok = await submit([note({ frame: 99, stepIndex: 2, note: '\u200bthe fix is here' })]);
    expect(ok.revision).toBe(1);
    const stored = await db().review.findUniqueOrThrow({ where: { id: ok.id }, select: { evidence: true } });
    expect(stored.evidence).toMatchObject([{ frame: 99, stepIndex: 2 }]);
  });

  it('checks a comparison note against the side it names (screen terms), and a note without a side against both', async () => {
    const project = await ensureProject({ slug: 'p', name: 'p' });
    const reviewer = await user('reviewer', project.id);
    await trajectoryIn(project.id, 'a', null, 'shared');
    await trajectoryIn(project.id, 'b', null, 'shared');
    const version = await saveRubricVersion(project.id, 'r', rubric, null);
    const campaign = await createCampaign(
      project.id,
      { name: 'pairs', mode: 'pairwise', rubricVersionId: version.versionId, overlap: 1, minCoverage: 0, open: true },
      null,
    );
    const claim = (await claimNextItem(campaign.id, reviewer, new Date()))!;
    const submit = (evidence: unknown[]) =>
      submitComparison(
        reviewer,
        {
          assignmentId: claim.assignmentId,
          idempotencyKey: randomUUID(),
          preference: 1,
          rationale: 'the right one finishes the task',
          criteria: { left: {}, right: {} },
          evidence: evidence as never,
          coverage: { left: watched, right: watched },
        },
        { left: 100, right: 40 },
        new Date(),
      );
    expect(await refusal(submit([{ frame: 50, stepIndex: 0, note: 'here', side: 'b' }]))).toMatchObject({
      message: "evidence.0.frame: 50 is past the right video's last frame 39",
    });
    expect(await refusal(submit([{ frame: 50, stepIndex: 0, note: 'here' }]))).toMatchObject({
      message: "evidence.0.frame: 50 is past the right video's last frame 39",
    });
    expect(await refusal(submit([{ frame: 5, stepIndex: 3, note: 'here', side: 'a' }]))).toMatchObject({
      message: 'evidence.0.stepIndex: 3 is past the last step: the left run has 3 (indexes 0 to 2)',
    });
    expect(await db().pairwiseComparison.count()).toBe(0);
    const ok = await submit([{ frame: 50, stepIndex: 2, note: 'left is longer', side: 'a' }]);
    expect(ok.revision).toBe(1);
  });
});

describe('self-review (row 11)', () => {
  beforeEach(resetDatabase);

  it('keeps an uploader off their own items by default: no claim, no queue count, a submit refused', async () => {
    const { project, lead, campaign } = await setup({ uploader: 'lead' });
    expect((await projectSettings(project.id)).allowSelfReview).toBe(false);
    // the lead imported the trajectory, put it in a 1-item campaign and tries to review it
    expect(await claimNextItem(campaign.id, lead, new Date())).toBeNull();
    const [queue] = await reviewerQueues({ id: lead.id, expertise: [], projectIds: [project.id] }, new Date());
    expect(queue).toMatchObject({ available: 0, totalItems: 1 });

    // a claim made while the project allowed it: the submit refuses it once the project no longer does
    await setSelfReview(lead, { projectId: project.id, allowSelfReview: true });
    const claim = (await claimNextItem(campaign.id, lead, new Date()))!;
    expect(claim).not.toBeNull();
    await setSelfReview(lead, { projectId: project.id, allowSelfReview: false });
    expect(await refusal(submitReview(lead, review(claim.assignmentId), FRAMES, new Date()))).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('You uploaded this trajectory'),
    });
    expect(await db().review.count()).toBe(0);
    expect(await db().labelEvent.count()).toBe(0);
  });

  it("where the project allows it, the review is taken, audited as a self-review and marked in the lead's view; a trajectory someone else uploaded is not", async () => {
    const { project, lead, reviewer, campaign } = await setup({ uploader: 'lead', k: 2 });
    // only a lead of the project changes the setting; the change is audited
    expect(await codeOf(setSelfReview(reviewer, { projectId: project.id, allowSelfReview: true }))).toBe('FORBIDDEN');
    expect(await setSelfReview(lead, { projectId: project.id, allowSelfReview: true })).toEqual({ allowSelfReview: true });
    expect(
      await db().auditLog.findMany({ where: { action: 'project.settings' }, select: { actorId: true, projectId: true, data: true } }),
    ).toEqual([{ actorId: lead.id, projectId: project.id, data: { allowSelfReview: true } }]);

    const mine = (await claimNextItem(campaign.id, lead, new Date()))!;
    const theirs = (await claimNextItem(campaign.id, reviewer, new Date()))!;
    const self = await submitReview(lead, review(mine.assignmentId), FRAMES, new Date());
    await submitReview(reviewer, review(theirs.assignmentId), FRAMES, new Date());

    const audit = await db().auditLog.findMany({
      where: { action: 'review.self' },
      select: { actorId: true, targetId: true, projectId: true },
    });
    expect(audit).toEqual([{ actorId: lead.id, targetId: self.id, projectId: project.id }]);
    const view = (await getAdjudicationView(campaign.id, mine.campaignItemId))!;
    expect(view.reviews.map((r) => [r.reviewerId, r.selfReview]).sort()).toEqual(
      [
        [lead.id, true],
        [reviewer.id, false],
      ].sort(),
    );
  });
});

describe('a revision after adjudication reopens the item (row 12)', () => {
  beforeEach(resetDatabase);

  it("supersedes the decision, back in the lead's queue, consensus from the reviews, a `revised` event, until the lead decides again", async () => {
    const { project, lead, reviewer, campaign } = await setup();
    const claim = (await claimNextItem(campaign.id, reviewer, new Date()))!;
    const decision = { campaignId: campaign.id, itemId: claim.campaignItemId };
    const decide = (quality: number, rationale: string, basedOnRevision: number | null) =>
      recordAdjudication(lead.id, { ...decision, answers: { quality }, rationale, basedOnRevision });
    await submitReview(reviewer, review(claim.assignmentId, { answers: { quality: 2 } }), FRAMES, new Date());
    const decided = await decide(5, 'the run is better than the review says', null);
    const scope = await resolveDatasetScope({ projectId: project.id, campaignId: campaign.id });
    const labels = async () => (await itemLabelsForIds(scope, [claim.campaignItemId]))[0]!;
    expect((await labels()).adjudication).toMatchObject({ id: decided.id });

    const revised = await submitReview(reviewer, review(claim.assignmentId, { answers: { quality: 3 } }), FRAMES, new Date());
    expect(revised).toMatchObject({ revision: 2, duplicate: false, reopened: true });
    expect(
      await db().adjudication.findUniqueOrThrow({ where: { id: decided.id }, select: { isCurrent: true, supersededAt: true } }),
    ).toMatchObject({ isCurrent: false, supersededAt: expect.any(Date) });
    expect((await labels()).adjudication).toBeNull();
    expect(await reopenedItems(campaign.id)).toMatchObject([{ itemId: claim.campaignItemId, taskName: 't1', revision: 1 }]);
    const view = (await getAdjudicationView(campaign.id, claim.campaignItemId))!;
    expect(view.adjudications).toMatchObject([{ revision: 1, isCurrent: false, supersededAt: expect.any(Date) }]);
    const events = await db().labelEvent.findMany({
      where: { campaignItemId: claim.campaignItemId },
      orderBy: { seq: 'asc' },
      select: { kind: true },
    });
    expect(events.map((e) => e.kind)).toEqual(['finalised', 'adjudicated', 'revised']);
    expect(
      await db().auditLog.findMany({ where: { action: 'adjudication.superseded' }, select: { actorId: true, targetId: true, data: true } }),
    ).toEqual([
      {
        actorId: reviewer.id,
        targetId: claim.campaignItemId,
        data: { adjudicationRevision: 1, by: 'review', labelId: revised.id, labelRevision: 2 },
      },
    ]);

    // the lead's form showed the superseded decision as current: saving from it is refused until they reload
    expect(await codeOf(decide(5, 'still five, having read it', 1))).toBe('CONFLICT');
    const again = await decide(4, 'four, having read the revised review', null);
    expect(again.revision).toBe(2);
    expect((await labels()).adjudication).toMatchObject({ id: again.id });
    expect(await reopenedItems(campaign.id)).toEqual([]);
  });

  it('an item decided before it was final: the revision that supersedes the decision still tells the sinks', async () => {
    const { lead, reviewer, campaign } = await setup({ k: 2 });
    const claim = (await claimNextItem(campaign.id, reviewer, new Date()))!;
    await submitReview(reviewer, review(claim.assignmentId), FRAMES, new Date());
    await recordAdjudication(lead.id, {
      campaignId: campaign.id,
      itemId: claim.campaignItemId,
      answers: { quality: 1 },
      rationale: 'clearly a one, see step 2',
    });
    const revised = await submitReview(reviewer, review(claim.assignmentId, { answers: { quality: 1 } }), FRAMES, new Date());
    expect(revised.reopened).toBe(true);
    const events = await db().labelEvent.findMany({
      where: { campaignItemId: claim.campaignItemId },
      orderBy: { seq: 'asc' },
      select: { kind: true },
    });
    expect(events.map((e) => e.kind)).toEqual(['adjudicated', 'revised']);
    // a revision with no decision on the item reopens nothing
    const plain = await submitReview(reviewer, review(claim.assignmentId, { answers: { quality: 2 } }), FRAMES, new Date());
    expect(plain).not.toHaveProperty('reopened');
    expect(await db().labelEvent.count({ where: { campaignItemId: claim.campaignItemId } })).toBe(2);
  });
});
