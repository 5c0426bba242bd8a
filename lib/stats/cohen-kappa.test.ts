import { describe, expect, it } from 'vitest';
import { bootstrapCoefficient } from './bootstrap';
import { cohenKappa } from './cohen-kappa';
import { encodeRatings, type Rating } from './ratings';

/** Two raters' labels, paired by position (as scikit-learn's y1, y2). */
function paired(y1: (number | string)[], y2: (number | string)[]): Rating[] {
  return y1.flatMap((v, i) => [
    { unit: i, rater: 'a', value: v },
    { unit: i, rater: 'b', value: y2[i]! },
  ]);
}
const rep = (v: number, n: number) => new Array<number>(n).fill(v);

describe('cohenKappa', () => {
  it('gives 0.348 on the 2x2 table [[20, 20], [10, 50]] (Artstein & Poesio 2008, Table 1)', () => {
    // p_o = 0.70, p_e = 0.4*0.3 + 0.6*0.7 = 0.54, kappa = 0.16/0.46 = 0.3478
    const y1 = [...rep(0, 40), ...rep(1, 60)];
    const y2 = [...rep(0, 20), ...rep(1, 20), ...rep(0, 10), ...rep(1, 50)];
    expect(cohenKappa(encodeRatings(paired(y1, y2))).value).toBeCloseTo(0.16 / 0.46, 12);
    expect(cohenKappa(encodeRatings(paired(y1, y2))).value).toBeCloseTo(0.348, 3);
    expect(cohenKappa(encodeRatings(paired(y2, y1))).value).toBeCloseTo(0.348, 3);
  });

  it("reproduces scikit-learn's multiclass and weighted test values", () => {
    // Artstein & Poesio Table 4: p_o = 0.88, p_e = .46*.52 + .44*.32 + .10*.16 = .396 -> 0.8013
    const a = paired([...rep(0, 46), ...rep(1, 44), ...rep(2, 10)], [...rep(0, 52), ...rep(1, 32), ...rep(2, 16)]);
    expect(cohenKappa(encodeRatings(a)).value).toBeCloseTo(0.8013, 4);

    // pairs (0,0)x46 (1,0)x4 (1,1)x40 (2,2)x10; rows .46 .44 .10, cols .50 .40 .10
    // none:      p_o = .96, p_e = .416, kappa = .544/.584 = 0.9315
    // linear:    d = |i-j|:   observed .04, expected .184+.22+.044+.04 + 2(.046+.05) = .68  -> 1 - .04/.68  = 0.9412
    // quadratic: d = (i-j)^2: observed .04, expected .488 + 4(.046+.05) = .872              -> 1 - .04/.872 = 0.9541
    const b = encodeRatings(paired([...rep(0, 46), ...rep(1, 44), ...rep(2, 10)], [...rep(0, 50), ...rep(1, 40), ...rep(2, 10)]));
    expect(cohenKappa(b).value).toBeCloseTo(0.544 / 0.584, 12);
    expect(cohenKappa(b, 'linear').value).toBeCloseTo(1 - 0.04 / 0.68, 12);
    expect(cohenKappa(b, 'quadratic').value).toBeCloseTo(1 - 0.04 / 0.872, 12);
    expect(cohenKappa(b, 'linear').value).toBeCloseTo(0.9412, 4);
    expect(cohenKappa(b, 'quadratic').value).toBeCloseTo(0.9541, 4);
  });

  it('weights by rank among observed values, not by the values themselves', () => {
    const y1 = [...rep(0, 46), ...rep(1, 44), ...rep(2, 10)];
    const y2 = [...rep(0, 50), ...rep(1, 40), ...rep(2, 10)];
    const spaced = (v: number) => [1, 10, 1000][v]!;
    const b = encodeRatings(paired(y1.map(spaced), y2.map(spaced)));
    expect(cohenKappa(b, 'linear').value).toBeCloseTo(1 - 0.04 / 0.68, 12);
  });

  it('drops units rated by one rater only, and is 1 for identical raters', () => {
    const ratings = paired([1, 2, 3, 1], [1, 2, 3, 1]);
    ratings.push({ unit: 99, rater: 'a', value: 3 });
    const k = cohenKappa(encodeRatings(ratings));
    expect(k.value).toBeCloseTo(1, 12);
    expect(k.nUnits).toBe(4);
  });

  it('says which raters it found when there are not exactly two', () => {
    const three: Rating[] = [
      { unit: 1, rater: 'a', value: 1 },
      { unit: 1, rater: 'b', value: 1 },
      { unit: 1, rater: 'c', value: 2 },
    ];
    expect(() => cohenKappa(encodeRatings(three))).toThrow("Cohen's kappa needs exactly two raters; the data has 3: a, b, c");
  });

  it('needs numeric values for weights', () => {
    const data = encodeRatings(paired(['x', 'y'], ['x', 'x']));
    expect(() => cohenKappa(data, 'linear')).toThrow(/numeric values/);
    expect(cohenKappa(data).value).toBeCloseTo(0, 12);
  });

  it('has a bootstrap interval containing the estimate', () => {
    const y1 = [...rep(0, 40), ...rep(1, 60)];
    const y2 = [...rep(0, 20), ...rep(1, 20), ...rep(0, 10), ...rep(1, 50)];
    const k = cohenKappa(encodeRatings(paired(y1, y2)));
    const { ci } = bootstrapCoefficient(k, { replicates: 500, seed: 3 });
    expect(ci![0]).toBeLessThan(k.value);
    expect(ci![1]).toBeGreaterThan(k.value);
  });
});
