import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { projectAccess } from '../auth/project-access';
import type { SessionUser } from '../auth/session-user';
import { db } from '../db/client';
import { resetDatabase } from '../db/test/reset';
import { seedLabelledProject } from '../db/test/seed-labels';
import { wilson } from '../insight/intervals';
import { listRunsForExports } from './list-runs-for-exports';
import { listRunsForReview } from './list-runs-for-review';
import { MAX_CURVE_POINTS, viewHillClimb } from './view-hill-climb';
import { viewRunLabels } from './view-run-labels';

/**
 * Issue 41, the hill-climb page's reads: the checkpoint lineage, the labels that trained each
 * checkpoint (count, campaigns, reviewers, reviewer-hours, stale), curves downsampled in
 * Postgres to at most 200 points a series, and the eval pass rate with its Wilson interval.
 */
const admin: SessionUser = { id: 'admin', email: 'a@x', name: 'A', role: 'admin', expertise: [], access: projectAccess('admin', []) };

async function run(projectId: string, basePolicy: { id: string; name: string }, exportId = 'export-1') {
  return db().trainingRun.create({
    data: {
      projectId,
      recipe: 'trl-dpo',
      basePolicy: basePolicy.name,
      basePolicyId: basePolicy.id,
      exportId,
      datasetSha256: 'a'.repeat(64),
      datasetRows: 3,
      status: 'succeeded',
    },
  });
}

async function checkpoint(projectId: string, name: string, parentId: string, trainingRunId: string, createdAt: Date) {
  return db().policy.create({ data: { projectId, name, parentId, trainingRunId, checkpoint: `/ckpt/${name}`, createdAt } });
}

async function evalTrajectories(projectId: string, policyId: string, rewards: (number | null)[]) {
  const task = await db().task.findFirstOrThrow({ where: { projectId, split: 'eval' } });
  const train = await db().task.findFirstOrThrow({ where: { projectId, split: 'train' } });
  await db().trajectory.createMany({
    data: [
      ...rewards.map((verifierReward) => ({
        projectId,
        taskId: task.id,
        policyId,
        sourceFormat: 'openai',
        contentHash: randomUUID(),
        stepCount: 1,
        verifierReward,
      })),
      // a train-split trajectory never counts in the eval pass rate
      { projectId, taskId: train.id, policyId, sourceFormat: 'openai', contentHash: randomUUID(), stepCount: 1, verifierReward: 1 },
    ],
  });
}

describe('the hill-climb view', () => {
  beforeEach(resetDatabase);

  it('lists the lineage with each checkpoint’s labels, curves and pass rate', async () => {
    const seeded = await seedLabelledProject({ tasks: 3, evalTasks: 1 });
    const projectId = seeded.projectId;
    const base = await db().policy.findFirstOrThrow({ where: { projectId, name: { contains: 'good' } } });
    const other = await db().policy.findFirstOrThrow({ where: { projectId, name: { contains: 'bad' } } });
    const runA = await run(projectId, base);
    const runB = await run(projectId, base, 'export-2');
    const ckA = await checkpoint(projectId, 'good+A', base.id, runA.id, new Date('2026-01-01'));
    const runC = await run(projectId, { id: ckA.id, name: ckA.name });
    const ckC = await checkpoint(projectId, 'good+C', ckA.id, runC.id, new Date('2026-01-03'));
    const ckB = await checkpoint(projectId, 'good+B', base.id, runB.id, new Date('2026-01-02'));

    // run A trained on every single-item review (two reviewers, 90 s and 30 s each) and every comparison
    const reviews = await db().review.findMany({ where: { item: { campaignId: seeded.singleCampaignId } }, orderBy: { id: 'asc' } });
    const comparisons = await db().pairwiseComparison.findMany({ where: { item: { campaignId: seeded.pairwiseCampaignId } } });
    expect(reviews.length).toBeGreaterThan(2);
    await db().trainingRunLabel.createMany({
      data: [
        ...reviews.map((r, i) => ({
          runId: runA.id,
          reviewId: r.id,
          kind: 'review',
          campaignId: seeded.singleCampaignId,
          reviewerId: r.reviewerId,
          durationSec: i % 2 ? 30 : 90,
        })),
        ...comparisons.map((c) => ({
          runId: runA.id,
          reviewId: c.id,
          kind: 'pairwise',
          campaignId: seeded.pairwiseCampaignId,
          reviewerId: c.reviewerId,
          durationSec: null,
        })),
      ],
    });
    // a review revised after the run: its trained-on revision is no longer current
    await db().review.update({ where: { id: reviews[0]!.id }, data: { isCurrent: false } });
    // a comparison deleted since (its item gone) counts as stale too
    await db().trainingRunLabel.create({
      data: { runId: runA.id, reviewId: 'gone', kind: 'pairwise', campaignId: seeded.pairwiseCampaignId, reviewerId: 'x', durationSec: 60 },
    });

    // 10,000 loss points, 50 learning-rate points on run A; 350 on run C (steps 0, 3, 6, …)
    await db().trainingRunMetric.createMany({
      data: [
        ...Array.from({ length: 10_000 }, (_, step) => ({ runId: runA.id, name: 'loss', step, value: 1 / (1 + step) })),
        ...Array.from({ length: 50 }, (_, i) => ({ runId: runA.id, name: 'lr', step: i * 200, value: 1e-5 })),
        ...Array.from({ length: 350 }, (_, i) => ({ runId: runC.id, name: 'loss', step: i * 3, value: 0.5 - i / 1000 })),
      ],
    });
    await evalTrajectories(projectId, ckA.id, [1, 1, 1, 1, 1, 0, 0.5, null]);
    await evalTrajectories(projectId, base.id, [1, 0, 0]);

    const view = await viewHillClimb(admin, { project: seeded.slug });
    // the lineage: the root (a base with children) first, then depth-first, oldest child first; "bad" has no children: not listed
    expect(view.checkpoints.map((c) => [c.name, c.depth, c.parentName])).toEqual([
      [base.name, 0, null],
      ['good+A', 1, base.name],
      ['good+C', 2, 'good+A'],
      ['good+B', 1, base.name],
    ]);
    expect(view.checkpoints.some((c) => c.id === other.id)).toBe(false);
    const a = view.checkpoints.find((c) => c.id === ckA.id)!;
    expect(a.run?.id).toBe(runA.id);
    expect(a.labels).toMatchObject({ labels: reviews.length + comparisons.length + 1, reviewers: 3, stale: 2 });
    // 90 s and 30 s alternately, plus the gone one's 60 s
    const seconds = reviews.reduce((sum, _, i) => sum + (i % 2 ? 30 : 90), 60);
    expect(a.labels!.reviewerHours).toBeCloseTo(seconds / 3600, 10);
    expect(a.labels!.campaigns.map((c) => [c.name, c.labels]).sort()).toEqual(
      [
        ['Pairs', comparisons.length + 1],
        ['Singles', reviews.length],
      ].sort(),
    );
    expect(view.checkpoints.find((c) => c.id === ckB.id)!.labels).toMatchObject({ labels: 0, stale: 0, campaigns: [] });
    expect(view.checkpoints[0]!.labels).toBeNull();

    // the pass rate: eval split, scored only (5 of 7), with the Wilson interval
    expect(a.pass).toEqual(wilson(5, 7));
    expect(view.checkpoints[0]!.pass).toEqual(wilson(1, 3));
    expect(view.checkpoints.find((c) => c.id === ckC.id)!.pass).toMatchObject({ n: 0, rate: null, ci: null });
    expect(view.chart.map((p) => p.checkpoint)).toEqual([base.name, 'good+A', 'good+C', 'good+B']);
    expect(view.chart[1]).toEqual({ checkpoint: 'good+A', value: 5 / 7, low: wilson(5, 7).ci![0], high: wilson(5, 7).ci![1], n: 7 });

    // the curves: the newest checkpoint (C) and its produced ancestor (A), each series at most 200 points, the last step kept
    expect(view.focus).toBe(ckC.id);
    const loss = view.curves.find((c) => c.name === 'loss')!;
    expect(loss.series.map((s) => s.checkpoint)).toEqual(['good+A', 'good+C']);
    const lossA = loss.series[0]!.points;
    expect(lossA.length).toBeLessThanOrEqual(MAX_CURVE_POINTS);
    expect(lossA.length).toBeGreaterThan(190);
    // from the first step to the last
    expect(lossA[0]!.step).toBe(0);
    expect(lossA.at(-1)!.step).toBe(9_999);
    expect(lossA.every((p, i) => i === 0 || p.step > lossA[i - 1]!.step)).toBe(true);
    expect(lossA.every((p) => Math.abs(p.value - 1 / (1 + p.step)) < 1e-12)).toBe(true);
    const lossC = loss.series[1]!.points;
    expect(lossC.length).toBeLessThanOrEqual(MAX_CURVE_POINTS);
    expect(lossC.at(-1)!.step).toBe(349 * 3);
    // a series under the bound is kept whole
    expect(view.curves.find((c) => c.name === 'lr')!.series[0]!.points).toHaveLength(50);

    // another focus by name; an unknown one is a clear refusal
    const onB = await viewHillClimb(admin, { project: seeded.slug, checkpoint: 'good+B', figure: 'human' });
    expect(onB.focus).toBe(ckB.id);
    expect(onB.curves).toEqual([]);
    // no canary comparison yet: the human figure has no value and n = 0
    expect(onB.chart.every((p) => p.value === null && p.n === 0)).toBe(true);
    await expect(viewHillClimb(admin, { project: seeded.slug, checkpoint: 'nope' })).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: expect.stringContaining('checkpoint: no checkpoint nope'),
    });
    await expect(viewHillClimb(admin, { project: seeded.slug, figure: 'loss' })).rejects.toMatchObject({ code: 'BAD_INPUT' });

    // the run page: its own curves downsampled, its labels and the stale ones with their items
    const runView = await viewRunLabels(admin, runA.id);
    expect(runView.curves.find((c) => c.name === 'loss')!.series[0]!.points.length).toBeLessThanOrEqual(MAX_CURVE_POINTS);
    expect(runView.labels.stale).toBe(2);
    expect(runView.stale.map((s) => s.reviewId).sort()).toEqual([reviews[0]!.id, 'gone'].sort());
    expect(runView.stale.find((s) => s.reviewId === reviews[0]!.id)!.itemId).toBe(reviews[0]!.campaignItemId);

    // lineage both ways: the review's item lists run A, stale on the revised review; the export lists its runs
    const ofItem = await listRunsForReview(admin, reviews[0]!.campaignItemId);
    expect(ofItem.map((r) => r.id)).toEqual([runA.id]);
    expect(ofItem[0]!.reviews.find((r) => r.reviewId === reviews[0]!.id)!.stale).toBe(true);
    expect(ofItem[0]!.stale).toBe(1);
    const ofExports = await listRunsForExports(admin, projectId, ['export-1', 'export-2', 'export-3']);
    expect(Object.fromEntries(Object.entries(ofExports).map(([k, v]) => [k, v.map((r) => r.id).sort()]))).toEqual({
      'export-1': [runA.id, runC.id].sort(),
      'export-2': [runB.id],
    });
  }, 120_000);

  it('answers NOT_FOUND for a project or run the caller does not lead', async () => {
    const seeded = await seedLabelledProject({ tasks: 1, evalTasks: 1 });
    const base = await db().policy.findFirstOrThrow({ where: { projectId: seeded.projectId, name: { contains: 'good' } } });
    const r = await run(seeded.projectId, base);
    const reviewer: SessionUser = {
      ...admin,
      role: 'lead',
      access: projectAccess('lead', [{ projectId: seeded.projectId, role: 'reviewer' }]),
    };
    await expect(viewHillClimb(reviewer, { project: seeded.slug })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(viewRunLabels(reviewer, r.id)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const outsider: SessionUser = { ...admin, role: 'lead', access: projectAccess('lead', []) };
    await expect(viewRunLabels(outsider, r.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // no project named: the first the caller leads (none: an empty view)
    expect((await viewHillClimb(outsider, {})).project).toBeNull();
    const first = await viewHillClimb(admin, {});
    expect(first.project?.slug).toBe(seeded.slug);
    // a run without a checkpoint is no step of the lineage
    expect(first.checkpoints).toEqual([]);
  }, 60_000);
});
