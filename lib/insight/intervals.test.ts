import { describe, expect, it } from 'vitest';
import { excludes, meanInterval, newcombeDifference, normalQuantile, wilson } from './intervals';
import { comparisonsNeeded, moreNeeded, perGroupNeeded } from './power';

describe('intervals', () => {
  it('normal quantiles', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.8)).toBeCloseTo(0.841621, 5);
    expect(normalQuantile(0.01)).toBeCloseTo(-2.326348, 5);
  });

  it('Wilson score interval: textbook values', () => {
    const w = wilson(8, 10);
    expect(w.rate).toBe(0.8);
    expect(w.ci![0]).toBeCloseTo(0.4902, 4);
    expect(w.ci![1]).toBeCloseTo(0.9433, 4);
    const zero = wilson(0, 10);
    expect(zero.ci![0]).toBe(0);
    expect(zero.ci![1]).toBeCloseTo(0.2775, 4);
    const all = wilson(10, 10);
    expect(all.ci![1]).toBe(1);
    expect(all.ci![0]).toBeCloseTo(0.7225, 4);
    // effective sizes (the prediction-powered estimates pass fractional ones) where the computed end was ~5e-17 off
    for (const n of [0.25, 1, 1.5, 4.5]) {
      expect(wilson(0, n).ci![0]).toBe(0);
      expect(wilson(n, n).ci![1]).toBe(1);
    }
    expect(wilson(0, 0)).toEqual({ k: 0, n: 0, rate: null, ci: null });
    expect(() => wilson(11, 10)).toThrow(/within 0..n/);
  });

  it('mean with a t interval from sufficient statistics', () => {
    // 1..5: mean 3, sd 1.5811, t(0.975, 4) = 2.776
    const m = meanInterval(5, 15, 55);
    expect(m.mean).toBe(3);
    expect(m.ci![0]).toBeCloseTo(3 - 2.776 * Math.sqrt(2.5 / 5), 6);
    expect(m.ci![1]).toBeCloseTo(4.963, 3);
    expect(meanInterval(1, 4, 16)).toEqual({ n: 1, mean: 4, ci: null });
    expect(meanInterval(0, 0, 0).mean).toBeNull();
  });

  it("Newcombe's difference interval (his 1998 example: 56/70 vs 48/80)", () => {
    const d = newcombeDifference(wilson(48, 80), wilson(56, 70))!;
    expect(d.difference).toBeCloseTo(0.2, 10);
    expect(d.ci[0]).toBeCloseTo(0.0524, 4);
    expect(d.ci[1]).toBeCloseTo(0.3339, 4);
    expect(excludes(d.ci, 0)).toBe(true);
    expect(newcombeDifference(wilson(0, 0), wilson(1, 2))).toBeNull();
  });

  it('sample sizes for a win rate against 0.5 and for two proportions', () => {
    // ((1.96 * 0.5 + 0.8416 * sqrt(0.24)) / 0.1)^2 = 193.85
    expect(comparisonsNeeded(0.6)).toBe(194);
    expect(comparisonsNeeded(0.4)).toBe(194);
    expect(comparisonsNeeded(0.5)).toBeNull();
    // (1.96 sqrt(2 * .55 * .45) + 0.8416 sqrt(.25 + .24))^2 / 0.01 = 387.3
    expect(perGroupNeeded(0.5, 0.6)).toBe(388);
    expect(perGroupNeeded(0.3, 0.3)).toBeNull();
    expect(moreNeeded(194, 50)).toBe(144);
    expect(moreNeeded(194, 500)).toBe(0);
    expect(moreNeeded(null, 5)).toBeNull();
  });
});
