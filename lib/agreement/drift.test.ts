import { describe, expect, it } from 'vitest';
import { driftBatches } from './drift';
import type { QuestionRatings, TimedRating } from './question-ratings';

describe('agreement over time', () => {
  it('cuts items into chronological batches and computes alpha within each', () => {
    const ratings: TimedRating[] = [];
    // six items: the first three rated identically, the last three in full disagreement
    for (let i = 0; i < 6; i++) {
      const values = i < 3 ? [i % 2 ? 'x' : 'y', i % 2 ? 'x' : 'y'] : ['x', 'y'];
      values.forEach((value, r) => ratings.push({ unit: `u${i}`, itemId: `u${i}`, rater: `r${r}`, value, at: 1000 * i + r }));
    }
    const q: QuestionRatings = { key: 'q', label: 'q', kind: 'single', level: 'nominal', ratings };
    const batches = driftBatches([q], { batches: 2, minItems: 3 });
    expect(batches.map((b) => b.items)).toEqual([3, 3]);
    expect(batches[0]!.alpha.q).toBe(1);
    expect(batches[1]!.alpha.q).toBeLessThan(0);
    expect(batches[0]!.from).toBe(1);
    expect(batches[1]!.to).toBe(5001);
  });
});
