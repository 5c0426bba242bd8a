import { describe, expect, it } from 'vitest';
import type { AgreementEstimate } from './agreement';
import { environmentReasons, rankEnvironments, type EnvironmentSignals } from './environment-ranking';
import { wilson } from './intervals';
import { teachability } from './teachability';

const none: AgreementEstimate = { value: null, ci: null, n: 0 };

function env(name: string, over: Partial<EnvironmentSignals> = {}): EnvironmentSignals {
  return {
    name,
    verifierPass: wilson(50, 100),
    reviewerPass: wilson(48, 100),
    rewardHacking: wilson(0, 100),
    answerLeakage: wilson(0, 100),
    verifierAgreement: { value: 0.8, ci: [0.7, 0.9], n: 100 },
    reviewerAgreement: { value: 0.8, ci: [0.7, 0.9], n: 50 },
    teachability: teachability([
      { attempts: 3, passes: 1 },
      { attempts: 3, passes: 2 },
      { attempts: 3, passes: 0 },
    ]),
    reviewedTrajectories: 100,
    ...over,
  };
}

describe('environment ranking', () => {
  it('gives the reasons: a flag rate whose lower bound is over 5% blocks, a point estimate over 5% warns', () => {
    const high = environmentReasons(env('e', { rewardHacking: wilson(20, 100) }));
    expect(high[0]).toEqual({
      severity: 'blocker',
      text: expect.stringMatching(/^high reward-hacking flag rate: 20% \[13%, 29%\], n=100$/),
    });
    const possible = environmentReasons(env('e', { answerLeakage: wilson(1, 10) }));
    expect(possible[0]).toEqual({
      severity: 'warning',
      text: expect.stringMatching(/^possible answer-leakage: flagged in 10% \[2%, 40%\], n=10$/),
    });
  });

  it('audits the verifier: low kappa blocks; a pass-rate gap whose interval excludes 0 warns', () => {
    const low = environmentReasons(env('e', { verifierAgreement: { value: 0.1, ci: [-0.1, 0.3], n: 40 } }));
    expect(low.map((r) => r.text)).toContain('verifier disagrees with humans: kappa 0.10 on 40 trajectories');
    const gap = environmentReasons(env('e', { verifierPass: wilson(80, 100), reviewerPass: wilson(40, 100), verifierAgreement: none }));
    expect(gap).toContainEqual({ severity: 'warning', text: 'verifier passes more than reviewers: 80% vs 40% (difference +40 pp)' });
    expect(environmentReasons(env('e'))).toContainEqual({
      severity: 'good',
      text: 'verifier agrees with humans: kappa 0.80 on 100 trajectories',
    });
  });

  it('flags reviewer disagreement, too easy / too hard and thin evidence', () => {
    const reasons = environmentReasons(
      env('e', {
        reviewerAgreement: { value: 0.3, ci: [0.1, 0.5], n: 12 },
        teachability: teachability([
          { attempts: 2, passes: 2 },
          { attempts: 2, passes: 2 },
          { attempts: 2, passes: 1 },
        ]),
        reviewedTrajectories: 4,
      }),
    ).map((r) => `${r.severity}: ${r.text}`);
    expect(reasons).toContain('warning: reviewers disagree: alpha 0.30 on 12 items');
    expect(reasons).toContain('warning: too easy: 2 of 3 tasks always solved');
    expect(reasons).toContain('info: little evidence: 4 reviewed trajectories, rank is tentative');
  });

  it('ranks by blockers, then warnings, then teachability, then name', () => {
    const ranked = rankEnvironments([
      env('hacked', { rewardHacking: wilson(30, 100) }),
      env('b-clean'),
      env('a-clean'),
      env('more-teachable', {
        teachability: teachability([
          { attempts: 3, passes: 1 },
          { attempts: 3, passes: 2 },
        ]),
      }),
      env('disagree', { reviewerAgreement: { value: 0.2, ci: [0, 0.4], n: 30 } }),
    ]);
    expect(ranked.map((r) => [r.rank, r.environment.name])).toEqual([
      [1, 'more-teachable'],
      [2, 'a-clean'],
      [3, 'b-clean'],
      [4, 'disagree'],
      [5, 'hacked'],
    ]);
    expect(ranked[4]!.blockers).toBe(1);
    expect(ranked[3]!.warnings).toBe(1);
  });
});
