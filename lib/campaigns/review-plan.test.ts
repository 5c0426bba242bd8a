import { describe, expect, it } from 'vitest';
import type { EstimateRow } from '../insight/queries/insight-estimate-rows';
import { planReviews, planTarget } from './review-plan';

/** n items; the first `labeled` reviewed once (pass on every other one), each with a verifier reward. */
function rows(n: number, labeled: number): EstimateRow[] {
  return Array.from({ length: n }, (_, i) => {
    const reviewed = i < labeled;
    const pass = i % 2 === 0;
    return {
      trajectoryId: `t${i}`,
      environmentId: 'env',
      policyId: 'p',
      verifierReward: i % 3 === 0 ? 1 : 0,
      judges: [],
      probability: 1,
      picked: false,
      reviews: reviewed ? 1 : 0,
      passVotes: reviewed && pass ? 1 : 0,
      failVotes: reviewed && !pass ? 1 : 0,
      rewardHacking: false,
      answerLeakage: false,
    };
  });
}

describe('the review plan', () => {
  it('targets ±5 points, or a round step of 5 a little wider than reviewing everything gives (never ±32.0)', () => {
    expect(planTarget(0.03)).toBe(0.05);
    expect(planTarget(0.05)).toBe(0.05);
    expect(planTarget(0.262)).toBe(0.3);
    expect(planTarget(0.15)).toBe(0.2); // 0.165 -> 0.2
    expect(planTarget(0.12)).toBe(0.15);
    for (const w of [0.051, 0.08, 0.1, 0.2, 0.262, 0.3, 0.45]) {
      const t = planTarget(w);
      expect(t).toBeGreaterThan(w);
      expect(Math.round(t * 100) % 5).toBe(0);
    }
  });

  it('says one thing: reviewing everything reaches the target when a random sample does, never later', () => {
    // 24 items, 8 reviewed: the demo's shape ("Everything: about 16 more reviews" beside "Random sample: reached")
    const plan = planReviews(rows(24, 8), 'reviewerPass', 24)!;
    expect(plan.labeled).toBe(8);
    expect(plan.halfWidth.random).toBeCloseTo(plan.halfWidth.everything, 10); // the budget is every item
    expect(plan.target).toBeGreaterThan(plan.halfWidth.everything);
    expect(Math.round(plan.target * 100) % 5).toBe(0);
    expect(plan.toReach.everything).not.toBeNull();
    expect(plan.toReach.everything).toBe(plan.toReach.random);
    expect(plan.toReach.everything!).toBeLessThan(24);
  });

  it('at a smaller budget, random is never narrower than everything and the numbers to reach stay within the items', () => {
    for (const labeled of [0, 1, 2, 8, 30]) {
      const plan = planReviews(rows(60, labeled), 'reviewerPass', 10)!;
      expect(plan.assumed).toBe(labeled < 2);
      expect(plan.halfWidth.random).toBeGreaterThanOrEqual(plan.halfWidth.everything);
      for (const mode of ['everything', 'random', 'active'] as const) {
        const total = plan.toReach[mode];
        expect(total === null || (total >= 1 && total <= 60)).toBe(true);
      }
      expect(plan.toReach.everything).toBe(plan.toReach.random);
    }
  });
});
