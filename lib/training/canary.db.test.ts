import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectAccess } from '../auth/project-access';
import type { SessionUser } from '../auth/session-user';
import { saveRubricVersion } from '../campaigns/save-rubric-version';
import { db } from '../db/client';
import { codeOf } from '../db/test/error-code';
import { resetDatabase } from '../db/test/reset';
import { user } from '../db/test/campaign-request';
import { env } from '../env';
import { collectInputs } from '../ingest/collect-inputs';
import { importTrajectories } from '../ingest/import-trajectories';
import { installQueue, stopQueueClient } from '../queue/boss';
import { trainingCanaryJob } from '../queue/jobs/training-canary';
import { videoRenderJob } from '../queue/jobs/video-render';
import { estimatePpiMean } from '../stats/ppi';
import { updateProjectSettings } from '../trajectories/update-project-settings';
import { defaultReviewRubric } from '../review/default-rubric';
import { canaryAfterImport } from './canary-after-import';
import { childIsA, openCanaryCampaign } from './open-canary-campaign';
import { viewCanaryComparison } from './view-canary-comparison';

const url = () => env().DATABASE_URL!;

let seq = 0;
/** A trajectory of `policyId` on task `taskId`, made directly (reward and judge scores as given). */
async function trajectory(projectId: string, taskId: string, policyId: string, reward: number | null = null, judge?: number) {
  const t = await db().trajectory.create({
    data: {
      projectId,
      taskId,
      policyId,
      sourceFormat: 'harbor',
      contentHash: `h${++seq}-${randomUUID()}`,
      stepCount: 1,
      verifierReward: reward,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)),
      ...(judge !== undefined ? { judgeScores: { create: [{ judge: 'gpt-judge', score: judge }] } } : {}),
    },
    select: { id: true },
  });
  return t.id;
}

/** A project with tasks t1..tN, a base policy, a checkpoint of it made by a run (whose labels came from `campaignId`). */
async function lineage(slug: string, tasks: number, campaignId: string | null = null) {
  const project = await db().project.create({ data: { slug, name: slug } });
  const taskIds: string[] = [];
  for (let i = 1; i <= tasks; i++)
    taskIds.push(
      (
        await db().task.create({
          data: { projectId: project.id, name: `t${i}`, instruction: `do ${i}`, split: 'eval' },
          select: { id: true },
        })
      ).id,
    );
  const parent = await db().policy.create({ data: { projectId: project.id, name: 'base' } });
  const run = await db().trainingRun.create({
    data: {
      projectId: project.id,
      recipe: 'trl-dpo',
      basePolicy: 'base',
      basePolicyId: parent.id,
      exportId: 'e',
      datasetSha256: 's',
      datasetRows: 1,
      campaignId,
    },
  });
  const child = await db().policy.create({
    data: { projectId: project.id, name: 'base+ckpt1', parentId: parent.id, trainingRunId: run.id },
  });
  return { projectId: project.id, taskIds, parent: parent.id, child: child.id, runId: run.id };
}

async function canaryItems(campaignId: string) {
  return db().campaignItem.findMany({
    where: { campaignId },
    select: { id: true, trajectoryId: true, trajectoryBId: true, isGold: true, trajectory: { select: { taskId: true } } },
  });
}

function member(projectId: string): SessionUser {
  return {
    id: 'u',
    email: 'u@x.test',
    name: 'u',
    role: 'reviewer',
    expertise: [],
    access: projectAccess('reviewer', [{ projectId, role: 'reviewer' }]),
  };
}

describe('the canary campaign of a checkpoint (training.canary)', () => {
  beforeAll(async () => {
    await resetDatabase();
    await installQueue(url(), [trainingCanaryJob, videoRenderJob]);
  });
  afterAll(async () => {
    await stopQueueClient();
  });

  it('opens one blind pairwise campaign on the shared tasks; a rerun adds nothing; a new task is added', async () => {
    const l = await lineage('canary-a', 3);
    const [t1, t2, t3] = l.taskIds as [string, string, string];
    await trajectory(l.projectId, t1, l.parent); // older: the newest of each side is taken
    const p1 = await trajectory(l.projectId, t1, l.parent);
    const p2 = await trajectory(l.projectId, t2, l.parent);
    const p3 = await trajectory(l.projectId, t3, l.parent);
    const c1 = await trajectory(l.projectId, t1, l.child);
    const c2 = await trajectory(l.projectId, t2, l.child);
    // a pairwise gold item elsewhere in the project is mixed in
    const other = await db().policy.create({ data: { projectId: l.projectId, name: 'other' } });
    const o3 = await trajectory(l.projectId, t3, other.id);
    const rubric = await saveRubricVersion(l.projectId, 'pairs', defaultReviewRubric(), null);
    await db().campaign.create({
      data: {
        projectId: l.projectId,
        name: 'gold pairs',
        mode: 'pairwise',
        rubricVersionId: rubric.versionId,
        items: { create: [{ trajectoryId: p3, trajectoryBId: o3, isGold: true, goldAnswers: { preference: 2 } }] },
      },
    });

    const first = await openCanaryCampaign(l.projectId, [l.child]);
    const campaigns = await db().campaign.findMany({ where: { projectId: l.projectId, name: { startsWith: 'Canary' } } });
    expect(campaigns).toHaveLength(1);
    const campaign = campaigns[0]!;
    expect(campaign).toMatchObject({
      name: 'Canary: base+ckpt1 vs base',
      mode: 'pairwise',
      status: 'open',
      overlap: 2,
      sampling: 'picked',
    });
    expect(campaign.blind).toMatchObject({ hidePolicy: true });
    expect(campaign.filter).toMatchObject({ canary: { child: l.child, parent: l.parent } });
    expect((await db().rubricVersion.findUnique({ where: { id: campaign.rubricVersionId }, include: { rubric: true } }))?.rubric.name).toBe(
      'Agent run review',
    );
    expect(first).toEqual([
      { campaignId: campaign.id, name: campaign.name, childPolicyId: l.child, parentPolicyId: l.parent, created: true, added: 3 },
    ]);
    expect((await db().trainingRun.findUnique({ where: { id: l.runId } }))?.canaryCampaignId).toBe(campaign.id);

    let items = await canaryItems(campaign.id);
    const pairs = items.filter((i) => !i.isGold);
    expect(pairs.map((i) => i.trajectory.taskId).sort()).toEqual([t1, t2].sort());
    for (const [c, p] of [
      [c1, p1],
      [c2, p2],
    ] as const) {
      // the newest trajectory of each side, new shown as A or B by the hash
      expect(pairs).toContainEqual(
        expect.objectContaining(childIsA(c, p) ? { trajectoryId: c, trajectoryBId: p } : { trajectoryId: p, trajectoryBId: c }),
      );
    }
    expect(items.filter((i) => i.isGold)).toEqual([expect.objectContaining({ trajectoryId: p3, trajectoryBId: o3 })]);

    // a rerun (either side touched) adds nothing
    expect(await openCanaryCampaign(l.projectId, [l.parent, l.child])).toEqual([
      expect.objectContaining({ campaignId: campaign.id, created: false, added: 0 }),
    ]);
    expect(await canaryItems(campaign.id)).toHaveLength(3);

    // the checkpoint's trajectory on t3 arrives (and a newer one on t1, whose task is already in): only t3 is added
    const c3 = await trajectory(l.projectId, t3, l.child);
    await trajectory(l.projectId, t1, l.child);
    expect(await openCanaryCampaign(l.projectId, [l.child])).toEqual([
      expect.objectContaining({ campaignId: campaign.id, created: false, added: 1 }),
    ]);
    items = await canaryItems(campaign.id);
    expect(
      items
        .filter((i) => !i.isGold)
        .map((i) => i.trajectory.taskId)
        .sort(),
    ).toEqual([t1, t2, t3].sort());
    expect(items.filter((i) => !i.isGold && [i.trajectoryId, i.trajectoryBId].includes(c3))).toHaveLength(1);
    expect(await db().campaign.count({ where: { projectId: l.projectId, name: { startsWith: 'Canary' } } })).toBe(1);
    const filter = (await db().campaign.findUnique({ where: { id: campaign.id } }))!.filter as { trajectoryIds: string[] };
    expect(filter.trajectoryIds).toContain(c3);
    expect(await db().auditLog.count({ where: { action: 'training.canary.extend', targetId: campaign.id } })).toBeGreaterThanOrEqual(1);
  });

  it('two checks of one checkpoint at once (two workers) open one campaign between them', async () => {
    const l = await lineage('canary-race', 2);
    for (const t of l.taskIds) {
      await trajectory(l.projectId, t, l.parent);
      await trajectory(l.projectId, t, l.child);
    }
    const [a, b] = await Promise.all([openCanaryCampaign(l.projectId, [l.child]), openCanaryCampaign(l.projectId, [l.parent])]);
    expect(await db().campaign.count({ where: { projectId: l.projectId } })).toBe(1);
    expect(a[0]!.campaignId).toBe(b[0]!.campaignId);
    expect([a[0]!.created, b[0]!.created].sort()).toEqual([false, true]);
    expect(await canaryItems(a[0]!.campaignId)).toHaveLength(2);
  });

  it('takes the rubric, expertise and overlap of the campaign the run trained on', async () => {
    const project = await db().project.create({ data: { slug: 'canary-src', name: 'src' } });
    const rubric = await saveRubricVersion(project.id, 'expert', defaultReviewRubric(), null);
    const source = await db().campaign.create({
      data: {
        projectId: project.id,
        name: 'labels',
        mode: 'single',
        rubricVersionId: rubric.versionId,
        overlap: 3,
        requiredExpertise: ['physics'],
      },
    });
    const task = await db().task.create({ data: { projectId: project.id, name: 't1', instruction: 'x' } });
    const parent = await db().policy.create({ data: { projectId: project.id, name: 'base' } });
    const run = await db().trainingRun.create({
      data: {
        projectId: project.id,
        recipe: 'trl-dpo',
        basePolicy: 'base',
        exportId: 'e',
        datasetSha256: 's',
        datasetRows: 1,
        campaignId: source.id,
      },
    });
    const child = await db().policy.create({ data: { projectId: project.id, name: 'ck', parentId: parent.id, trainingRunId: run.id } });
    await trajectory(project.id, task.id, parent.id);
    await trajectory(project.id, task.id, child.id);
    const [opened] = await openCanaryCampaign(project.id, [parent.id]);
    const campaign = await db().campaign.findUnique({ where: { id: opened!.campaignId } });
    expect(campaign).toMatchObject({ rubricVersionId: rubric.versionId, overlap: 3, requiredExpertise: ['physics'] });
  });

  it('nothing when the project turned the canary off, nor for policies outside a lineage; the import hook asks only for lineage policies', async () => {
    const l = await lineage('canary-off', 1);
    await trajectory(l.projectId, l.taskIds[0]!, l.parent);
    await trajectory(l.projectId, l.taskIds[0]!, l.child);
    const plain = await db().policy.create({ data: { projectId: l.projectId, name: 'plain' } });

    expect(await canaryAfterImport(url(), l.projectId, ['plain'])).toEqual([]);
    expect(await canaryAfterImport(url(), l.projectId, ['base+ckpt1', 'plain', 'base+ckpt1'])).toEqual([l.child]);
    const jobs = await db().$queryRaw<{ data: unknown }[]>`SELECT data FROM pgboss.job WHERE name = 'training.canary'`;
    expect(jobs.map((j) => j.data)).toEqual([{ projectId: l.projectId, policyIds: [l.child] }]);
    expect(await openCanaryCampaign(l.projectId, [plain.id])).toEqual([]);

    await updateProjectSettings(l.projectId, { canary: false }, null);
    expect(await canaryAfterImport(url(), l.projectId, ['base'])).toEqual([]);
    expect(await openCanaryCampaign(l.projectId, [l.child])).toEqual([]);
    expect(await db().campaign.count({ where: { projectId: l.projectId } })).toBe(0);
  });

  it("an import of a checkpoint's trajectories (the CLI and API path: importTrajectories with followUps) requests the check; an ordinary one does not", async () => {
    const l = await lineage('canary-import', 0);
    // two files (the same bytes imported again would be skipped unparsed)
    const fixture = (...p: string[]) => path.join(import.meta.dirname, '..', 'formats', 'fixtures', ...p);
    const collect = (file: string) => collectInputs([file], { format: 'auto', maxBytes: 1 << 30, readStdin: async () => '' });
    const options = { projectId: l.projectId, format: 'auto' as const, importedById: null, followUps: { databaseUrl: url() } };
    const jobs = () => db().$queryRaw<{ data: { projectId: string } }[]>`SELECT data FROM pgboss.job WHERE name = 'training.canary'`;
    const mine = async () => (await jobs()).filter((j) => j.data.projectId === l.projectId).map((j) => j.data);

    const plain = await importTrajectories(collect(fixture('tau2', 'simulation.json')), { ...options, policy: 'someone-else' });
    expect(plain.imported).toBeGreaterThan(0);
    expect(await mine()).toEqual([]);
    const ckpt = await importTrajectories(collect(fixture('tau2', 'airline-results.json')), {
      ...options,
      policy: 'base+ckpt1',
      split: 'eval',
    });
    expect(ckpt.imported).toBeGreaterThan(0);
    expect(await mine()).toEqual([{ projectId: l.projectId, policyIds: [l.child] }]);
  });

  it('the comparison: reward difference, judge, PPI and human win rates as computed by hand, and the decision', async () => {
    const l = await lineage('canary-cmp', 4);
    const reviewer = await user('reviewer');
    const reviewer2 = await user('reviewer');
    // child/parent rewards 1/0, 1/1, 0/1, 1/0 -> differences 1, 0, -1, 1; judge .9/.2 win, .5/.5 tie, .1/.8 loss, .7/.3 win
    const rewards: [number, number, number, number][] = [
      [1, 0, 0.9, 0.2],
      [1, 1, 0.5, 0.5],
      [0, 1, 0.1, 0.8],
      [1, 0, 0.7, 0.3],
    ];
    for (const [i, [cr, pr, cj, pj]] of rewards.entries()) {
      await trajectory(l.projectId, l.taskIds[i]!, l.parent, pr, pj);
      await trajectory(l.projectId, l.taskIds[i]!, l.child, cr, cj);
    }
    const [opened] = await openCanaryCampaign(l.projectId, [l.child]);
    const items = await canaryItems(opened!.campaignId);
    const childA = new Map(
      (
        await db().trajectory.findMany({ where: { id: { in: items.map((i) => i.trajectoryId) } }, select: { id: true, policyId: true } })
      ).map((t) => [t.id, t.policyId === l.child]),
    );
    const byTask = new Map(items.map((i) => [i.trajectory.taskId, i]));
    // votes in new-vs-parent terms: t1 new, new (two reviewers); t2 new; t3 parent; t4 none
    const votes: [number, string, 'new' | 'parent'][] = [
      [0, reviewer.id, 'new'],
      [0, reviewer2.id, 'new'],
      [1, reviewer.id, 'new'],
      [2, reviewer.id, 'parent'],
    ];
    for (const [task, reviewerId, winner] of votes) {
      const item = byTask.get(l.taskIds[task]!)!;
      const aIsNew = childA.get(item.trajectoryId)!;
      const preference = (winner === 'new') === aIsNew ? -2 : 2; // negative: A better
      const assignment = await db().assignment.create({
        data: { campaignItemId: item.id, reviewerId, status: 'submitted', leaseExpiresAt: new Date() },
      });
      await db().pairwiseComparison.create({
        data: {
          assignmentId: assignment.id,
          campaignItemId: item.id,
          reviewerId,
          preference,
          rationale: 'r',
          idempotencyKey: randomUUID(),
        },
      });
    }

    const view = await viewCanaryComparison(member(l.projectId), l.runId);
    expect(view).toMatchObject({
      child: { policyId: l.child },
      parent: { policyId: l.parent },
      tasks: 4,
      campaign: { id: opened!.campaignId, items: 4 },
    });
    // mean .25, s = sqrt(2.75/3), t(3) = 3.182: .25 -+ 3.182 * s / 2
    expect(view.rewardDifference.n).toBe(4);
    expect(view.rewardDifference.estimate).toBeCloseTo(0.25, 10);
    expect(view.rewardDifference.ci![0]).toBeCloseTo(-1.27327, 4);
    expect(view.rewardDifference.ci![1]).toBeCloseTo(1.77327, 4);
    // judge: 2 wins, 1 tie, 1 loss: 2.5 / 4, Wilson [0.21943, 0.90810]
    expect(view.judgeWinRate.n).toBe(4);
    expect(view.judgeWinRate.estimate).toBe(0.625);
    expect(view.judgeWinRate.ci![0]).toBeCloseTo(0.21943, 4);
    expect(view.judgeWinRate.ci![1]).toBeCloseTo(0.9081, 4);
    // human: 3 of 4 votes for new, Wilson [0.30064, 0.95441]
    expect(view.humanWinRate).toMatchObject({ n: 4, estimate: 0.75 });
    expect(view.humanWinRate.ci![0]).toBeCloseTo(0.30064, 4);
    expect(view.humanWinRate.ci![1]).toBeCloseTo(0.95441, 4);
    // PPI: the judge's outcome per task (1, .5, 0, 1) as prediction, the task's mean vote (1, 1, 0, none) as label
    const ppi = estimatePpiMean([
      { prediction: 1, label: 1 },
      { prediction: 0.5, label: 1 },
      { prediction: 0, label: 0 },
      { prediction: 1, label: null },
    ]);
    expect(view.ppiWinRate).toEqual({ estimate: ppi.ppi!.estimate, ci: [ppi.ppi!.low, ppi.ppi!.high], n: 3, population: 4 });
    // the default rule (ppi above 0.5): hold unless the interval clears 0.5
    const ppiVerdict = ppi.ppi!.low > 0.5 ? 'promote' : ppi.ppi!.high < 0.5 ? 'reject' : 'hold';
    expect(view.decision).toMatchObject({ verdict: ppiVerdict, rule: { figure: 'ppi', above: 0.5 } });

    // the human figure's rule: 0.75 [0.30, 0.95] holds; at 0.25 above the lower bound 0.30 promotes
    await updateProjectSettings(l.projectId, { canaryRule: { figure: 'human', above: 0.5 } }, null);
    const hold = await viewCanaryComparison(member(l.projectId), l.runId);
    // ((1.96 * .5 + .8416 * sqrt(.1875)) / .25)^2 = 28.9 -> 29 needed, 4 in hand
    expect(hold.decision).toMatchObject({ verdict: 'hold', moreVotes: 25 });
    expect(hold.decision.sentence).toBe(
      'Hold: the human win rate 0.75 [0.30, 0.95] (n = 4) includes 0.50; about 25 more votes would decide it.',
    );
    await updateProjectSettings(l.projectId, { canaryRule: { figure: 'human', above: 0.25 } }, null);
    expect((await viewCanaryComparison(member(l.projectId), l.runId)).decision.verdict).toBe('promote');
    await updateProjectSettings(l.projectId, { canaryRule: { figure: 'judge', above: 0.95 } }, null);
    expect((await viewCanaryComparison(member(l.projectId), l.runId)).decision.verdict).toBe('reject');

    // outside the project: as if the run did not exist
    const outsider: SessionUser = { ...member(l.projectId), access: projectAccess('reviewer', []) };
    expect(await codeOf(viewCanaryComparison(outsider, l.runId))).toBe('NOT_FOUND');
    expect(await codeOf(viewCanaryComparison(member(l.projectId), 'nope'))).toBe('NOT_FOUND');
  });
});
