import { describe, expect, it } from 'vitest';
import { computeAgreement, reliabilityBand } from './compute-agreement';
import { encodeRatings, type Rating } from './ratings';

const ratings: Rating[] = [];
'1 2 3 3 2 1 4 1 2 . . .|1 2 3 3 2 2 4 1 2 5 . 3|. 3 3 3 2 3 4 2 2 5 1 .|1 2 3 3 2 4 4 1 2 5 1 .'.split('|').forEach((row, r) =>
  row.split(' ').forEach((v, u) => {
    if (v !== '.') ratings.push({ unit: u, rater: 'ABCD'[r]!, value: Number(v) });
  }),
);

describe('computeAgreement', () => {
  it('reports value, counts and interval', () => {
    const r = computeAgreement(ratings, { metric: 'alpha', level: 'interval', bootstrap: 200, seed: 1 });
    expect(r.value).toBeCloseTo(0.849, 3);
    expect(r).toMatchObject({ metric: 'alpha', level: 'interval', weights: null, nUnits: 11, nUnitsTotal: 12, nRaters: 4, nRatings: 41 });
    expect(r.ci![0]).toBeLessThan(r.value);
    expect(r.ci![1]).toBeGreaterThanOrEqual(r.value);
    expect(computeAgreement(encodeRatings(ratings), { metric: 'percent', bootstrap: 0 }).ci).toBeNull();
  });

  it('rejects options that do not apply', () => {
    expect(() => computeAgreement(ratings, { metric: 'fleiss', weights: 'linear' })).toThrow(/Weights apply to/);
    expect(() => computeAgreement(ratings, { metric: 'gwet', level: 'ordinal' })).toThrow(/level applies to Krippendorff's alpha only/);
    expect(() => computeAgreement(ratings, { metric: 'cohen' })).toThrow(/exactly two raters; the data has 4: A, B, C, D/);
    expect(() => computeAgreement(ratings, { metric: 'fleiss' })).toThrow(/same number of ratings/);
  });

  it('bands values by Krippendorff guidance', () => {
    expect(reliabilityBand(0.8)).toBe('reliable');
    expect(reliabilityBand(0.7)).toBe('tentative');
    expect(reliabilityBand(0.5)).toBe('unusable');
    expect(reliabilityBand(Number.NaN)).toBe('undefined');
  });
});
