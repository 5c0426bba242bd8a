import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getCampaignDetail } from '../../lib/campaigns/queries/campaign-detail';
import { listCampaigns } from '../../lib/campaigns/queries/campaign-list';
import { db } from '../../lib/db/client';
import { exportDataset } from '../../lib/datasets/export-dataset';
import { datasetFormats } from '../../lib/datasets/formats';
import { reviewerQueues } from '../../lib/review/queries/review-queue';
import { resetDatabase } from '../../lib/db/test/reset';
import { findUserByEmail } from '../../lib/auth/queries/users';
import { sessionUserFor } from '../../lib/auth/queries/memberships';
import { visibleProjectIds } from '../../lib/auth/project-access';
import type { UserRecord } from '../../lib/auth/session-user';
import { SWEEP_CHECKPOINTS, SWEEP_TASKS, sweepPolicyName } from './demo-sweep';
import { DEMO_CAMPAIGNS } from './seed-demo-campaigns';
import { DEMO_ACTIVE_CAMPAIGN } from './seed-demo-active';
import { loadEnvironmentEstimates } from '../../lib/insight/load-insight-estimates';
import { loadCompareInsight } from '../../lib/insight/view-compare-insight';
import { seedDemo, type SeedReport } from './seed-demo';

/** A demo user's queues as the review page builds them: scoped to the projects they belong to. */
async function queuesOf(user: UserRecord) {
  const { access } = await sessionUserFor(user, null);
  return reviewerQueues({ ...user, projectIds: visibleProjectIds(access, 'reviewer') }, new Date());
}

async function counts() {
  const [trajectories, campaigns, items, assignments, reviews, comparisons, rubricVersions, users] = await Promise.all([
    db().trajectory.count(),
    db().campaign.count(),
    db().campaignItem.count(),
    db().assignment.count(),
    db().review.count(),
    db().pairwiseComparison.count(),
    db().rubricVersion.count(),
    db().user.count(),
  ]);
  return { trajectories, campaigns, items, assignments, reviews, comparisons, rubricVersions, users };
}

describe('demo campaigns (seedDemo)', () => {
  let first: SeedReport;
  let second: SeedReport;
  let afterFirst: Awaited<ReturnType<typeof counts>>;

  beforeAll(async () => {
    await resetDatabase();
    first = await seedDemo();
    afterFirst = await counts();
    second = await seedDemo();
  }, 180_000);

  it('stores the checkpoint sweep: 3 checkpoints over 8 tasks, two of them eval, with criteria, rewards and a judge', async () => {
    expect(first.campaigns.trajectoriesCreated).toBe(SWEEP_TASKS.length * SWEEP_CHECKPOINTS.length);
    const rows = await db().trajectory.findMany({
      where: { projectId: first.projectId, task: { name: { in: SWEEP_TASKS.map((t) => t.name) } } },
      select: {
        verifierReward: true,
        steps: { select: { index: true } },
        judgeScores: { select: { judge: true } },
        policy: { select: { name: true, model: true, checkpoint: true } },
        task: { select: { name: true, split: true, acceptanceCriteria: true, environment: { select: { name: true } } } },
      },
    });
    expect(rows).toHaveLength(24);
    expect(new Set(rows.map((r) => r.policy.name))).toEqual(new Set(SWEEP_CHECKPOINTS.map(sweepPolicyName)));
    expect(rows.every((r) => r.policy.model === 'acme-coder-7b' && r.policy.checkpoint?.startsWith('ckpt-'))).toBe(true);
    expect(new Set(rows.filter((r) => r.task.split === 'eval').map((r) => r.task.name))).toEqual(
      new Set(['tar-backup-exclude-cache', 'rc-circuit-charging-time']),
    );
    expect(new Set(rows.map((r) => r.task.environment?.name))).toEqual(new Set(['terminal-bench', 'physics-derivations']));
    for (const r of rows) {
      expect(r.steps.length).toBeGreaterThanOrEqual(3);
      expect(r.steps.length).toBeLessThanOrEqual(6);
      expect(r.verifierReward).not.toBeNull();
      expect(r.judgeScores).toHaveLength(1);
      expect((r.task.acceptanceCriteria as unknown[]).length).toBe(3);
    }
  });

  it('creates an open single, an open pairwise and an untouched campaign, with consistent counts', async () => {
    const list = await listCampaigns({ projectIds: null, projectId: first.projectId });
    const byName = new Map(list.map((c) => [c.name, c]));
    const single = byName.get(DEMO_CAMPAIGNS.single)!;
    const pairwise = byName.get(DEMO_CAMPAIGNS.pairwise)!;
    const untouched = byName.get(DEMO_CAMPAIGNS.untouched)!;
    expect(single).toMatchObject({ mode: 'single', status: 'open', overlap: 3, items: 24 });
    expect(pairwise).toMatchObject({ mode: 'pairwise', status: 'open', items: 24 });
    expect(untouched).toMatchObject({ mode: 'single', status: 'open', reviewsDone: 0, requiredExpertise: ['physics'] });
    // physicists get the video paced for reading
    expect((await db().campaign.findUniqueOrThrow({ where: { id: untouched.id }, select: { pacing: true } })).pacing).toBe('read');
    // ...and the physics rubric: its checks are algebra, units, limits and special cases, a numerical check
    const physicsRubric = await db().campaign.findUniqueOrThrow({
      where: { id: untouched.id },
      select: { rubricVersion: { select: { definition: true, rubric: { select: { name: true } } } } },
    });
    expect(physicsRubric.rubricVersion.rubric.name).toBe('Physics derivation review');
    expect(
      (physicsRubric.rubricVersion.definition as { questions: { id: string; type: string }[] }).questions
        .filter((q) => q.type === 'single')
        .map((q) => q.id),
    ).toEqual(['algebra', 'units', 'limits', 'numerical_check']);
    expect((await db().campaign.findUniqueOrThrow({ where: { id: single.id }, select: { pacing: true } })).pacing).toBe('skim');

    // reviews done = submitted assignments = current reviews; no item over k
    expect(single.reviewsDone).toBe(first.campaigns.reviews);
    expect(first.campaigns.reviews).toBeGreaterThanOrEqual(40);
    expect(single.reviewsDone).toBeLessThan(single.reviewsTarget);
    const reviews = await db().review.findMany({
      where: { item: { campaignId: single.id } },
      select: { campaignItemId: true, reviewerId: true, evidence: true, coverage: true, goldScore: true },
    });
    expect(reviews).toHaveLength(first.campaigns.reviews);
    const perItem = new Map<string, number>();
    for (const r of reviews) perItem.set(r.campaignItemId, (perItem.get(r.campaignItemId) ?? 0) + 1);
    expect(Math.max(...perItem.values())).toBeLessThanOrEqual(3);
    expect([...perItem.values()].filter((n) => n >= 2).length).toBeGreaterThanOrEqual(20); // enough overlap for agreement figures
    expect(reviews.filter((r) => (r.evidence as unknown[]).length > 0).length).toBeGreaterThan(5);
    expect(reviews.every((r) => (r.coverage as { share: number }).share >= 0.5)).toBe(true);
    expect(reviews.some((r) => r.goldScore !== null)).toBe(true);

    const detail = (await getCampaignDetail(single.id, new Date()))!;
    expect(detail.progress.goldItems).toBe(2);
    expect(detail.reviewers.map((r) => r.email).sort()).toEqual([
      'kit@witness.local',
      'lead@witness.local',
      'noor@witness.local',
      'sol@witness.local',
    ]);
    expect(detail.reviewers.reduce((n, r) => n + r.submitted, 0)).toBe(first.campaigns.reviews);
    expect(detail.reviewers.find((r) => r.email === 'kit@witness.local')!.skipped).toBe(1);

    // pairwise: comparisons in, ckpt-2000 preferred in most comparisons it is part of
    expect(pairwise.reviewsDone).toBe(first.campaigns.comparisons);
    expect(first.campaigns.comparisons).toBeGreaterThanOrEqual(15);
    const comparisons = await db().pairwiseComparison.findMany({
      where: { item: { campaignId: pairwise.id } },
      select: {
        preference: true,
        item: {
          select: {
            trajectory: { select: { policy: { select: { name: true } } } },
            trajectoryB: { select: { policy: { select: { name: true } } } },
          },
        },
      },
    });
    const involving = comparisons.filter((c) =>
      [c.item.trajectory.policy.name, c.item.trajectoryB?.policy.name].includes(sweepPolicyName('ckpt-2000')),
    );
    const won = involving.filter((c) =>
      c.item.trajectory.policy.name === sweepPolicyName('ckpt-2000') ? c.preference < 0 : c.preference > 0,
    );
    expect(involving.length).toBeGreaterThan(5);
    expect(won.length / involving.length).toBeGreaterThan(0.6);
  });

  it('leaves work in the queues of reviewer@ and physicist@', async () => {
    for (const email of ['reviewer@witness.local', 'physicist@witness.local']) {
      const user = (await findUserByEmail(email))!;
      const queues = await queuesOf(user);
      const single = queues.find((q) => q.name === DEMO_CAMPAIGNS.single);
      const pairwise = queues.find((q) => q.name === DEMO_CAMPAIGNS.pairwise);
      expect(single?.available, email).toBeGreaterThan(5);
      expect(pairwise?.available, email).toBeGreaterThan(5);
      expect(single?.doneTotal).toBe(0);
    }
    const physicist = (await findUserByEmail('physicist@witness.local'))!;
    const untouched = (await queuesOf(physicist)).find((q) => q.name === DEMO_CAMPAIGNS.untouched);
    expect(untouched?.available).toBe(untouched?.totalItems);
    const software = (await findUserByEmail('reviewer@witness.local'))!;
    expect((await queuesOf(software)).some((q) => q.name === DEMO_CAMPAIGNS.untouched)).toBe(false);
  });

  it('adds a campaign in "review where it tells the most" mode whose figure is visibly narrower prediction-powered than from reviews alone', async () => {
    const active = (await listCampaigns({ projectIds: null, projectId: first.projectId })).find((c) => c.name === DEMO_ACTIVE_CAMPAIGN)!;
    expect(active).toMatchObject({ sampling: 'active', population: 90, overlap: 1 });
    expect(active.items).toBeGreaterThan(20);
    expect(active.items).toBeLessThan(45);
    expect(first.campaigns.active).toEqual({ trajectoriesCreated: 90, reviews: active.items }); // every drawn item reviewed
    const probabilities = await db().campaignItem.findMany({ where: { campaignId: active.id }, select: { probability: true } });
    expect(new Set(probabilities.map((p) => p.probability.toFixed(3))).size).toBeGreaterThan(5); // drawn with unequal chances
    const { estimates } = await loadEnvironmentEstimates(first.projectId);
    const terminal = estimates.find((e) => e.group === 'terminal-bench' && e.figure === 'reviewerPass')!;
    expect(terminal.randomSample).toBe(true);
    const width = (i: { low: number; high: number }) => i.high - i.low;
    console.log(
      `demo terminal-bench pass rate: human ${JSON.stringify(terminal.human)} vs ppi ${JSON.stringify(terminal.ppi)}, worth ${terminal.effectiveLabels} of ${terminal.labeled} reviews (${terminal.predictor.key})`,
    );
    expect(width(terminal.ppi!)).toBeLessThan(0.75 * width(terminal.human!));

    // the checkpoint comparison's win rate over compared pairs, human-only and prediction-powered
    const compare = await loadCompareInsight(first.projectId, { a: sweepPolicyName('ckpt-1000'), b: sweepPolicyName('ckpt-2000') });
    const win = compare.winRateEstimate!;
    expect(win.estimate).toMatchObject({ figure: 'winRate', population: 8, randomSample: true });
    expect(win.estimate.labeled).toBeGreaterThan(0);
    expect(win.estimate.human!.estimate).toBeGreaterThan(0.5); // ckpt-2000 is the better checkpoint
    expect(win.rows.every((r) => r.prediction >= 0 && r.prediction <= 1 && r.probability > 0)).toBe(true);
  });

  it('creates nothing on a second run', async () => {
    expect(second.campaigns).toMatchObject({ trajectoriesCreated: 0, campaignsCreated: 0, reviews: 0, comparisons: 0 });
    expect(await counts()).toEqual(afterFirst);
    console.log(
      `demo campaigns seed: first run ${first.campaigns.ms} ms (${first.campaigns.reviews} reviews, ${first.campaigns.comparisons} comparisons), re-run ${second.campaigns.ms} ms`,
    );
  });

  it('every training format exports rows from the demo data, and the eval split exports as an evaluation set', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'witness-demo-export-'));
    try {
      const rows: Record<string, number> = {};
      for (const format of datasetFormats) {
        const result = await exportDataset({ format, projectId: first.projectId, split: 'train' }, path.join(dir, `${format}.jsonl`));
        rows[format] = result.rows;
        const lines = (await readFile(result.path, 'utf8')).trim().split('\n');
        expect(lines).toHaveLength(result.rows);
        // no eval task's trajectory in a training set
        expect(lines.some((l) => /rc-circuit-charging-time|tar-backup-exclude-cache/.test(l))).toBe(false);
      }
      expect(Object.entries(rows).filter(([, n]) => n === 0)).toEqual([]);
      const evalSet = await exportDataset({ format: 'trl-kto', projectId: first.projectId, split: 'eval' }, path.join(dir, 'eval.jsonl'));
      expect(evalSet.rows).toBeGreaterThan(0);
      expect(await readFile(`${evalSet.path}.card.md`, 'utf8')).toMatch(/evaluation/i);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
