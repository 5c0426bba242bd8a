import { describe, expect, it } from 'vitest';
import { bootstrap, percentileInterval, quantileSorted } from './bootstrap';
import { Mulberry32, mulberry32 } from './prng';

describe('mulberry32', () => {
  it('is deterministic per seed and uniform enough', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 10000 }, () => a());
    expect(xs.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b()));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(mean).toBeGreaterThan(0.49);
    expect(mean).toBeLessThan(0.51);
    expect(mulberry32(43)()).not.toBe(mulberry32(42)());
  });
});

describe('percentile bootstrap', () => {
  it('interpolates quantiles like numpy', () => {
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([1, 2, 3, 4, 5], 0.025)).toBeCloseTo(1.1, 12);
    expect(percentileInterval([Number.NaN, 3, 1, 2], 0, 1)).toEqual([1, 3]);
    expect(percentileInterval([Number.NaN], 0.025, 0.975)).toBeNull();
  });

  it('resamples units with replacement: the mean of 0/1 data', () => {
    // 100 units, 30 of them "1": the bootstrap interval of the mean is about 0.3 +- 1.96*0.046
    const groupOf = new Int32Array(100).map((_, i) => (i < 30 ? 1 : 0));
    const mean = (w: Float64Array) => w[1]! / (w[0]! + w[1]!);
    const { ci, valid } = bootstrap({ groupOf, nGroups: 2, statistic: mean }, { replicates: 2000, seed: 1 });
    expect(valid).toBe(2000);
    expect(ci![0]).toBeGreaterThan(0.19);
    expect(ci![0]).toBeLessThan(0.23);
    expect(ci![1]).toBeGreaterThan(0.37);
    expect(ci![1]).toBeLessThan(0.41);
  });

  it('skips undefined replicates', () => {
    const groupOf = new Int32Array([0, 1]);
    const r = bootstrap({ groupOf, nGroups: 2, statistic: (w) => (w[0] === 2 ? Number.NaN : w[1]!) }, { replicates: 100 });
    expect(r.valid).toBeLessThan(100);
    expect(r.ci).not.toBeNull();
  });
});

describe('Mulberry32.tally', () => {
  it('draws the same stream as next()', () => {
    const groupOf = Int32Array.from({ length: 37 }, (_, i) => i % 5);
    const a = new Mulberry32(9);
    const b = new Mulberry32(9);
    const fast = new Float64Array(5);
    const slow = new Float64Array(5);
    a.tally(groupOf, fast, 1000);
    for (let k = 0; k < 1000; k++) slow[groupOf[Math.floor(b.next() * 37)]!]!++;
    expect(Array.from(fast)).toEqual(Array.from(slow));
    expect(a.next()).toBe(b.next());
  });
});
