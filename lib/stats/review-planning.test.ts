import { describe, expect, it } from 'vitest';
import { zFor } from '../insight/intervals';
import { expectedIntervalWidth, reviewsToReach } from './review-planning';

const z = zFor(0.95);

describe('expectedIntervalWidth', () => {
  it('everything and random by hand', () => {
    // p = 0.3 -> s2 = 0.21; N = 1000
    const all = expectedIntervalWidth({ n: 1000, budget: 1, mode: 'everything', variance: 0.21 });
    expect(all.halfWidth).toBeCloseTo(z * Math.sqrt(0.21 / 1000), 12);
    expect(all.budget).toBe(1000);
    // human-only random sample of 100: s2 / 100
    expect(expectedIntervalWidth({ n: 1000, budget: 100, mode: 'random', variance: 0.21 }).halfWidth).toBeCloseTo(
      z * Math.sqrt(0.0021),
      12,
    );
    // PPI leaving 40% of the variance: 0.21 * 0.6 / 1000 + 0.21 * 0.4 / 100
    const ppi = expectedIntervalWidth({ n: 1000, budget: 100, mode: 'random', variance: 0.21, residualShare: 0.4 });
    expect(ppi.variance).toBeCloseTo((0.21 * 0.6) / 1000 + (0.21 * 0.4) / 100, 15);
  });

  it('active with equal scores is the random sample; with unequal scores it is narrower', () => {
    const n = 1000;
    const flat = new Float64Array(n).fill(1);
    const input = { n, budget: 200, variance: 0.2, residualShare: 0.5 } as const;
    const random = expectedIntervalWidth({ ...input, mode: 'random' });
    expect(expectedIntervalWidth({ ...input, mode: 'active', scores: flat }).halfWidth).toBeCloseTo(random.halfWidth, 12);
    const scores = Float64Array.from({ length: n }, (_, i) => (i < 100 ? 1 : 0.1));
    expect(expectedIntervalWidth({ ...input, mode: 'active', scores }).halfWidth).toBeLessThan(random.halfWidth);
  });
});

describe('reviewsToReach', () => {
  it('random: the closed form, rounded up', () => {
    // need 0.21 * 0.6 / 1000 + 0.21 * 0.4 / b <= (0.05 / z)^2
    const target = (0.05 / z) ** 2;
    const exact = (0.21 * 0.4) / (target - (0.21 * 0.6) / 1000);
    const b = reviewsToReach(0.05, { n: 1000, mode: 'random', variance: 0.21, residualShare: 0.4 });
    expect(b).toBe(Math.ceil(exact));
    // human-only needs more
    expect(reviewsToReach(0.05, { n: 1000, mode: 'random', variance: 0.21 })!).toBeGreaterThan(b!);
  });

  it('null when even reviewing everything does not reach it', () => {
    expect(reviewsToReach(0.001, { n: 100, mode: 'random', variance: 0.25 })).toBeNull();
    expect(reviewsToReach(0.001, { n: 100, mode: 'everything', variance: 0.25 })).toBeNull();
    expect(reviewsToReach(0.2, { n: 100, mode: 'everything', variance: 0.25 })).toBe(100);
  });

  it('active: the smallest budget whose planned width reaches the target', () => {
    const n = 500;
    const scores = Float64Array.from({ length: n }, (_, i) => (i % 5 === 0 ? 1 : 0.2));
    const input = { n, mode: 'active' as const, variance: 0.24, residualShare: 0.5, scores };
    const b = reviewsToReach(0.06, input)!;
    expect(expectedIntervalWidth({ ...input, budget: b }).halfWidth).toBeLessThanOrEqual(0.06);
    expect(expectedIntervalWidth({ ...input, budget: b - 1 }).halfWidth).toBeGreaterThan(0.06);
    expect(b).toBeLessThan(reviewsToReach(0.06, { ...input, mode: 'random' })!);
  });
});
