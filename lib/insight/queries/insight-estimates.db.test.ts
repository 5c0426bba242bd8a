import { beforeAll, describe, expect, it } from 'vitest';
import { groupEstimates, type GroupEstimate } from '../estimates';
import { defaultReviewRubric } from '../../review/default-rubric';
import { mulberry32 } from '../../stats/prng';
import { saveRubricVersion } from '../../campaigns/save-rubric-version';
import { db } from '../../db/client';
import { resetDatabase } from '../../db/test/reset';
import { estimateGroupMoments } from './insight-estimate-stats';
import { estimateRows } from './insight-estimate-rows';
import { loadEnvironmentEstimates, loadPolicyEstimates } from '../load-insight-estimates';
import { insightEnvironments, insightPolicies } from './insight-policies';

/**
 * The figures from the groups' sums in SQL (insight-estimate-stats.ts + groupEstimatesFromMoments)
 * against the row-by-row path they replace on the pages (estimateRows + groupEstimates), on one
 * seeded project that has every case the sums must get right:
 * - env-a: continuous verifier rewards, two random campaigns with unequal probabilities that
 *   overlap (p = 1 - prod(1 - p_c)), part of each drawn set reviewed: a weighted design;
 * - env-b: rewards missing on some runs (the verifier's fill), rewards above 1 and below 0
 *   (clipped), one hand-picked campaign over a few items (human-only, not a random sample);
 * - env-c: no reward at all (no predictor: human-only), everything reviewed: a uniform design;
 * - env-j: an LLM judge and the verifier (the cross-fitted combination): its rows are read;
 * - runs of a task with no environment (in the policy figures only); ties in the votes (unlabelled
 *   for reviewer pass), reviews with and without flags, trajectories never reviewed.
 */
let projectId = '';

const near = (a: number | null, b: number | null, what: string) => {
  if (b === null || a === null) return expect(a, what).toBe(b);
  expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(1e-10 * Math.max(1, Math.abs(b)));
};

function expectSame(fast: GroupEstimate[], rows: GroupEstimate[]) {
  expect(fast.map((e) => `${e.group}/${e.figure}`)).toEqual(rows.map((e) => `${e.group}/${e.figure}`));
  fast.forEach((f, i) => {
    const r = rows[i]!;
    const at = `${r.group}/${r.figure}`;
    expect({ ...f, human: null, ppi: null, effectiveLabels: null, variance: null, residualShare: null }, at).toEqual({
      ...r,
      human: null,
      ppi: null,
      effectiveLabels: null,
      variance: null,
      residualShare: null,
    });
    for (const k of ['human', 'ppi'] as const) {
      expect(f[k] === null, `${at} ${k}`).toBe(r[k] === null);
      if (f[k] && r[k]) for (const x of ['estimate', 'low', 'high'] as const) near(f[k]![x], r[k]![x], `${at} ${k}.${x}`);
    }
    near(f.ppi?.lambda ?? null, r.ppi?.lambda ?? null, `${at} lambda`);
    for (const k of ['effectiveLabels', 'variance', 'residualShare'] as const) near(f[k], r[k], `${at} ${k}`);
  });
}

describe('prediction-powered figures from sums in SQL equal the row-by-row figures', () => {
  beforeAll(async () => {
    await resetDatabase();
    const random = mulberry32(2026);
    const project = await db().project.create({ data: { slug: 'est', name: 'Estimates' } });
    projectId = project.id;
    const other = await db().project.create({ data: { slug: 'other', name: 'Other' } });
    const { versionId } = await saveRubricVersion(projectId, 'r', defaultReviewRubric(), null);
    const envNames = ['env-a', 'env-b', 'env-c', 'env-j'];
    await db().environment.createMany({ data: envNames.map((name) => ({ id: `e-${name}`, projectId, name })) });
    await db().policy.createMany({ data: [0, 1, 2, 3].map((i) => ({ id: `p-${i}`, projectId, name: `model@ckpt-${i}` })) });
    const tasks = [...envNames.map((e) => ({ id: `t-${e}`, environmentId: `e-${e}` })), { id: 't-none', environmentId: null }];
    await db().task.createMany({ data: tasks.map((t) => ({ ...t, projectId, name: t.id, instruction: 'do it' })) });
    const sizes: Record<string, number> = { 'env-a': 400, 'env-b': 240, 'env-c': 60, 'env-j': 300, none: 40 };
    const trajectories: { id: string; env: string; reward: number | null }[] = [];
    for (const [env, n] of Object.entries(sizes))
      for (let i = 0; i < n; i++) {
        const reward =
          env === 'env-c'
            ? null
            : env === 'env-b'
              ? i % 5 === 0
                ? null
                : [-0.5, 0, 0.25, 0.5, 1, 1.5][i % 6]!
              : Math.round(random() * 1000) / 1000;
        trajectories.push({ id: `${env}-${i}`, env, reward });
      }
    await db().trajectory.createMany({
      data: trajectories.map((t, i) => ({
        id: t.id,
        projectId,
        taskId: t.env === 'none' ? 't-none' : `t-${t.env}`,
        policyId: `p-${i % 4}`,
        sourceFormat: 'openai',
        contentHash: `h-${t.id}`,
        stepCount: 1,
        verifierReward: t.reward,
      })),
    });
    await db().judgeScore.createMany({
      data: trajectories
        .filter((t) => t.env === 'env-j')
        .map((t, i) => ({ trajectoryId: t.id, judge: 'judge-a', score: i % 9 === 0 ? null : Math.round(random() * 10), label: null })),
    });
    const campaign = (id: string, sampling: 'all' | 'random' | 'picked', mode: 'single' | 'pairwise' = 'single') =>
      db().campaign.create({ data: { id, projectId, name: id, mode, sampling, rubricVersionId: versionId, status: 'open' } });
    await campaign('c-random', 'random');
    await campaign('c-random-2', 'random');
    await campaign('c-all', 'all');
    await campaign('c-picked', 'picked');
    const items: { campaignId: string; trajectoryId: string; probability: number; selected: boolean; reviewCount: number }[] = [];
    const reviewed = new Set<string>();
    for (const t of trajectories) {
      if (t.env === 'env-a' || t.env === 'env-b' || t.env === 'env-j' || t.env === 'none') {
        const probability = [0.1, 0.3, 0.6][Math.floor(random() * 3)]!;
        const selected = random() < probability;
        const done = selected && random() < 0.8;
        if (done) reviewed.add(t.id);
        items.push({ campaignId: 'c-random', trajectoryId: t.id, probability, selected, reviewCount: done ? 1 : 0 });
      }
      if (t.env === 'env-a' && random() < 0.3) {
        const done = random() < 0.5;
        if (done) reviewed.add(t.id);
        items.push({ campaignId: 'c-random-2', trajectoryId: t.id, probability: 0.5, selected: true, reviewCount: done ? 2 : 0 });
      }
      if (t.env === 'env-c') {
        reviewed.add(t.id);
        items.push({ campaignId: 'c-all', trajectoryId: t.id, probability: 1, selected: true, reviewCount: 2 });
      }
      if (t.env === 'env-b' && t.id.endsWith('7')) {
        reviewed.add(t.id);
        items.push({ campaignId: 'c-picked', trajectoryId: t.id, probability: 1, selected: true, reviewCount: 1 });
      }
    }
    await db().campaignItem.createMany({ data: items });
    await db().trajectoryInsight.createMany({
      data: trajectories
        .filter((t) => reviewed.has(t.id) || random() < 0.05)
        .map((t) => {
          const reviews = reviewed.has(t.id) ? 1 + Math.floor(random() * 3) : 0;
          const pass = Math.floor(random() * (reviews + 1));
          const good = (t.reward ?? 0.5) > 0.4;
          // labels that follow the reward (a useful predictor) with noise, and some ties
          const passVotes = reviews === 0 ? 0 : good === random() < 0.8 ? Math.max(pass, reviews - pass) : Math.min(pass, reviews - pass);
          return {
            trajectoryId: t.id,
            projectId,
            reviews,
            passVotes,
            failVotes: reviews - passVotes,
            rewardHacking: reviews > 0 && random() < 0.15,
            answerLeakage: reviews > 0 && random() < 0.05,
            likertN: 0,
            likertSum: 0,
            likertSumSquares: 0,
            itemVotes: [],
            criteria: {},
            rulesVersion: 1,
          };
        }),
    });
    // another project's campaign over nothing of this one: never read
    const otherRubric = await saveRubricVersion(other.id, 'r', defaultReviewRubric(), null);
    await db().campaign.create({
      data: { projectId: other.id, name: 'x', mode: 'single', sampling: 'random', rubricVersionId: otherRubric.versionId },
    });
  }, 120_000);

  it('the seeded project has the cases the sums must cover', async () => {
    const moments = new Map((await estimateGroupMoments(projectId, 'environment')).map((m) => [m.groupId, m]));
    expect([...moments.keys()].sort()).toEqual(['e-env-a', 'e-env-b', 'e-env-c', 'e-env-j']);
    expect(moments.get('e-env-j')!.judged).toBe(true);
    expect(['e-env-a', 'e-env-b', 'e-env-c'].map((g) => moments.get(g)!.judged)).toEqual([false, false, false]);
    expect(moments.get('e-env-a')!.uniform).toBe(false);
    expect(moments.get('e-env-b')!.picked).toBe(true);
    expect(moments.get('e-env-c')!.uniform).toBe(true);
    const { estimates } = await loadEnvironmentEstimates(projectId);
    const pass = (g: string) => estimates.find((e) => e.group === g && e.figure === 'reviewerPass')!;
    expect(pass('env-a')).toMatchObject({ design: 'weighted', randomSample: true, predictor: { key: 'verifier' } });
    expect(pass('env-a').ppi!.lambda).toBeGreaterThan(0); // the verifier helps: the PPI figure is in use
    expect(pass('env-b')).toMatchObject({ randomSample: false, ppi: null, predictor: { key: 'none' } });
    expect(pass('env-c')).toMatchObject({ design: 'uniform', predictor: { key: 'none' }, ppi: null });
    expect(pass('env-j').predictor.key).toBe('combined');
  });

  it('per environment: every figure, interval and effective size', async () => {
    const environments = await insightEnvironments(projectId);
    const { rows } = await estimateRows(projectId);
    const reference = groupEstimates(rows, environments, (r) => r.environmentId).figures;
    expect(reference.length).toBe(12);
    expectSame((await loadEnvironmentEstimates(projectId)).estimates, reference);
  });

  it('per policy, over every environment and within each', async () => {
    const policies = await insightPolicies(projectId);
    const { rows } = await estimateRows(projectId);
    const env = (await insightEnvironments(projectId)).find((e) => e.name === 'env-a')!;
    for (const environmentId of [null, env.id]) {
      const inEnv = environmentId ? rows.filter((r) => r.environmentId === environmentId) : rows;
      const reference = groupEstimates(inEnv, policies, (r) => r.policyId).figures;
      expect(reference.length).toBe(12);
      expectSame((await loadPolicyEstimates(projectId, environmentId)).estimates, reference);
    }
  });
});
