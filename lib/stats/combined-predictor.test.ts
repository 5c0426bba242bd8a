import { describe, expect, it } from 'vitest';
import { fitCombinedPredictor, logistic } from './combined-predictor';
import { estimatePpiMean } from './ppi';
import { mulberry32 } from './prng';

describe('logistic', () => {
  it('matches the closed form on a saturated two-group design', () => {
    // x in {0, 1}; rates 0.25 and 0.75 -> intercept logit(0.25), slope logit(0.75) - logit(0.25) = 2 ln 3
    const X = [...Array(8)].map((_, i) => [1, i < 4 ? 0 : 1]);
    const Y = [1, 0, 0, 0, 1, 1, 1, 0];
    const [b0, b1] = logistic(X, Y);
    // the ridge (1e-4 per item) shrinks the slope a hair
    expect(b0!).toBeCloseTo(Math.log(1 / 3), 2);
    expect(b1!).toBeCloseTo(2 * Math.log(3), 2);
  });
});

describe('fitCombinedPredictor', () => {
  const random = mulberry32(5);
  const items = Array.from({ length: 3000 }, (_, i) => {
    const x = random();
    const pass = random() < x ? 1 : 0;
    const judge = Math.min(1, Math.max(0, x + (random() - 0.5) * 0.6)); // noisy
    const verifier = i % 10 === 0 ? null : pass === 1 ? (random() < 0.8 ? 1 : 0) : random() < 0.2 ? 1 : 0; // sees the outcome, sometimes missing
    return { scores: [judge, verifier], label: i < 600 ? pass : null, pass };
  });

  it('cross-fits: combining judge and verifier beats either alone in the PPI estimate', () => {
    const fit = fitCombinedPredictor(items)!;
    expect(fit.folds).toBe(5);
    expect(fit.predictions.length).toBe(3000);
    expect(fit.coefficients.length).toBe(4); // intercept, judge, verifier, verifier missing
    expect(fit.coefficients[1]!).toBeGreaterThan(0);
    expect(fit.coefficients[2]!).toBeGreaterThan(0);
    const eff = (pred: (i: number) => number) =>
      estimatePpiMean(items.map((it, i) => ({ prediction: pred(i), label: it.label }))).effectiveLabels;
    const combined = eff((i) => fit.predictions[i]!);
    expect(combined).toBeGreaterThan(eff((i) => items[i]!.scores[0]!));
    expect(combined).toBeGreaterThan(eff((i) => items[i]!.scores[1] ?? 0.5));
  });

  it("never uses an item's own label: flipping item 7's label leaves its prediction unchanged, not other folds'", () => {
    const a = fitCombinedPredictor(items)!;
    const flipped = items.map((it, i) => (i === 7 ? { ...it, label: 1 - it.label! } : it));
    const b = fitCombinedPredictor(flipped)!;
    expect(b.predictions[7]).toBe(a.predictions[7]); // item 7 is in labelled fold 7 % 5 = 2, fitted without it
    expect(b.predictions[8]).not.toBe(a.predictions[8]); // another fold's model saw the flip
  });

  it('null with too few labels or one class; errors name the item', () => {
    expect(fitCombinedPredictor(items.slice(0, 10))).toBeNull();
    expect(fitCombinedPredictor(items.map((it) => ({ ...it, label: it.label === null ? null : 1 })))).toBeNull();
    expect(() => fitCombinedPredictor([{ scores: [0.1] }, { scores: [0.1, 0.2] }])).toThrow('item 1: expected 1 scores, got 2');
  });
});
