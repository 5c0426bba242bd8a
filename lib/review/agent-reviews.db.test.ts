import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { projectAccess } from '../auth/project-access';
import type { SessionUser } from '../auth/session-user';
import { createUser } from '../auth/create-user';
import { db } from '../db/client';
import { resetDatabase } from '../db/test/reset';
import { seedLabelledProject } from '../db/test/seed-labels';
import { campaignOnRubric, criteriaRubric as rubric, testCriteria as criteria, notesRubric } from '../db/test/test-campaign';
import { exportDataset } from '../datasets/export-dataset';
import { buildTrajectory } from '../formats/build-trajectory';
import { prepareTrajectory } from '../ingest/prepare-trajectory';
import { storeTrajectory } from '../ingest/store-trajectory';
import { ensureProject } from '../trajectories/queries/projects';
import { claimAgentItem } from './claim-agent-item';
import { claimNextItem } from './claim-next-item';
import { listAgentReviews } from './list-agent-reviews';
import { recordAgentReading } from './record-agent-reading';
import { submitAgentReview } from './submit-agent-review';
import { submitReview } from './submit-review';

/** Issue 42: agent reviewers are never humans (lib/review/claim-agent-item.ts and beside it). */

const answers = { criteria: { tests_pass: 'pass', no_test_edits: 'fail' }, quality: 4 };
const STEPS = 4;

async function storeRun(projectId: string, model: string, task = 'fix-it') {
  const t = buildTrajectory({
    format: 'openai',
    task: { name: task, instruction: 'fix it', acceptanceCriteria: criteria, environment: 'env' },
    policy: { model },
    steps: Array.from({ length: STEPS }, (_, i) => ({ source: 'agent' as const, text: `${model} ${task} step ${i}` })),
  });
  return storeTrajectory(projectId, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null });
}

async function member(projectId: string, role: 'lead' | 'reviewer', token?: string): Promise<SessionUser> {
  const u = await createUser({
    email: `${role}-${randomUUID().slice(0, 8)}@a.test`,
    name: role,
    role: 'reviewer',
    password: 'long enough password',
  });
  const user: SessionUser = { ...u, access: projectAccess('reviewer', [{ projectId, role }]) };
  return token ? withToken(user, token) : user;
}

/** The user calling with an API token named `name` (a row of api_token, as the MCP edge would pass it). */
async function withToken(user: SessionUser, name: string): Promise<SessionUser> {
  const t = await db().apiToken.create({
    data: { userId: user.id, name, prefix: 'wit_x', tokenHash: randomUUID() },
    select: { id: true },
  });
  return { ...user, token: { id: t.id, scope: 'all' } };
}

async function single(overlap = 1, items = 2) {
  const project = await ensureProject({ slug: 'p', name: 'p' });
  for (let i = 0; i < items; i++) await storeRun(project.id, `m${i}`, `task-${i}`);
  const campaign = await campaignOnRubric(project.id, rubric, { mode: 'single', overlap, minCoverage: 0.9 });
  return { project, campaign };
}

const humanRows = async () => ({
  assignments: await db().assignment.count(),
  reviews: await db().review.count(),
  comparisons: await db().pairwiseComparison.count(),
  labelEvents: await db().labelEvent.count(),
  items: await db().campaignItem.findMany({ select: { id: true, reviewCount: true, activeCount: true }, orderBy: { id: 'asc' } }),
});

describe('agent reviewers', () => {
  beforeEach(resetDatabase);

  it('claim: takes no human slot, re-claiming returns the open claim, and it is audited', async () => {
    const { project, campaign } = await single();
    const agent = await member(project.id, 'reviewer', 'ci-agent');
    const before = await humanRows();
    const claim = (await claimAgentItem(agent, { campaignId: campaign.id, model: 'claude-x' }))!;
    expect(claim).toMatchObject({ campaignId: campaign.id, kind: 'single', stepCounts: [STEPS], resumed: false });
    expect(claim.trajectoryIds).toHaveLength(1);
    expect(claim.rubric.definition.questions.map((q) => q.id)).toEqual(['criteria', 'quality']);
    expect(claim.criteria.map((c) => c.key)).toEqual(['tests_pass', 'no_test_edits']);
    // no assignment, the item's counts untouched
    expect(await humanRows()).toEqual(before);
    const again = (await claimAgentItem(agent, { campaignId: campaign.id, model: 'claude-x' }))!;
    expect(again).toMatchObject({ claimId: claim.claimId, itemId: claim.itemId, resumed: true });
    const audit = await db().auditLog.findMany({ where: { action: 'agent.claim' }, select: { actorId: true, targetId: true, data: true } });
    expect(audit).toEqual([
      { actorId: agent.id, targetId: claim.claimId, data: expect.objectContaining({ model: 'claude-x', tokenId: agent.token!.id }) },
    ]);
  });

  it('submit: never a human label, never toward overlap k, never finalises, no label event; the human queue is whole', async () => {
    const { project, campaign } = await single(1, 1);
    const agent = await member(project.id, 'reviewer', 'ci-agent');
    const claim = (await claimAgentItem(agent, { campaignId: campaign.id, model: 'claude-x' }))!;
    const done = await submitAgentReview(agent, { claimId: claim.claimId, model: 'claude-x', answers, idempotencyKey: 'agent-key-1' });
    expect(done).toMatchObject({ itemId: claim.itemId, source: 'agent', model: 'claude-x', created: true });
    expect(await humanRows()).toMatchObject({
      assignments: 0,
      reviews: 0,
      comparisons: 0,
      labelEvents: 0,
      items: [{ reviewCount: 0, activeCount: 0 }],
    });
    // nothing left for this agent and model; another model, and another token, still get the item
    expect(await claimAgentItem(agent, { campaignId: campaign.id, model: 'claude-x' })).toBeNull();
    expect(await claimAgentItem(agent, { campaignId: campaign.id, model: 'other-model' })).toMatchObject({ itemId: claim.itemId });
    expect(await claimAgentItem(await withToken(agent, 'second'), { campaignId: campaign.id, model: 'claude-x' })).toMatchObject({
      itemId: claim.itemId,
    });
    // with k = 1 the one human slot is still free: a human claims and finalises the item themselves
    const human = await member(project.id, 'reviewer');
    const hc = (await claimNextItem(campaign.id, { id: human.id, expertise: [] }, new Date()))!;
    expect(hc.campaignItemId).toBe(claim.itemId);
    await submitReview(
      human.id,
      { assignmentId: hc.assignmentId, idempotencyKey: randomUUID(), answers, coverage: { ranges: [[0, 100]], speeds: [1], seeks: 0 } },
      100,
      new Date(),
    );
    expect(await db().campaignItem.findUniqueOrThrow({ where: { id: claim.itemId }, select: { reviewCount: true } })).toEqual({
      reviewCount: 1,
    });
    expect(await db().labelEvent.findMany({ select: { kind: true } })).toEqual([{ kind: 'finalised' }]);
    expect(await db().auditLog.count({ where: { action: 'agent.review', targetId: done.id } })).toBe(1);
  });

  it('submit: answers checked as a human’s, refusals say where (a JSON pointer) and what', async () => {
    const { project, campaign } = await single();
    const agent = await member(project.id, 'reviewer');
    const { claimId } = (await claimAgentItem(agent, { campaignId: campaign.id, model: 'm' }))!;
    const submit = (a: unknown, evidence?: unknown) => submitAgentReview(agent, { claimId, model: 'm', answers: a, evidence });
    await expect(submit({ ...answers, criteria: { ...answers.criteria, x: 'pass' } })).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: "/criteria/x: unknown criterion 'x' (the task's: tests_pass, no_test_edits)",
      details: { field: '/criteria/x', in: 'answers' },
    });
    await expect(submit({ ...answers, vibes: 3 })).rejects.toMatchObject({
      message: "/vibes: unknown question 'vibes' (the rubric asks criteria, quality)",
      details: { field: '/vibes' },
    });
    await expect(submit({ ...answers, quality: 9 })).rejects.toMatchObject({
      message: expect.stringMatching(/^\/quality: .*5/),
      details: { field: '/quality' },
    });
    await expect(submit({ quality: 3, criteria: { tests_pass: 'pass' } })).rejects.toMatchObject({
      details: { field: '/criteria/no_test_edits' },
    });
    await expect(submit('great')).rejects.toMatchObject({ message: expect.stringMatching(/^\/: /), details: { field: '' } });
    await expect(submit(answers, [{ stepIndex: STEPS, note: 'here' }])).rejects.toMatchObject({
      message: `evidence /0/stepIndex: ${STEPS} is past the last step (the trajectory has ${STEPS})`,
      details: { field: '/0/stepIndex', in: 'evidence' },
    });
    await expect(submit(answers, [{ stepIndex: 0, note: 'x', side: 'b' }])).rejects.toMatchObject({ details: { field: '/0/side' } });
    expect(await db().agentReview.count()).toBe(0);
    await expect(submit(answers, [{ stepIndex: 1, note: 'deletes the test', wrongStep: true }])).resolves.toMatchObject({ created: true });
  });

  it('submit: idempotent by key, a new key revises, unknown, foreign, lapsed claims and reused keys refused', async () => {
    const { project, campaign } = await single();
    const agent = await member(project.id, 'reviewer', 'tok');
    const { claimId } = (await claimAgentItem(agent, { campaignId: campaign.id, model: 'm' }))!;
    const first = await submitAgentReview(agent, { claimId, model: 'm', answers, idempotencyKey: 'key-one-1' });
    const retry = await submitAgentReview(agent, { claimId, model: 'm', answers: { ...answers, quality: 1 }, idempotencyKey: 'key-one-1' });
    expect(retry).toMatchObject({ id: first.id, created: false, revision: 1 });
    const revised = await submitAgentReview(agent, {
      claimId,
      model: 'm',
      answers: { ...answers, quality: 2 },
      idempotencyKey: 'key-two-2',
    });
    expect(revised).toMatchObject({ created: true, revision: 2 });
    expect(await db().agentReview.findMany({ select: { revision: true, isCurrent: true }, orderBy: { revision: 'asc' } })).toEqual([
      { revision: 1, isCurrent: false },
      { revision: 2, isCurrent: true },
    ]);
    await expect(submitAgentReview(agent, { claimId: 'nope', model: 'm', answers })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(submitAgentReview(agent, { claimId, model: 'other', answers })).rejects.toMatchObject({
      code: 'BAD_INPUT',
      details: { field: 'model' },
    });
    // another user, or the same user on another token, does not reach the claim
    const other = await member(project.id, 'lead');
    await expect(submitAgentReview(other, { claimId, model: 'm', answers })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(submitAgentReview(await withToken(agent, 'two'), { claimId, model: 'm', answers })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    // a lapsed claim with no review yet is refused; the key of another claim is a conflict
    const next = (await claimAgentItem(agent, { campaignId: campaign.id, model: 'm' }))!;
    expect(next.itemId).not.toBe(first.itemId);
    await expect(
      submitAgentReview(agent, { claimId: next.claimId, model: 'm', answers, idempotencyKey: 'key-one-1' }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(
      submitAgentReview(agent, { claimId: next.claimId, model: 'm', answers }, new Date(Date.now() + 3 * 3600_000)),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/lapsed/) });
    // a closed campaign takes no more
    await db().campaign.update({ where: { id: campaign.id }, data: { status: 'closed' } });
    await expect(submitAgentReview(agent, { claimId, model: 'm', answers, idempotencyKey: 'key-three' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(await claimAgentItem(agent, { campaignId: campaign.id, model: 'm' })).toBeNull();
  });

  it('a member who does not review in the project reaches no campaign or claim', async () => {
    const { project, campaign } = await single();
    const elsewhere = await ensureProject({ slug: 'q', name: 'q' });
    const stranger = await member(elsewhere.id, 'lead');
    await expect(claimAgentItem(stranger, { campaignId: campaign.id, model: 'm' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(listAgentReviews(stranger, { campaignId: campaign.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const agent = await member(project.id, 'reviewer');
    await expect(claimAgentItem(agent, { campaignId: campaign.id, model: 'has space' })).rejects.toMatchObject({
      details: { field: 'model' },
    });
  });

  it('reading: step ranges merged per trajectory and stills recorded; the list counts them with token and model', async () => {
    const { project, campaign } = await single();
    const agent = await member(project.id, 'reviewer', 'reader-token');
    const claim = (await claimAgentItem(agent, { campaignId: campaign.id, model: 'm' }))!;
    const [t] = claim.trajectoryIds;
    await recordAgentReading(agent, { claimId: claim.claimId, trajectoryId: t!, steps: [0, 1] });
    await recordAgentReading(agent, { claimId: claim.claimId, trajectoryId: t!, steps: [1, 2], still: { step: 2 } });
    await recordAgentReading(agent, { claimId: claim.claimId, trajectoryId: t!, still: { timeSec: 3.5 } });
    await Promise.all([0, 1, 2].map(() => recordAgentReading(agent, { claimId: claim.claimId, trajectoryId: t!, still: { step: 0 } })));
    expect((await db().agentClaim.findUniqueOrThrow({ where: { id: claim.claimId }, select: { reading: true } })).reading).toMatchObject({
      steps: { [t!]: [[0, 2]] },
    });
    await expect(recordAgentReading(agent, { claimId: claim.claimId, trajectoryId: 'elsewhere', steps: [0, 1] })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(recordAgentReading(agent, { claimId: claim.claimId, trajectoryId: t!, steps: [STEPS, STEPS + 2] })).rejects.toMatchObject({
      code: 'BAD_INPUT',
      details: { field: 'steps' },
    });
    await expect(recordAgentReading(agent, { claimId: claim.claimId, trajectoryId: t! })).rejects.toMatchObject({ code: 'BAD_INPUT' });
    const done = await submitAgentReview(agent, { claimId: claim.claimId, model: 'm', answers });

    // a second agent of another user, then the lists: the lead sees both, a reviewer only their own agents'
    const other = await member(project.id, 'reviewer');
    const c2 = (await claimAgentItem(other, { campaignId: campaign.id, model: 'n' }))!;
    const d2 = await submitAgentReview(other, { claimId: c2.claimId, model: 'n', answers }, new Date(Date.now() + 1000));
    const lead = await member(project.id, 'lead');
    const page1 = await listAgentReviews(lead, { campaignId: campaign.id, limit: 1 });
    expect(page1.reviews.map((r) => r.id)).toEqual([d2.id]);
    const page2 = await listAgentReviews(lead, { campaignId: campaign.id, limit: 1, cursor: page1.nextCursor! });
    expect(page2).toEqual({
      reviews: [
        {
          id: done.id,
          itemId: claim.itemId,
          task: expect.stringMatching(/^task-\d$/),
          model: 'm',
          tokenName: 'reader-token',
          submittedAt: expect.any(String),
          answers,
          stepsRead: 3,
          stillsFetched: 5,
        },
      ],
      nextCursor: null,
    });
    expect((await listAgentReviews(other, { campaignId: campaign.id })).reviews).toMatchObject([
      { id: d2.id, tokenName: null, stepsRead: 0 },
    ]);
    await expect(listAgentReviews(other, { campaignId: campaign.id, cursor: done.id })).rejects.toMatchObject({
      details: { field: 'cursor' },
    });
  });

  it('pairwise: the agent sees a blind order and its preference is stored in the item’s A/B terms', async () => {
    const project = await ensureProject({ slug: 'p', name: 'p' });
    const a = await storeRun(project.id, 'm1', 'shared');
    await storeRun(project.id, 'm2', 'shared');
    const campaign = await campaignOnRubric(project.id, notesRubric, { mode: 'pairwise', overlap: 1, minCoverage: 0.5 });
    const agent = await member(project.id, 'reviewer');
    const claim = (await claimAgentItem(agent, { campaignId: campaign.id, model: 'judge-1' }))!;
    expect(claim).toMatchObject({ kind: 'pairwise', stepCounts: [STEPS, STEPS] });
    expect(claim.trajectoryIds).toHaveLength(2);
    const verdicts = { tests_pass: 'pass', no_test_edits: 'pass' };
    const base = { preference: -2, rationale: 'the first one fixed it properly', criteria: { left: verdicts, right: verdicts } };
    await expect(
      submitAgentReview(agent, { claimId: claim.claimId, model: 'judge-1', answers: { ...base, criteria: { left: verdicts, right: {} } } }),
    ).rejects.toMatchObject({
      message: '/criteria/right: give a pass/fail for tests_pass, no_test_edits',
      details: { field: '/criteria/right' },
    });
    await expect(
      submitAgentReview(agent, { claimId: claim.claimId, model: 'judge-1', answers: { ...base, rationale: 'ok' } }),
    ).rejects.toMatchObject({
      details: { field: '/rationale' },
    });
    await submitAgentReview(agent, { claimId: claim.claimId, model: 'judge-1', answers: base });
    const row = await db().agentReview.findFirstOrThrow({ select: { answers: true } });
    // the first trajectory shown was A unless the claim swapped sides: -2 means "the first is much better"
    const firstIsA = claim.trajectoryIds[0] === a.id;
    expect((row.answers as { preference: number }).preference).toBe(firstIsA ? -2 : 2);
    expect(await humanRows()).toMatchObject({ assignments: 0, comparisons: 0, labelEvents: 0 });
  });

  it('exports leave agent reviews out: the same rows and bytes after an agent reviewed every item', async () => {
    const seeded = await seedLabelledProject({ tasks: 2, evalTasks: 0 });
    const dir = mkdtempSync(path.join(tmpdir(), 'witness-agent-export-'));
    const exportOnce = async (name: string) =>
      exportDataset({ format: 'trl-dpo', projectId: seeded.projectId }, path.join(dir, name)).then((r) => ({
        rows: r.rows,
        sha256: r.sha256,
      }));
    const before = await exportOnce('before.jsonl');
    expect(before.rows).toBeGreaterThan(0);
    const agent = await member(seeded.projectId, 'lead', 'agent');
    let reviewed = 0;
    for (;;) {
      const claim = await claimAgentItem(agent, { campaignId: seeded.singleCampaignId, model: 'contrarian' });
      if (!claim) break;
      // the opposite of the humans: would flip the pairs if it counted
      await submitAgentReview(agent, { claimId: claim.claimId, model: 'contrarian', answers: { quality: 3, verdict: 'accept' } });
      reviewed++;
    }
    expect(reviewed).toBe(4);
    expect(await exportOnce('after.jsonl')).toEqual(before);
  });
});
