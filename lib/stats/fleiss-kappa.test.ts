import { describe, expect, it } from 'vitest';
import { fleissKappa } from './fleiss-kappa';
import { encodeRatings, type Rating } from './ratings';

/** Ratings from a units x categories count table; rater ids differ per unit on purpose. */
function fromCounts(table: number[][]): Rating[] {
  const out: Rating[] = [];
  table.forEach((row, u) => {
    let r = 0;
    row.forEach((count, c) => {
      for (let i = 0; i < count; i++) out.push({ unit: u, rater: `u${u}-r${r++}`, value: c + 1 });
    });
  });
  return out;
}

// Wikipedia, "Fleiss' kappa", worked example: 10 subjects, 14 raters, 5 categories.
const wikipedia = [
  [0, 0, 0, 0, 14],
  [0, 2, 6, 4, 2],
  [0, 0, 3, 5, 6],
  [0, 3, 9, 2, 0],
  [2, 2, 8, 1, 1],
  [7, 7, 0, 0, 0],
  [3, 2, 6, 3, 0],
  [2, 5, 3, 2, 2],
  [6, 5, 2, 1, 0],
  [0, 2, 2, 3, 7],
];

describe('fleissKappa', () => {
  it("gives 0.210 on Wikipedia's 10 x 14 example (P-bar 0.378, P_e 0.213)", () => {
    const k = fleissKappa(encodeRatings(fromCounts(wikipedia)));
    expect(k.value).toBeCloseTo(0.21, 3);
    expect(k.nUnits).toBe(10);
  });

  it('is 1 under perfect agreement', () => {
    const k = fleissKappa(
      encodeRatings(
        fromCounts([
          [3, 0],
          [0, 3],
          [3, 0],
        ]),
      ),
    );
    expect(k.value).toBeCloseTo(1, 12);
  });

  it('refuses units with different numbers of ratings, naming them', () => {
    const ratings = fromCounts([
      [2, 1],
      [1, 1],
    ]);
    expect(() => fleissKappa(encodeRatings(ratings))).toThrow(
      "Fleiss' kappa needs the same number of ratings for every unit; unit 0 has 3 but unit 1 has 2",
    );
  });
});
