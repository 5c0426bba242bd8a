import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectAccess } from '../auth/project-access';
import type { SessionUser } from '../auth/session-user';
import { db } from '../db/client';
import { resetDatabase } from '../db/test/reset';
import { user } from '../db/test/campaign-request';
import { env } from '../env';
import { installQueue, stopQueueClient } from '../queue/boss';
import { trainingCanaryJob } from '../queue/jobs/training-canary';
import { videoRenderJob } from '../queue/jobs/video-render';
import { updateProjectSettings } from '../trajectories/update-project-settings';
import { openCanaryCampaign } from './open-canary-campaign';
import { viewCanaryComparison } from './view-canary-comparison';
import { viewCanaryComparisons } from './view-canary-comparisons';
import { viewHillClimb } from './view-hill-climb';

let seq = 0;
async function trajectory(
  projectId: string,
  taskId: string,
  policyId: string,
  reward: number | null,
  judges: [string, number | null, string?][],
) {
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
      judgeScores: { create: judges.map(([judge, score, label]) => ({ judge, score, label: label ?? null })) },
    },
    select: { id: true },
  });
  return t.id;
}

async function run(projectId: string, basePolicyId: string) {
  return db().trainingRun.create({
    data: { projectId, recipe: 'trl-dpo', basePolicy: 'b', basePolicyId, exportId: 'e', datasetSha256: 's', datasetRows: 1 },
  });
}

const admin: SessionUser = { id: 'a', email: 'a@x.test', name: 'a', role: 'admin', expertise: [], access: projectAccess('admin', []) };

/* The hill-climb page reads every checkpoint's comparison at once (issue 41): it must give what the run page's per-run view gives. */
describe('the canary comparisons of many checkpoints at once', () => {
  beforeAll(async () => {
    await resetDatabase();
    await installQueue(env().DATABASE_URL!, [trainingCanaryJob, videoRenderJob]);
  });
  afterAll(async () => {
    await stopQueueClient();
  });

  it('agree with the per-run view for every checkpoint; a run whose figures cannot be computed is unavailable, the others are not', async () => {
    const project = await db().project.create({ data: { slug: 'cmp-many', name: 'many' } });
    const tasks: string[] = [];
    for (let i = 1; i <= 6; i++)
      tasks.push((await db().task.create({ data: { projectId: project.id, name: `t${7 - i}`, instruction: 'x', split: 'eval' } })).id);
    // a chain base -> ck1 -> ck2 -> ck3 -> ck4, each checkpoint made by a run; a fifth run has no checkpoint yet
    const base = await db().policy.create({ data: { projectId: project.id, name: 'base' } });
    const chain = [base.id];
    const runs: string[] = [];
    for (let k = 1; k <= 4; k++) {
      const r = await run(project.id, chain.at(-1)!);
      runs.push(r.id);
      chain.push(
        (await db().policy.create({ data: { projectId: project.id, name: `ck${k}`, parentId: chain.at(-1)!, trainingRunId: r.id } })).id,
      );
    }
    const pending = await run(project.id, chain.at(-1)!);

    // each policy ran some tasks (rewards, two judges, a pass/fail label, some missing); an older trajectory is ignored
    for (const [p, policyId] of chain.entries()) {
      for (const [i, taskId] of tasks.entries()) {
        if ((p + i) % 5 === 4) continue;
        if (i === 0) await trajectory(project.id, taskId, policyId, 0, [['j1', 0.1]]);
        const reward = (p * 3 + i) % 6 === 0 ? null : ((p * 7 + i * 3) % 5) / 4;
        const judges: [string, number | null, string?][] = [['j1', ((p * 5 + i * 2) % 7) / 6]];
        if (i % 2 === 0) judges.push(['j2', null, (p + i) % 3 === 0 ? 'fail' : 'pass']);
        if (i % 3 === 0) judges.push(['j1', ((p + i) % 4) / 3]);
        await trajectory(project.id, taskId, policyId, reward, judges);
      }
    }
    // the canary campaigns (the job's work), and votes from two reviewers on most items
    await openCanaryCampaign(project.id, chain);
    const reviewers = [await user('reviewer'), await user('reviewer')];
    const items = await db().campaignItem.findMany({
      where: { campaign: { projectId: project.id }, isGold: false },
      orderBy: { id: 'asc' },
    });
    expect(items.length).toBeGreaterThan(10);
    for (const [n, item] of items.entries())
      for (const [r, reviewer] of reviewers.entries()) {
        if ((n + r) % 4 === 3) continue;
        const assignment = await db().assignment.create({
          data: { campaignItemId: item.id, reviewerId: reviewer.id, status: 'submitted', leaseExpiresAt: new Date() },
        });
        await db().pairwiseComparison.create({
          data: {
            assignmentId: assignment.id,
            campaignItemId: item.id,
            reviewerId: reviewer.id,
            preference: [-2, -1, 0, 1, 2][(n * 3 + r) % 5]!,
            bothBad: (n + r) % 7 === 0,
            isCurrent: (n + r) % 9 !== 5,
            rationale: 'r',
            idempotencyKey: randomUUID(),
          },
        });
      }
    await updateProjectSettings(project.id, { canaryRule: { figure: 'human', above: 0.4 } }, null);

    const all = [...runs, pending.id];
    const batch = await viewCanaryComparisons(admin, project.id, all);
    expect([...batch.keys()]).toEqual(all);
    for (const id of all) {
      const one = await viewCanaryComparison(admin, id);
      expect(batch.get(id)).toEqual({ comparison: one });
    }
    // not vacuous: every checkpoint has shared tasks, judged tasks and votes
    for (const id of runs) {
      const c = batch.get(id)!.comparison!;
      expect(c.tasks).toBeGreaterThan(2);
      expect(c.judgeWinRate.n).toBeGreaterThan(1);
      expect(c.humanWinRate.n).toBeGreaterThan(2);
      expect(c.rewardDifference.n).toBeGreaterThan(1);
    }
    expect(batch.get(pending.id)!.comparison).toMatchObject({ child: null, parent: null, tasks: 0 });

    // a stored reward that is not a number: that checkpoint's figures cannot be computed; the others still are
    await db().$executeRaw`UPDATE trajectory SET "verifierReward" = 'NaN' WHERE "policyId" = ${chain[2]} AND "verifierReward" IS NOT NULL`;
    const other = await db().project.create({ data: { slug: 'cmp-other', name: 'other' } });
    const foreign = await run(other.id, base.id);
    const after = await viewCanaryComparisons(admin, project.id, [...runs, 'gone', foreign.id]);
    // ck2 is the child of runs[1] and the parent of runs[2]: both rest on the NaN reward
    for (const id of [runs[1]!, runs[2]!])
      expect(after.get(id)).toEqual({ unavailable: expect.stringMatching(/^canary comparison of run .* rewardDifference\.estimate: /) });
    for (const id of [runs[0]!, runs[3]!]) expect(after.get(id)).toEqual({ comparison: await viewCanaryComparison(admin, id) });
    expect(after.get('gone')).toEqual({ unavailable: 'The training run is gone.' });
    expect(after.get(foreign.id)).toEqual({ unavailable: 'The training run is gone.' });

    // the hill-climb page: those rows say unavailable, the others show their win rates
    const view = await viewHillClimb(admin, { project: 'cmp-many', figure: 'human' });
    const row = (name: string) => view.checkpoints.find((c) => c.name === name)!;
    for (const name of ['ck2', 'ck3'])
      expect(row(name)).toMatchObject({ winRates: null, winRatesUnavailable: expect.stringContaining('rewardDifference') });
    for (const [name, id] of [
      ['ck1', runs[0]!],
      ['ck4', runs[3]!],
    ] as const) {
      const human = after.get(id)!.comparison!.humanWinRate;
      expect(row(name)).toMatchObject({
        winRatesUnavailable: null,
        winRates: { human: { rate: human.estimate, ci: human.ci, n: human.n } },
      });
      expect(view.chart.find((p) => p.checkpoint === name)).toMatchObject({ value: human.estimate, n: human.n });
    }

    // the caller's access is checked once, for the project
    const outsider: SessionUser = { ...admin, role: 'reviewer', access: projectAccess('reviewer', []) };
    await expect(viewCanaryComparisons(outsider, project.id, runs)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  }, 120_000);
});
