import { describe, expect, it } from 'vitest';
import { activeSamplingProbabilities, activeScore, probabilitiesFromScores } from './active-sampling';

const sum = (xs: ArrayLike<number>) => Array.from(xs).reduce((a, b) => a + b, 0);

describe('activeScore', () => {
  it('peaks at the threshold and adds disagreement, flags; more reviews lower it', () => {
    expect(activeScore({ prediction: 0.5 })).toBe(1);
    expect(activeScore({ prediction: 0 })).toBe(0);
    // 2 sqrt(p (1 - p)) at threshold 0.5: p = 0.9 -> 2 * 0.3 = 0.6
    expect(activeScore({ prediction: 0.9 })).toBeCloseTo(0.6, 12);
    // threshold 0.8: distance 0.1 / 0.8 = 0.125 -> sqrt(1 - 0.015625)
    expect(activeScore({ prediction: 0.9, threshold: 0.8 })).toBeCloseTo(Math.sqrt(1 - 0.125 ** 2), 12);
    expect(activeScore({ prediction: 0.9, verifier: 0.1 })).toBeCloseTo(0.6 + 0.8, 12);
    expect(activeScore({ prediction: 0.9, flagged: true })).toBeCloseTo(1.6, 12);
    expect(activeScore({ prediction: 0.9, flagged: true, reviews: 1 })).toBeCloseTo(0.8, 12);
  });

  it('rejects bad input naming the item', () => {
    expect(() => activeSamplingProbabilities([{ prediction: 0.5 }, { prediction: 2 }], { budget: 1 })).toThrow(
      'item 1: prediction must be in [0, 1]; got 2',
    );
    expect(() => activeScore({ prediction: 0.5, verifier: -1 }, 3)).toThrow('item 3: verifier must be in [0, 1]; got -1');
  });
});

describe('probabilitiesFromScores', () => {
  it('proportional to the score between the floor and 1, summing to the budget (worked by hand)', () => {
    // scores 4, 2, 1, 1, 0; budget 2, floor 0.1: c s for the middle ones.
    // Try c: item 0 -> min(1, 4c); items 1..3 -> 2c, c, c; item 4 -> 0.1.
    // 4c <= 1 and 0.1 + 8c = 2 -> c = 0.2375 -> 4c = 0.95: consistent.
    const pi = probabilitiesFromScores([4, 2, 1, 1, 0], { budget: 2, floor: 0.1 });
    expect(Array.from(pi).map((p) => +p.toFixed(10))).toEqual([0.95, 0.475, 0.2375, 0.2375, 0.1]);
    // budget 3: item 0 is capped at 1; 1 + 0.1 + 4c = 3 -> c = 0.475 (2c = 0.95 < 1)
    const capped = probabilitiesFromScores([4, 2, 1, 1, 0], { budget: 3, floor: 0.1 });
    expect(Array.from(capped).map((p) => +p.toFixed(10))).toEqual([1, 0.95, 0.475, 0.475, 0.1]);
  });

  it('defaults the floor to half the uniform rate; uniform when no score; all 1 at a full budget', () => {
    const pi = probabilitiesFromScores([10, 0, 0, 0], { budget: 1 });
    expect(Array.from(pi)).toEqual([0.625, 0.125, 0.125, 0.125]);
    expect(Array.from(probabilitiesFromScores([0, 0, 0, 0], { budget: 2 }))).toEqual([0.5, 0.5, 0.5, 0.5]);
    expect(Array.from(probabilitiesFromScores([1, 2], { budget: 5 }))).toEqual([1, 1]);
  });

  it('sums to the budget on a large random set, every item >= floor and <= 1', () => {
    const items = Array.from({ length: 5000 }, (_, i) => ({
      prediction: ((i * 7919) % 1000) / 1000,
      reviews: i % 3,
      flagged: i % 17 === 0,
    }));
    const pi = activeSamplingProbabilities(items, { budget: 600, floor: 0.02 });
    expect(sum(pi)).toBeCloseTo(600, 6);
    expect(Math.min(...pi)).toBeGreaterThanOrEqual(0.02);
    expect(Math.max(...pi)).toBeLessThanOrEqual(1);
    // the item at the threshold, flagged, never reviewed is among the most likely
    const top = items.findIndex((it) => it.prediction === 0.5 && it.reviews === 0);
    expect(pi[top]!).toBeGreaterThan(1.5 * (600 / 5000));
  });

  it('refuses a floor the budget cannot pay for', () => {
    expect(() => probabilitiesFromScores([1, 1, 1, 1], { budget: 1, floor: 0.5 })).toThrow(
      'a floor of 0.5 on 4 items needs a budget of at least 2; got 1 (lower the floor)',
    );
    expect(() => probabilitiesFromScores([1], { budget: 0 })).toThrow('budget must be > 0');
  });
});
