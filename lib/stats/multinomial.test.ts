import { describe, expect, it } from 'vitest';
import { bootstrap } from './bootstrap';
import { Mulberry32 } from './prng';
import { binomial, groupBootstrap, multinomialInto } from './multinomial';

describe('group bootstrap', () => {
  it('small samples: the same interval as the unit-by-unit bootstrap of lib/stats', () => {
    const sizes = [30, 12, 8];
    const statistic = (w: Float64Array) => w[0]! / (w[0]! + w[1]! + w[2]!);
    const groupOf = Int32Array.from(sizes.flatMap((s, g) => Array.from({ length: s }, () => g)));
    const reference = bootstrap({ groupOf, nGroups: 3, statistic }, { replicates: 500, seed: 9 }).ci;
    expect(groupBootstrap(sizes, statistic, 500, 9)).toEqual(reference);
  });

  it('large samples: multinomial draws keep the total and match the binomial moments', () => {
    const random = new Mulberry32(4);
    const out = new Float64Array(3);
    const draws: number[] = [];
    for (let i = 0; i < 4000; i++) {
      out.fill(0);
      multinomialInto([600_000, 300_000, 100_000], 1_000_000, random, out);
      expect(out[0]! + out[1]! + out[2]!).toBe(1_000_000);
      draws.push(out[2]!);
    }
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    const sd = Math.sqrt(draws.reduce((a, b) => a + (b - mean) ** 2, 0) / (draws.length - 1));
    // Binomial(1e6, 0.1): mean 100000, sd 300
    expect(Math.abs(mean - 100_000)).toBeLessThan(20);
    expect(sd).toBeGreaterThan(285);
    expect(sd).toBeLessThan(315);
  });

  it('binomial inversion for small expected counts', () => {
    const random = new Mulberry32(5);
    let sum = 0;
    for (let i = 0; i < 20_000; i++) sum += binomial(100_000, 5e-5, random);
    expect(sum / 20_000).toBeCloseTo(5, 1);
    expect(binomial(10, 0, random)).toBe(0);
    expect(binomial(10, 1, random)).toBe(10);
  });

  it('a 1,000,000-unit interval for a proportion matches the normal theory width', () => {
    const ci = groupBootstrap([700_000, 300_000], (w) => w[0]! / (w[0]! + w[1]!), 1000, 3)!;
    const se = Math.sqrt((0.7 * 0.3) / 1e6);
    expect(ci[0]).toBeCloseTo(0.7 - 1.96 * se, 4);
    expect(ci[1]).toBeCloseTo(0.7 + 1.96 * se, 4);
  });
});
