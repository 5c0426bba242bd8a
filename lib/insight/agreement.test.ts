import { describe, expect, it } from 'vitest';
import { krippendorffAlpha } from '../stats/krippendorff-alpha';
import { Mulberry32 } from '../stats/prng';
import { encodeRatings, type Rating } from '../stats/ratings';
import { binaryAlpha, verifierKappa, type VerdictCounts } from './agreement';

describe('agreement from counts', () => {
  it("binary alpha from per-item pass/fail counts equals Krippendorff's alpha on the raw verdicts", () => {
    const random = new Mulberry32(3);
    const ratings: Rating[] = [];
    const byCounts = new Map<string, VerdictCounts>();
    for (let u = 0; u < 60; u++) {
      const m = 2 + Math.floor(random.next() * 3);
      const truth = random.next() < 0.6;
      let p = 0;
      for (let r = 0; r < m; r++) {
        const pass = random.next() < 0.8 ? truth : !truth;
        if (pass) p++;
        ratings.push({ unit: u, rater: r, value: pass ? 'pass' : 'fail' });
      }
      const key = `${p}/${m - p}`;
      const g = byCounts.get(key) ?? { passes: p, fails: m - p, units: 0 };
      g.units++;
      byCounts.set(key, g);
    }
    // items with a single verdict do not enter alpha
    byCounts.set('1/0', { passes: 1, fails: 0, units: 5 });
    const expected = krippendorffAlpha(encodeRatings(ratings), 'nominal').value;
    const got = binaryAlpha([...byCounts.values()]);
    expect(got.value).toBeCloseTo(expected, 10);
    expect(got.n).toBe(60);
    expect(got.ci![0]).toBeLessThan(got.value!);
    expect(got.ci![1]).toBeGreaterThan(got.value!);
  });

  it('perfect agreement is 1; no pairable item gives no value', () => {
    expect(
      binaryAlpha([
        { passes: 2, fails: 0, units: 3 },
        { passes: 0, fails: 3, units: 2 },
      ]).value,
    ).toBeCloseTo(1, 10);
    expect(binaryAlpha([{ passes: 1, fails: 0, units: 4 }])).toEqual({ value: null, ci: null, n: 0 });
  });

  it("Cohen's kappa of verifier vs reviewers on a 2 x 2 table", () => {
    // po = 35/50 = .7, pe = .5*.6 + .5*.4 = .5 -> kappa .4
    const k = verifierKappa({ pp: 20, pf: 5, fp: 10, ff: 15 });
    expect(k.value).toBeCloseTo(0.4, 10);
    expect(k.n).toBe(50);
    expect(k.ci![0]).toBeLessThan(0.4);
    expect(k.ci![1]).toBeGreaterThan(0.4);
    expect(verifierKappa({ pp: 0, pf: 0, fp: 0, ff: 0 }).value).toBeNull();
  });
});
