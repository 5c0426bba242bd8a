import { describe, expect, it } from 'vitest';
import { simulate } from './test/simulate-campaigns';

/**
 * Seeded simulations with a known truth (lib/stats/test/simulate-campaigns.ts): 1,000 campaigns
 * of 1,000 items each, 200 reviews. The 95% intervals must cover the truth 93-97% of the time
 * (1,000 campaigns: standard error 0.7 points).
 */
const base = { campaigns: 1000, items: 1000, labels: 200 } as const;
// a few seconds each on a quiet machine; generous on a shared one
const TIMEOUT = 60_000;

describe('PPI coverage over simulated campaigns (random sample of 200 reviews)', () => {
  for (const judge of ['unbiased', 'biased', 'useless'] as const) {
    it(
      `${judge} judge: the PPI interval covers 93-97%, never wider than human-only by more than noise`,
      () => {
        const s = simulate({ ...base, judge, truth: 'linear', design: 'random', seed: 1 });
        expect(s.coverage.ppi).toBeGreaterThanOrEqual(0.93);
        expect(s.coverage.ppi).toBeLessThanOrEqual(0.97);
        expect(s.coverage.human).toBeGreaterThanOrEqual(0.93);
        expect(s.coverage.human).toBeLessThanOrEqual(0.97);
        expect(Math.abs(s.meanEstimate.ppi - s.truth)).toBeLessThan(0.005); // SE of the mean ~0.001
        if (judge === 'useless') {
          expect(s.meanLambda).toBeLessThan(0.1);
          expect(s.meanWidth.ppi / s.meanWidth.human).toBeGreaterThan(0.98);
          expect(s.meanWidth.ppi / s.meanWidth.human).toBeLessThan(1.02);
        } else {
          expect(s.meanWidth.ppi).toBeLessThan(s.meanWidth.human);
          expect(s.meanEffectiveLabels).toBeGreaterThan(210);
        }
        // the biased judge alone would be off by a third; PPI is not (checked above)
        if (judge === 'biased') expect(s.meanPrediction - s.truth).toBeGreaterThan(0.2);
        if (judge === 'unbiased') expect(Math.abs(s.meanPrediction - s.truth)).toBeLessThan(0.005);
      },
      TIMEOUT,
    );
  }

  it(
    'an informative judge on a population of mostly clear-cut items narrows the interval a lot',
    () => {
      const s = simulate({ ...base, judge: 'unbiased', truth: 'steep', design: 'random', seed: 2 });
      expect(s.coverage.ppi).toBeGreaterThanOrEqual(0.93);
      expect(s.coverage.ppi).toBeLessThanOrEqual(0.97);
      expect(s.meanWidth.ppi / s.meanWidth.human).toBeLessThan(0.8);
      expect(s.meanEffectiveLabels).toBeGreaterThan(300);
    },
    TIMEOUT,
  );
});

describe('active allocation (probabilities from the judge, recorded and weighted by)', () => {
  it(
    'stays unbiased, covers 93-97%, and is narrower than a random sample of the same size',
    () => {
      const active = simulate({ ...base, judge: 'unbiased', truth: 'steep', design: 'active', seed: 3 });
      const random = simulate({ ...base, judge: 'unbiased', truth: 'steep', design: 'random', seed: 3 });
      expect(Math.abs(active.meanEstimate.ppi - active.truth)).toBeLessThan(0.003); // SE of the mean ~0.0007
      expect(active.coverage.ppi).toBeGreaterThanOrEqual(0.93);
      expect(active.coverage.ppi).toBeLessThanOrEqual(0.97);
      expect(active.meanWidth.ppi).toBeLessThan(0.95 * random.meanWidth.ppi);
      // ignoring the design would be badly biased: the active sample over-represents the unclear items
      expect(Math.abs(active.meanNaive - active.truth)).toBeGreaterThan(0.05);
    },
    TIMEOUT,
  );

  it(
    'with a judge confidently wrong on some items, the weighted estimate is still unbiased',
    () => {
      const s = simulate({ ...base, judge: 'biased', truth: 'steep', design: 'active', seed: 4 });
      expect(Math.abs(s.meanEstimate.ppi - s.truth)).toBeLessThan(0.005);
      expect(Math.abs(s.meanEstimate.human - s.truth)).toBeLessThan(0.01);
      // the default floor (half the uniform rate) keeps the weights bounded: coverage holds
      expect(s.coverage.ppi).toBeGreaterThanOrEqual(0.93);
      expect(s.coverage.ppi).toBeLessThanOrEqual(0.97);
    },
    TIMEOUT,
  );
});
