import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildTrajectory } from '../formats/build-trajectory';
import type { Trajectory } from '../formats/trajectory';
import { prepareTrajectory } from '../ingest/prepare-trajectory';
import { framesForAssignment } from '../video/assignment-frames';
import { blindSettings } from './blind-settings';
import { claimNextItem } from './claim-next-item';
import type { StoredVideoTexts, VideoLookup } from './queries/assignment-view';
import { skipAssignment } from './skip-assignment';
import { assignmentView, viewAssignment } from './view-assignment';
import { blindMaskOf, trajectoryVideo } from '../video/video-props-for';
import { createCampaign } from '../campaigns/create-campaign';
import { db } from '../db/client';
import { submitComparison } from './submit-comparison';
import { ensureProject } from '../trajectories/queries/projects';
import { listReviews } from './list-reviews';
import { submitReview } from './submit-review';
import { saveRubricVersion } from '../campaigns/save-rubric-version';
import { resetDatabase } from '../db/test/reset';
import { storeTrajectory } from '../ingest/store-trajectory';
import { campaignOnRubric } from '../db/test/test-campaign';

const SECRETS = ['secret-policy-name', 'secret-model-7b', 'ckpt-secret-0042', 'secret-agent-x', 'secret-judge', 'judge says 0.25'];

function trajectory(suffix: string): Trajectory {
  return buildTrajectory({
    format: 'openai',
    task: {
      name: 'fix-the-bug',
      instruction: 'Fix the failing test.',
      acceptanceCriteria: [
        { key: 'tests_pass', text: 'Tests pass', origin: 'verifier', verdict: true },
        { key: 'minimal', text: 'The fix is minimal', origin: 'task', verdict: null },
      ],
      environment: 'py',
    },
    policy: { model: `secret-model-7b${suffix}`, checkpoint: `ckpt-secret-0042${suffix}`, agent: 'secret-agent-x' },
    steps: [
      { source: 'user', text: 'Fix the failing test.' },
      { source: 'agent', text: `I will run the tests ${suffix}` },
    ],
    extra: {
      externalId: `run-secret-policy-name${suffix}`,
      verifier: { reward: 0.73, components: { unit: 0.73 } },
      judgeScores: [{ judge: 'secret-judge', score: 0.25, label: null, explanation: 'judge says 0.25' }],
      usage: { promptTokens: 1234, completionTokens: 56, costUsd: 0.987 },
    },
  });
}

const rubric = {
  title: 'Quality',
  questions: [
    { id: 'criteria', type: 'criteria', prompt: 'Criteria' },
    { id: 'quality', type: 'likert', prompt: 'Quality', points: 5, anchors: { '1': 'bad', '5': 'great' } },
  ],
};
const answers = { criteria: { tests_pass: 'pass', minimal: 'fail' }, quality: 4 };

async function reviewer(expertise: string[] = []) {
  const id = randomUUID();
  await db().user.create({ data: { id, email: `${id}@x.test`, name: 'R', role: 'reviewer', expertise } });
  return { id, expertise };
}

async function setup(mode: 'single' | 'pairwise', blind = { hidePolicy: true, hideReward: true }) {
  const project = await ensureProject({ slug: 'p', name: 'p' });
  const suffixes = mode === 'pairwise' ? ['', '-b'] : [''];
  for (const s of suffixes) {
    await storeTrajectory(project.id, prepareTrajectory(trajectory(s), { policy: `secret-policy-name${s}` }), {
      source: null,
      sourceWhere: null,
      importedById: null,
    });
  }
  const campaign = await campaignOnRubric(project.id, rubric, { mode, overlap: 2, minCoverage: 0.5, blind });
  return { campaign };
}

describe('the blind assignment view', () => {
  beforeEach(resetDatabase);

  it('never contains the policy, the reward or the judges when the campaign hides them', async () => {
    const { campaign } = await setup('single');
    const r = await reviewer();
    const claim = (await claimNextItem(campaign.id, r, new Date()))!;
    const view = await viewAssignment(claim.assignmentId, r.id);
    const json = JSON.stringify(view);
    for (const secret of SECRETS) expect(json, secret).not.toContain(secret);
    expect(json).not.toContain('0.73');
    expect(json).not.toContain('0.987');
    expect(view.videos).toHaveLength(1);
    expect(view.videos[0]!.header.policy).toBe('Policy hidden');
    expect(view.videos[0]!.outcome.reward).toBeNull();
    expect(view.task.criteria).toEqual([
      { key: 'tests_pass', text: 'Tests pass', verdict: null },
      { key: 'minimal', text: 'The fix is minimal', verdict: null },
    ]);
    expect(view.rubric.definition.title).toBe('Quality');
    expect(view.campaign).toMatchObject({ mode: 'single', minCoverage: 0.5, blind: { hidePolicy: true, hideReward: true } });
    expect(view.myReview).toBeNull();
  });

  it('gives the full blind transcript: every step in full, no policy, usage or call ids when the policy is hidden', async () => {
    const project = await ensureProject({ slug: 'p', name: 'p' });
    const t = buildTrajectory({
      format: 'openai',
      task: { name: 'derive', instruction: 'Derive the period.' },
      policy: { model: 'secret-model-7b', checkpoint: 'ckpt-secret-0042', agent: 'secret-agent-x' },
      steps: [
        { source: 'user', text: 'Derive the period.' },
        {
          source: 'agent',
          text: `**Equilibria.** ${'A long derivation line. '.repeat(80)}$$T = 2\\pi\\sqrt{\\ell/g}$$`,
          reasoning: 'first I think\nthen more',
          toolCalls: [{ id: 'call-secret-policy-name', name: 'python', arguments: { code: 'print(1)' } }],
          usage: { promptTokens: 1234, completionTokens: 56, costUsd: 0.987 },
        },
        { source: 'tool', text: '', observations: [{ toolCallId: 'call-secret-policy-name', content: 'x'.repeat(5000), isError: false }] },
      ],
      extra: { externalId: 'run-secret-policy-name', verifier: { reward: 0.73, components: {} } },
    });
    await storeTrajectory(project.id, prepareTrajectory(t, { policy: 'secret-policy-name' }), {
      source: null,
      sourceWhere: null,
      importedById: null,
    });
    const version = await saveRubricVersion(project.id, 'r', rubric, null);
    const open = async (blind: { hidePolicy: boolean; hideReward: boolean }) => {
      const campaign = await createCampaign(
        project.id,
        { name: `c-${blind.hidePolicy}`, mode: 'single', rubricVersionId: version.versionId, overlap: 1, blind },
        null,
      );
      const r = await reviewer();
      const claim = (await claimNextItem(campaign.id, r, new Date()))!;
      return (await viewAssignment(claim.assignmentId, r.id)).transcripts;
    };

    const [hidden] = await open({ hidePolicy: true, hideReward: true });
    const json = JSON.stringify(hidden);
    for (const secret of [...SECRETS, 'call-secret', '0.987', '1234', '0.73']) expect(json, secret).not.toContain(secret);
    expect(hidden!.map((s) => [s.index, s.source, s.actor])).toEqual([
      [0, 'user', 'user'],
      [1, 'agent', 'agent'],
      [2, 'tool', 'tool'],
    ]);
    // in full: not the video's 700-character excerpt, the whole 5,000-character output
    expect(hidden![1]!.text.length).toBeGreaterThan(1900);
    expect(hidden![1]!.text).toContain('$$T = 2\\pi');
    expect(hidden![1]!.reasoning).toBe('first I think\nthen more');
    // the program as code, not escaped JSON (issue 43 §3)
    expect(hidden![1]!.toolCalls).toEqual([{ name: 'python', arguments: '', code: { language: 'python', text: 'print(1)' } }]);
    expect(hidden![2]!.observations).toEqual([{ toolName: 'python', content: 'x'.repeat(5000), isError: false }]);
    for (const step of hidden!)
      expect(Object.keys(step).sort()).toEqual([
        'actor',
        'diffs',
        'index',
        'observations',
        'reasoning',
        'source',
        'text',
        'timestamp',
        'toolCalls',
      ]);

    // the same trajectory with the policy shown names the agent (the check above is not vacuous)
    const [shown] = await open({ hidePolicy: false, hideReward: false });
    expect(shown![1]!.actor).toBe('secret-agent-x');
  });

  it('reads the stored props in its own statement, under the mask the blind settings give; never a stale row', async () => {
    const { campaign } = await setup('single');
    const r = await reviewer();
    const claim = (await claimNextItem(campaign.id, r, new Date()))!;
    const first = await viewAssignment(claim.assignmentId, r.id); // first sight: derived and stored
    const seen: (StoredVideoTexts | null)[] = [];
    const record: VideoLookup = async (id, blind, pacing, stored) => {
      seen.push(stored);
      return trajectoryVideo(id, { blind, pacing });
    };
    const view = () => assignmentView(claim.assignmentId, r.id, record, undefined, true);
    await view();
    expect(seen[0]?.blindMask).toBe('both');
    expect(JSON.parse(seen[0]!.props)).toEqual(first.videos[0]);
    expect(JSON.parse(seen[0]!.transcript)).toEqual(first.transcripts[0]);
    expect(await viewAssignment(claim.assignmentId, r.id)).toEqual(first);
    // the statement's mask is the one blindSettings gives, for every shape the column may hold
    const shapes = [
      { hidePolicy: false, hideReward: false },
      { hidePolicy: true, hideReward: false },
      { hidePolicy: false, hideReward: true },
      { hidePolicy: false },
      {},
      { hidePolicy: 'yes', hideReward: false },
      [],
    ];
    for (const blind of shapes) {
      await db().campaign.update({ where: { id: campaign.id }, data: { blind } });
      await view(); // stores the row of this mask (when it is new)
      seen.length = 0;
      const shown = await view();
      expect(seen[0]?.blindMask, JSON.stringify(blind)).toBe(blindMaskOf(blindSettings.parse(blind)));
      expect(JSON.parse(seen[0]!.props)).toEqual(shown.videos[0]);
    }
    // an edit of the task makes the stored row stale: the statement reads none (the lookup derives again)
    await db().task.updateMany({ data: { instruction: 'Fix the failing test, now.' } });
    seen.length = 0;
    await view();
    expect(seen[0]).toBeNull();
    // and without withStored (the review page, which sends heads) no props text is read at all
    seen.length = 0;
    await assignmentView(claim.assignmentId, r.id, record);
    expect(seen[0]).toBeNull();
  });

  it('shows what the campaign does not hide', async () => {
    const { campaign } = await setup('single', { hidePolicy: false, hideReward: false });
    const r = await reviewer();
    const claim = (await claimNextItem(campaign.id, r, new Date()))!;
    const view = await viewAssignment(claim.assignmentId, r.id);
    expect(view.videos[0]!.header.policy).toBe('secret-policy-name');
    expect(view.videos[0]!.outcome.reward).toBe(0.73);
    expect(view.task.criteria[0]!.verdict).toBe(true);
  });

  it('gives a reviewer their own current answer for revising, never another reviewer’s', async () => {
    const { campaign } = await setup('single');
    const [alice, bob] = [await reviewer(), await reviewer()];
    const a = (await claimNextItem(campaign.id, alice, new Date()))!;
    const b = (await claimNextItem(campaign.id, bob, new Date()))!;
    expect(a.campaignItemId).toBe(b.campaignItemId);
    const frames = (await framesForAssignment(a.assignmentId, alice.id))[0]!;
    const watched = { ranges: [[0, frames]] as [number, number][], speeds: [2], seeks: 1 };
    await submitReview(
      alice.id,
      {
        assignmentId: a.assignmentId,
        idempotencyKey: randomUUID(),
        answers,
        evidence: [{ frame: 3, stepIndex: 0, note: 'alice saw this', wrongStep: false }],
        coverage: watched,
      },
      frames,
      new Date(),
    );

    const bobView = JSON.stringify(await viewAssignment(b.assignmentId, bob.id));
    expect(bobView).not.toContain('alice saw this');
    expect(JSON.parse(bobView).myReview).toBeNull();

    const aliceView = await viewAssignment(a.assignmentId, alice.id);
    expect(aliceView.myReview).toMatchObject({ revision: 1, answers, evidence: [{ frame: 3, note: 'alice saw this' }] });
    expect(aliceView.assignment.status).toBe('submitted');

    // a revision replaces the current answer and keeps the first
    await submitReview(
      alice.id,
      { assignmentId: a.assignmentId, idempotencyKey: randomUUID(), answers: { ...answers, quality: 2 }, coverage: watched },
      frames,
      new Date(),
    );
    expect((await viewAssignment(a.assignmentId, alice.id)).myReview).toMatchObject({ revision: 2, answers: { quality: 2 } });
    expect(await db().review.count({ where: { assignmentId: a.assignmentId } })).toBe(2);

    // the reviews list: a reviewer's own only, a lead's everyone's
    expect((await listReviews({ campaignId: campaign.id, limit: 100 }, bob.id)).reviews).toHaveLength(0);
    expect((await listReviews({ campaignId: campaign.id, limit: 100 }, alice.id)).reviews).toHaveLength(1);
    expect((await listReviews({ campaignId: campaign.id, limit: 100 }, null)).reviews.map((r) => r.revision)).toEqual([2]);
  });

  it('refuses another reviewer’s assignment: no view, no submit, no skip, no frames', async () => {
    const { campaign } = await setup('single');
    const [alice, mallory] = [await reviewer(), await reviewer()];
    const a = (await claimNextItem(campaign.id, alice, new Date()))!;
    await expect(viewAssignment(a.assignmentId, mallory.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(framesForAssignment(a.assignmentId, mallory.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      submitReview(
        mallory.id,
        { assignmentId: a.assignmentId, idempotencyKey: randomUUID(), answers, coverage: { ranges: [[0, 10_000]], speeds: [], seeks: 0 } },
        100,
        new Date(),
      ),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(skipAssignment(a.assignmentId, mallory.id, 'not mine', new Date())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await db().assignment.findUniqueOrThrow({ where: { id: a.assignmentId }, select: { status: true } })).toEqual({
      status: 'claimed',
    });
    await expect(viewAssignment('no-such-id', alice.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('pairwise: both videos blind, in the screen order the server randomised, and the comparison read back in screen terms', async () => {
    const { campaign } = await setup('pairwise');
    const r = await reviewer();
    const claim = (await claimNextItem(campaign.id, r, new Date()))!;
    const view = await viewAssignment(claim.assignmentId, r.id);
    const json = JSON.stringify(view);
    for (const secret of SECRETS) expect(json, secret).not.toContain(secret);
    expect(json).not.toContain('swapSides');
    expect(view.videos).toHaveLength(2);
    // the left video is B when the sides are swapped (B's step text ends in "-b")
    const leftText = JSON.stringify(view.videos[0]!.scenes);
    expect(leftText.includes('I will run the tests -b')).toBe(claim.swapSides);

    const frames = await framesForAssignment(claim.assignmentId, r.id);
    const cover = (n: number) => ({ ranges: [[0, n]] as [number, number][], speeds: [1], seeks: 0 });
    await submitComparison(
      r.id,
      {
        assignmentId: claim.assignmentId,
        idempotencyKey: randomUUID(),
        preference: -1,
        rationale: 'the left one is cleaner',
        criteria: { left: { tests_pass: 'pass', minimal: 'pass' }, right: { tests_pass: 'fail', minimal: 'pass' } },
        evidence: [{ frame: 1, stepIndex: 0, note: 'left starts well', side: 'a', wrongStep: false }],
        coverage: { left: cover(frames[0]!), right: cover(frames[1]!) },
      },
      { left: frames[0]!, right: frames[1]! },
      new Date(),
    );
    const again = await viewAssignment(claim.assignmentId, r.id);
    expect(again.myComparison).toMatchObject({
      revision: 1,
      preference: -1,
      criteria: { left: { tests_pass: 'pass' }, right: { tests_pass: 'fail' } },
      evidence: [{ side: 'a', note: 'left starts well' }],
    });
  });
});
