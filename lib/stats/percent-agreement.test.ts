import { describe, expect, it } from 'vitest';
import { percentAgreement } from './percent-agreement';
import { encodeRatings, type Rating } from './ratings';

describe('percentAgreement', () => {
  it('averages pairwise agreement over units with at least two ratings', () => {
    const ratings: Rating[] = [
      // unit 1: a a b -> 1 agreeing pair of 3 -> 1/3
      { unit: 1, rater: 1, value: 'a' },
      { unit: 1, rater: 2, value: 'a' },
      { unit: 1, rater: 3, value: 'b' },
      // unit 2: a a -> 1
      { unit: 2, rater: 1, value: 'a' },
      { unit: 2, rater: 2, value: 'a' },
      // unit 3: single rating, dropped
      { unit: 3, rater: 1, value: 'b' },
    ];
    const p = percentAgreement(encodeRatings(ratings));
    expect(p.value).toBeCloseTo((1 / 3 + 1) / 2, 12);
    expect(p.nUnits).toBe(2);
  });
});
