import { beforeEach, describe, expect, it } from 'vitest';
import { claimNextItem } from '../review/claim-next-item';
import { skipAssignment } from '../review/skip-assignment';
import { getCampaignDetail } from './queries/campaign-detail';
import { campaignFormOptions } from './queries/campaign-form-options';
import { findCampaignIdByName, listCampaigns } from './queries/campaign-list';
import { previewCampaign } from './queries/campaign-preview';
import { setCampaignStatus } from './set-campaign-status';
import { db } from '../db/client';
import { ensureProject } from '../trajectories/queries/projects';
import { submitReview } from '../review/submit-review';
import { listLatestRubrics } from './queries/rubric-list';
import { resetDatabase } from '../db/test/reset';
import { storeTrajectory } from '../ingest/store-trajectory';
import { buildTrajectory } from '../formats/build-trajectory';
import { prepareTrajectory } from '../ingest/prepare-trajectory';
import { createCampaignFromRequest } from './create-campaign-from-request';
import { defaultReviewRubric } from '../review/default-rubric';
import { campaignRequest, refusal, user } from '../db/test/campaign-request';

const criteria = [
  { key: 'tests_pass', text: 'Tests pass', origin: 'verifier' as const, verdict: true },
  { key: 'no_test_edits', text: 'Tests unchanged', origin: 'task' as const, verdict: null },
];

async function store(
  projectId: string,
  task: string,
  checkpoint: string,
  reward: number,
  options: { environment?: string; split?: 'train' | 'eval' } = {},
) {
  const t = buildTrajectory({
    format: 'openai',
    task: {
      name: task,
      instruction: `do ${task}`,
      acceptanceCriteria: criteria,
      environment: options.environment ?? 'terminal-bench',
      split: options.split ?? 'train',
    },
    policy: { model: 'm', checkpoint },
    steps: [{ source: 'agent', text: `${task} by ${checkpoint}` }],
    extra: { verifier: { reward, components: {} } },
  });
  return (await storeTrajectory(projectId, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null })).id;
}

const base = campaignRequest('Sweep');

describe('campaigns for leads: create from a request, preview, list, detail, status', () => {
  let projectId: string;
  let ids: Record<string, string>;

  beforeEach(async () => {
    await resetDatabase();
    projectId = (await ensureProject({ slug: 'p', name: 'P' })).id;
    ids = {
      a1: await store(projectId, 'task-a', 'ckpt-1', 0),
      a2: await store(projectId, 'task-a', 'ckpt-2', 1),
      a3: await store(projectId, 'task-a', 'ckpt-3', 1),
      b1: await store(projectId, 'task-b', 'ckpt-1', 0.5, { split: 'eval' }),
      b2: await store(projectId, 'task-b', 'ckpt-2', 1, { split: 'eval' }),
      c1: await store(projectId, 'task-c', 'ckpt-1', 1, { environment: 'physics' }),
    };
  });

  it('previews what a filter selects: trajectories, tasks and cross-policy pairs, with every condition applied together', async () => {
    expect(await previewCampaign(projectId, 'single', {})).toEqual({ trajectories: 6, tasks: 3, pairs: 4, items: 6 });
    expect(await previewCampaign(projectId, 'pairwise', {})).toMatchObject({ pairs: 4, items: 4 });
    // environment + split together (a split alone must not drop the environment condition)
    expect(await previewCampaign(projectId, 'single', { environment: 'terminal-bench', split: 'eval' })).toMatchObject({
      trajectories: 2,
      tasks: 1,
    });
    expect(await previewCampaign(projectId, 'single', { environment: 'physics', split: 'eval' })).toMatchObject({ trajectories: 0 });
    expect(await previewCampaign(projectId, 'single', { minReward: 0.5, maxReward: 0.9 })).toMatchObject({ trajectories: 1 });
    expect(await previewCampaign(projectId, 'pairwise', { policy: 'm@ckpt-1' })).toMatchObject({ trajectories: 3, pairs: 0, items: 0 });
  });

  it('creates a campaign with an inline rubric (version 1), then reuses that version while the rubric is unchanged, and versions an edit', async () => {
    const lead = await user('lead');
    const first = await createCampaignFromRequest({ ...base, filter: { environment: 'terminal-bench' } }, lead.id, null);
    expect(first).toMatchObject({ mode: 'single', status: 'open', items: 5, rubricVersionCreated: true });

    const again = await createCampaignFromRequest({ ...base, name: 'Same rubric' }, lead.id, null);
    expect(again).toMatchObject({ rubricVersionId: first.rubricVersionId, rubricVersionCreated: false, items: 6 });

    const edited = defaultReviewRubric();
    edited.questions.push({ id: 'minutes', type: 'number', prompt: 'Minutes an expert needs', required: false, min: 0 });
    const third = await createCampaignFromRequest(
      { ...base, name: 'Edited', rubric: { name: 'Agent run review', definition: edited } },
      lead.id,
      null,
    );
    expect(third.rubricVersionCreated).toBe(true);
    expect(third.rubricVersionId).not.toBe(first.rubricVersionId);

    // by version id; the first campaign keeps the version it was created with
    const byId = await createCampaignFromRequest({ ...base, name: 'By id', rubric: { versionId: first.rubricVersionId } }, lead.id, null);
    expect(byId.rubricVersionId).toBe(first.rubricVersionId);
    expect((await getCampaignDetail(first.id, new Date()))!.rubric).toMatchObject({ version: 1, name: 'Agent run review' });
    expect((await getCampaignDetail(third.id, new Date()))!.rubric).toMatchObject({ version: 2 });
    const latest = await listLatestRubrics(projectId);
    expect(latest).toEqual([expect.objectContaining({ name: 'Agent run review', version: 2, campaigns: 4 })]);
    expect((await campaignFormOptions(null))[0]).toMatchObject({
      slug: 'p',
      trajectories: 6,
      environments: ['physics', 'terminal-bench'],
      rubrics: [expect.objectContaining({ version: 2 })],
    });
  });

  it('paces the video for reading when the campaign requires an expertise, unless the lead says otherwise', async () => {
    const lead = await user('lead');
    const pacingOf = async (id: string) => (await db().campaign.findUniqueOrThrow({ where: { id }, select: { pacing: true } })).pacing;
    expect(await pacingOf((await createCampaignFromRequest({ ...base, name: 'Anyone' }, lead.id, null)).id)).toBe('skim');
    expect(
      await pacingOf((await createCampaignFromRequest({ ...base, name: 'Experts', requiredExpertise: ['physics'] }, lead.id, null)).id),
    ).toBe('read');
    expect(
      await pacingOf(
        (await createCampaignFromRequest({ ...base, name: 'Experts, skim', requiredExpertise: ['physics'], pacing: 'skim' }, lead.id, null))
          .id,
      ),
    ).toBe('skim');
    const bad = await refusal(createCampaignFromRequest({ ...base, name: 'Bad', pacing: 'slow' }, lead.id, null));
    expect(bad.field).toBe('pacing');
  });

  it('refuses bad requests saying which field, and leaves nothing behind', async () => {
    const bad = defaultReviewRubric() as unknown as { questions: Record<string, unknown>[] };
    bad.questions[1] = { ...bad.questions[1], prompt: '' };
    expect(await refusal(createCampaignFromRequest({ ...base, rubric: { name: 'r', definition: bad } }, null, null))).toEqual({
      message: 'rubric.definition.questions.1.prompt: every question needs a prompt',
      field: 'rubric.definition.questions.1.prompt',
    });
    const badType = defaultReviewRubric() as unknown as { questions: Record<string, unknown>[] };
    badType.questions[0] = { id: 'x', type: 'slider', prompt: 'p' };
    expect((await refusal(createCampaignFromRequest({ ...base, rubric: { name: 'r', definition: badType } }, null, null))).field).toBe(
      'rubric.definition.questions.0.type',
    );
    const badPoints = defaultReviewRubric() as unknown as { questions: Record<string, unknown>[] };
    badPoints.questions[1] = { ...badPoints.questions[1], points: 1 };
    expect((await refusal(createCampaignFromRequest({ ...base, rubric: { name: 'r', definition: badPoints } }, null, null))).field).toBe(
      'rubric.definition.questions.1.points',
    );

    expect((await refusal(createCampaignFromRequest({ ...base, overlap: 0 }, null, null))).field).toBe('overlap');
    expect((await refusal(createCampaignFromRequest({ ...base, name: ' ' }, null, null))).field).toBe('name');
    expect((await refusal(createCampaignFromRequest({ ...base, filter: { minReward: 1, maxReward: 0 } }, null, null))).field).toBe(
      'filter.minReward',
    );
    expect((await refusal(createCampaignFromRequest({ ...base, project: 'nope' }, null, null))).message).toMatch(/No project named nope/);
    expect(await refusal(createCampaignFromRequest({ ...base, filter: { environment: 'nowhere' } }, null, null))).toMatchObject({
      field: 'filter',
    });
    expect(
      await refusal(createCampaignFromRequest({ ...base, mode: 'pairwise', filter: { policy: 'm@ckpt-1' } }, null, null)),
    ).toMatchObject({
      field: 'filter',
      message: expect.stringMatching(/no pairs/),
    });
    expect(await refusal(createCampaignFromRequest({ ...base, rubric: { versionId: 'missing' } }, null, null))).toMatchObject({
      field: 'rubric.versionId',
    });

    // gold: inside the filter, known question ids, answers that fit
    expect(
      await refusal(
        createCampaignFromRequest(
          { ...base, filter: { environment: 'physics' }, gold: [{ trajectoryId: ids.a1, answers: { overall: 2 } }] },
          null,
          null,
        ),
      ),
    ).toMatchObject({ field: 'gold.0.trajectoryId' });
    expect(
      await refusal(createCampaignFromRequest({ ...base, gold: [{ trajectoryId: ids.a1, answers: { nope: 1 } }] }, null, null)),
    ).toMatchObject({ field: 'gold.0.answers' });
    expect(
      await refusal(createCampaignFromRequest({ ...base, gold: [{ trajectoryId: ids.a1, answers: { overall: 9 } }] }, null, null)),
    ).toMatchObject({ field: 'gold.0.answers.overall' });
    expect(
      await refusal(
        createCampaignFromRequest({ ...base, mode: 'pairwise', gold: [{ trajectoryId: ids.a1, answers: { overall: 2 } }] }, null, null),
      ),
    ).toMatchObject({ field: 'gold' });

    expect(await db().campaign.count()).toBe(0);
    expect(await db().rubricVersion.count()).toBe(0);
  });

  it('lists campaigns with progress and shows per-reviewer progress, gold score and items; closing stops claims, reopening resumes', async () => {
    const lead = await user('lead');
    const created = await createCampaignFromRequest(
      {
        ...base,
        filter: { environment: 'terminal-bench', split: 'train' },
        gold: [{ trajectoryId: ids.a2, answers: { overall: 5, flags: [] } }],
      },
      lead.id,
      null,
    );
    const pair = await createCampaignFromRequest({ ...base, name: 'Pairs', mode: 'pairwise', overlap: 1 }, lead.id, null);
    expect(created.items).toBe(3);
    expect(pair.items).toBe(4);

    const r1 = await user('reviewer');
    const r2 = await user('reviewer');
    const now = new Date();
    const answers = { criteria: { tests_pass: 'pass', no_test_edits: 'pass' }, overall: 5, flags: [] };
    for (let i = 0; i < 3; i++) {
      const claim = (await claimNextItem(created.id, r1, now))!;
      await submitReview(
        r1.id,
        { assignmentId: claim.assignmentId, idempotencyKey: `k-${claim.assignmentId}`, answers, coverage: { ranges: [[0, 100]] } },
        100,
        now,
      );
    }
    const skipped = (await claimNextItem(created.id, r2, now))!;
    await skipAssignment(skipped.assignmentId, r2.id, 'unclear', now);
    await claimNextItem(created.id, r2, now); // a live claim

    const list = await listCampaigns({ projectIds: null, projectId });
    expect(list.map((c) => c.name)).toEqual(['Pairs', 'Sweep']);
    expect(list.find((c) => c.name === 'Sweep')).toMatchObject({
      items: 3,
      overlap: 2,
      reviewsDone: 3,
      reviewsTarget: 6,
      itemsComplete: 0,
      status: 'open',
      rubric: { version: 1 },
    });
    expect(await listCampaigns({ projectIds: null, projectId: 'other' })).toEqual([]);
    expect(await findCampaignIdByName(projectId, 'Pairs')).toBe(pair.id);

    const detail = (await getCampaignDetail(created.id, now))!;
    expect(detail.progress).toEqual({
      items: 3,
      population: 3,
      goldItems: 1,
      reviewsDone: 3,
      reviewsTarget: 6,
      itemsComplete: 0,
      inProgress: 1,
    });
    const byReviewer = new Map(detail.reviewers.map((r) => [r.reviewerId, r]));
    expect(byReviewer.get(r1.id)).toMatchObject({ claimed: 0, submitted: 3, skipped: 0, goldMean: 1, goldCount: 1 });
    expect(byReviewer.get(r2.id)).toMatchObject({ claimed: 1, submitted: 0, skipped: 1, goldMean: null });
    expect(byReviewer.get(r1.id)!.lastActivity).toBe(now.toISOString());
    expect(detail.items).toHaveLength(3);
    expect(detail.items.every((i) => i.reviewCount === 1 && i.task === 'task-a')).toBe(true);
    expect(detail.items.filter((i) => i.isGold)).toHaveLength(1);
    expect(detail.filter).toEqual({ environment: 'terminal-bench', split: 'train' });
    const pairDetail = (await getCampaignDetail(pair.id, now))!;
    expect(pairDetail.items.every((i) => i.b !== null && i.a.policy !== i.b.policy)).toBe(true);

    expect(await setCampaignStatus(created.id, 'closed', lead.id, now)).toEqual({ id: created.id, status: 'closed', changed: true });
    expect(await setCampaignStatus(created.id, 'closed', lead.id, now)).toMatchObject({ changed: false });
    expect((await getCampaignDetail(created.id, now))!.closedAt).toBe(now.toISOString());
    const r3 = await user('reviewer');
    await expect(claimNextItem(created.id, r3, now)).rejects.toThrow(/not open/);
    await setCampaignStatus(created.id, 'open', lead.id, now);
    expect(await claimNextItem(created.id, r3, now)).not.toBeNull();
    await expect(setCampaignStatus('missing', 'open', null, now)).rejects.toThrow(/No such campaign/);
    expect(await getCampaignDetail('missing', now)).toBeNull();
    expect(await db().auditLog.count({ where: { action: { in: ['campaign.close', 'campaign.open'] } } })).toBe(2);
  });
});
