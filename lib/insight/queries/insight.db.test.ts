import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { environmentReport, environmentTableRows, rowsToCsv } from '../environment-report';
import { compareReport, policyReport } from '../policy-report';
import { db } from '../../db/client';
import { environmentInsightData } from './insight-environments';
import { comparisonOutcomes, criterionVerdicts, insightEnvironments, insightPolicies, policyStats } from './insight-policies';
import { resetDatabase } from '../../db/test/reset';
import { seedInsightScenario } from '../../db/test/insight-scenario';

let projectId = '';

describe('insight queries (aggregated in SQL) on a scenario with known answers', () => {
  beforeAll(async () => {
    await resetDatabase();
    const reviewers: [string, string] = [randomUUID(), randomUUID()];
    for (const id of reviewers) await db().user.create({ data: { id, email: `${id}@x.test`, name: 'R', role: 'reviewer' } });
    ({ projectId } = await seedInsightScenario('insight', reviewers));
    // another project's reviews never leak in
    const other = [randomUUID(), randomUUID()] as [string, string];
    for (const id of other) await db().user.create({ data: { id, email: `${id}@x.test`, name: 'R', role: 'reviewer' } });
    await seedInsightScenario('other', other);
  }, 120_000);

  it('environments: counts, verifier vs reviewers, flags with their moments, teachability, ranking', async () => {
    const report = environmentReport(await environmentInsightData(projectId));
    expect(report.map((r) => r.environment.name)).toEqual(['clean-env', 'hacky-env']);
    const [clean, hacky] = report.map((r) => r.environment);
    expect(clean).toMatchObject({ tasks: 3, trajectories: 12, reviewedTrajectories: 12 });
    expect(clean!.verifierPass).toMatchObject({ k: 7, n: 12 });
    expect(clean!.reviewerPass).toMatchObject({ k: 7, n: 12 });
    expect(clean!.verifierAgreement.value).toBeCloseTo(1, 10);
    expect(clean!.reviewerAgreement).toMatchObject({ n: 12 });
    expect(clean!.reviewerAgreement.value).toBeCloseTo(1, 10);
    expect(clean!.rewardHacking).toMatchObject({ k: 0, n: 12 });
    expect(clean!.teachability.teachable).toMatchObject({ k: 3, n: 3 });

    expect(hacky).toMatchObject({ tasks: 2, trajectories: 8 });
    expect(hacky!.verifierPass).toMatchObject({ k: 8, n: 8 });
    expect(hacky!.reviewerPass).toMatchObject({ k: 4, n: 8 });
    expect(hacky!.rewardHacking).toMatchObject({ k: 4, n: 8, rate: 0.5 });
    expect(hacky!.verifierAgreement).toMatchObject({ value: 0, n: 8 });
    expect(hacky!.teachability).toMatchObject({ alwaysSolved: 2, neverSolved: 0 });
    expect(report[1]!.reasons[0]).toEqual({ severity: 'blocker', text: 'high reward-hacking flag rate: 50% [22%, 78%], n=8' });
    expect(report[1]!.reasons.map((r) => r.text)).toContain('too easy: 2 of 2 tasks always solved');
    expect(report[1]!.reasons.map((r) => r.text)).toContain('verifier passes more than reviewers: 100% vs 50% (difference +50 pp)');
    // one moment per flagged trajectory (its newest flagged review): the 4 runs of ckpt-2000
    expect(hacky!.flagged).toHaveLength(4);
    expect(hacky!.flagged[0]).toMatchObject({
      rewardHacking: true,
      answerLeakage: false,
      notes: [{ frame: 30, stepIndex: 1, note: 'edits the test file to pass' }],
    });

    const csv = rowsToCsv(environmentTableRows(report));
    expect(csv.split('\r\n')[0]).toMatch(/^rank,environment,tasks,trajectories,verifierPassRate/);
    expect(csv.split('\r\n')[2]).toMatch(/^2,hacky-env,2,8,1,/);
  });

  it('policies: Bradley-Terry from comparisons, rubric means, checkpoint trend; per environment', async () => {
    const policies = await insightPolicies(projectId);
    const report = policyReport(policies, await comparisonOutcomes(projectId, null), await policyStats(projectId, null));
    expect(report.nComparisons).toBe(20);
    const [p1000, p2000] = ['acme-coder-7b@ckpt-1000', 'acme-coder-7b@ckpt-2000'].map((n) => report.policies.find((p) => p.name === n)!);
    // 10 wins of ckpt-2000, 8 of ckpt-1000, 2 ties: ckpt-2000 slightly ahead, intervals overlapping 1000
    expect(p2000!.rank).toBe(1);
    expect(p2000!.rating!).toBeGreaterThan(1000);
    expect(p2000!.ratingCi![0]).toBeLessThan(1000);
    expect(p1000!.battles).toBe(20);
    // normalised Likert (score - 1) / 4: ckpt-1000 mean 3.2 -> 0.55, ckpt-2000 mean 3.5 -> 0.625
    expect(p1000!.rubricScore.mean).toBeCloseTo(0.55, 10);
    expect(p2000!.rubricScore.mean).toBeCloseTo(0.625, 10);
    expect(p2000!.rubricScore.n).toBe(20);
    expect(p1000!.verifierPass).toMatchObject({ k: 6, n: 10 });
    expect(p2000!.reviewerPass).toMatchObject({ k: 5, n: 10 });
    expect(report.trends).toHaveLength(1);
    expect(report.trends[0]!.points.map((p) => p.checkpoint)).toEqual(['ckpt-1000', 'ckpt-2000']);

    const clean = (await insightEnvironments(projectId)).find((e) => e.name === 'clean-env')!;
    const perEnv = policyReport(policies, await comparisonOutcomes(projectId, clean.id), await policyStats(projectId, clean.id));
    expect(perEnv.nComparisons).toBe(12);
    expect(perEnv.policies[0]!.name).toBe('acme-coder-7b@ckpt-2000');
    expect(perEnv.policies[0]!.ratingCi![0]).toBeGreaterThan(1000);
  });

  it('canary compare: win rate of B over A, criteria side by side, and how many more reviews', async () => {
    const policies = await insightPolicies(projectId);
    const a = policies.find((p) => p.name.endsWith('ckpt-1000'))!;
    const b = policies.find((p) => p.name.endsWith('ckpt-2000'))!;
    const ids = [a.id, b.id];
    const report = compareReport(
      a,
      b,
      await comparisonOutcomes(projectId, null, [a.id, b.id]),
      await policyStats(projectId, null, ids),
      await criterionVerdicts(projectId, ids, null),
    );
    expect(report.winRate).toMatchObject({ bWins: 10, aWins: 8, ties: 2, n: 20, rate: 0.55, distinguishable: false });
    // ((1.96 * .5 + .8416 * sqrt(.2475)) / .05)^2 = 782.5 -> 783 needed, 763 more
    expect(report.winRate.needed).toBe(783);
    expect(report.winRate.more).toBe(763);
    const works = report.rows.find((r) => r.label === 'Criterion: works')!;
    expect(works.a).toMatchObject({ k: 6, n: 10 });
    expect(works.b).toMatchObject({ k: 5, n: 10 });
    const edits = report.rows.find((r) => r.label === 'Criterion: no_test_edits')!;
    expect(edits.a).toMatchObject({ k: 10, n: 10 });
    expect(edits.b).toMatchObject({ k: 6, n: 10 });
    expect(edits.distinguishable).toBe(true);
    // reversed: A and B swap, the win rate mirrors
    const reversed = compareReport(b, a, await comparisonOutcomes(projectId, null, [b.id, a.id]), [], []);
    expect(reversed.winRate).toMatchObject({ bWins: 8, aWins: 10, ties: 2, rate: 0.45 });
  });
});
