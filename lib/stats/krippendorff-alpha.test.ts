import { describe, expect, it } from 'vitest';
import { bootstrapCoefficient } from './bootstrap';
import { coincidenceMatrix } from './coincidence-matrix';
import { krippendorffAlpha } from './krippendorff-alpha';
import { mulberry32 } from './prng';
import { encodeRatings, type MeasurementLevel, type Rating } from './ratings';
import { reliabilityMatrix } from './reliability-matrix';

/** Reliability data as rows of a raters x units table, `.` = missing. */
function fromTable(rows: Record<string, string>): Rating[] {
  const out: Rating[] = [];
  for (const [rater, row] of Object.entries(rows)) {
    row.split(/\s+/).forEach((cell, u) => {
      if (cell !== '.') out.push({ unit: u + 1, rater, value: Number(cell) });
    });
  }
  return out;
}

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C (4 coders, 12 units).
const paper = fromTable({
  A: '1 2 3 3 2 1 4 1 2 . . .',
  B: '1 2 3 3 2 2 4 1 2 5 . 3',
  C: '. 3 3 3 2 3 4 2 2 5 1 .',
  D: '1 2 3 3 2 4 4 1 2 5 1 .',
});

const levels: MeasurementLevel[] = ['nominal', 'ordinal', 'interval', 'ratio'];

/** Independent reference: explicit ordered value pairs and the textbook difference functions. */
function naiveAlpha(ratings: Rating[], level: MeasurementLevel): number {
  const byUnit = new Map<string | number, number[]>();
  for (const r of ratings) byUnit.set(r.unit, [...(byUnit.get(r.unit) ?? []), r.value as number]);
  const values = [...new Set(ratings.map((r) => r.value as number))].sort((a, b) => a - b);
  const o = new Map<string, number>();
  const nc = new Map<number, number>();
  for (const vs of byUnit.values()) {
    if (vs.length < 2) continue;
    for (let i = 0; i < vs.length; i++) {
      nc.set(vs[i]!, (nc.get(vs[i]!) ?? 0) + 1);
      for (let j = 0; j < vs.length; j++) {
        if (i === j) continue;
        const key = `${vs[i]},${vs[j]}`;
        o.set(key, (o.get(key) ?? 0) + 1 / (vs.length - 1));
      }
    }
  }
  const n = [...nc.values()].reduce((a, b) => a + b, 0);
  const delta = (c: number, k: number): number => {
    if (level === 'nominal') return c === k ? 0 : 1;
    if (level === 'interval') return (c - k) ** 2;
    if (level === 'ratio') return c + k === 0 ? 0 : ((c - k) / (c + k)) ** 2;
    const [lo, hi] = c <= k ? [c, k] : [k, c];
    let s = 0;
    for (const g of values) if (g >= lo && g <= hi) s += nc.get(g) ?? 0;
    return (s - ((nc.get(c) ?? 0) + (nc.get(k) ?? 0)) / 2) ** 2;
  };
  let obs = 0;
  let exp = 0;
  for (const c of values) {
    for (const k of values) {
      obs += (o.get(`${c},${k}`) ?? 0) * delta(c, k);
      exp += (nc.get(c) ?? 0) * (nc.get(k) ?? 0) * delta(c, k);
    }
  }
  return 1 - ((n - 1) * obs) / exp;
}

function randomRatings(seed: number, units: number, raters: number, missing: number, values: number[]): Rating[] {
  const random = mulberry32(seed);
  const out: Rating[] = [];
  for (let u = 0; u < units; u++) {
    const truth = Math.floor(random() * values.length);
    for (let r = 0; r < raters; r++) {
      if (random() < missing) continue;
      const noisy = random() < 0.6 ? truth : Math.floor(random() * values.length);
      out.push({ unit: `u${u}`, rater: `r${r}`, value: values[noisy]! });
    }
  }
  return out;
}

describe('krippendorffAlpha', () => {
  it("reproduces Krippendorff (2011)'s published values at every level", () => {
    const data = encodeRatings(paper);
    expect(krippendorffAlpha(data, 'nominal').value).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(data, 'ordinal').value).toBeCloseTo(0.815, 3);
    expect(krippendorffAlpha(data, 'interval').value).toBeCloseTo(0.849, 3);
    expect(krippendorffAlpha(data, 'ratio').value).toBeCloseTo(0.797, 3);
    // unit 12 has a single value and drops out
    expect(krippendorffAlpha(data, 'nominal').nUnits).toBe(11);
  });

  it("builds the paper's coincidence matrix (marginals 9, 13, 10, 5, 3; n = 40)", () => {
    const data = encodeRatings(paper);
    const o = coincidenceMatrix(data);
    const C = data.categories.length;
    const marginals = Array.from({ length: C }, (_, c) => o.slice(c * C, (c + 1) * C).reduce((a, b) => a + b, 0));
    expect(data.categories).toEqual([1, 2, 3, 4, 5]);
    marginals.forEach((m, c) => expect(m).toBeCloseTo([9, 13, 10, 5, 3][c]!, 12));
    // o_11 = 3*2/2 (unit 1: three 1s of m=3) + 3*2/3 (unit 8: three 1s of m=4) + 2*1/1 (unit 11) = 7
    expect(o[0]).toBeCloseTo(7, 12);
    for (let c = 0; c < C; c++) for (let k = 0; k < C; k++) expect(o[c * C + k]).toBeCloseTo(o[k * C + c]!, 12);
  });

  it('matches an explicit pairwise reference on random data with missing values', () => {
    for (let seed = 1; seed <= 8; seed++) {
      const ratings = randomRatings(seed, 40, 5, 0.3, [0, 1, 2.5, 3, 7]);
      const data = encodeRatings(ratings);
      for (const level of levels) {
        expect(krippendorffAlpha(data, level).value).toBeCloseTo(naiveAlpha(ratings, level), 12);
      }
    }
  });

  it('is 1 when all raters give identical values', () => {
    const random = mulberry32(7);
    const ratings: Rating[] = [];
    for (let u = 0; u < 30; u++) {
      const v = 1 + Math.floor(random() * 5);
      for (const rater of ['a', 'b', 'c']) ratings.push({ unit: u, rater, value: v });
    }
    for (const level of levels) expect(krippendorffAlpha(encodeRatings(ratings), level).value).toBeCloseTo(1, 12);
  });

  it('does not change when raters, units or rows are permuted', () => {
    const ratings = randomRatings(3, 50, 4, 0.2, [1, 2, 3, 4, 5]);
    const random = mulberry32(11);
    const shuffled = [...ratings];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    const renamed = shuffled.map((r) => ({ ...r, unit: `x${r.unit}`, rater: `z${r.rater}` }));
    for (const level of levels) {
      const base = krippendorffAlpha(encodeRatings(ratings), level).value;
      expect(krippendorffAlpha(encodeRatings(shuffled), level).value).toBeCloseTo(base, 12);
      expect(krippendorffAlpha(encodeRatings(renamed), level).value).toBeCloseTo(base, 12);
    }
  });

  it('accepts strings at the nominal level only', () => {
    const ratings: Rating[] = [
      { unit: 1, rater: 'a', value: 'yes' },
      { unit: 1, rater: 'b', value: 'yes' },
      { unit: 2, rater: 'a', value: 'no' },
      { unit: 2, rater: 'b', value: 'yes' },
      { unit: 3, rater: 'a', value: 'no' },
      { unit: 3, rater: 'b', value: 'no' },
    ];
    const data = encodeRatings(ratings);
    // o: yes-yes 2, no-no 2, yes-no 1, no-yes 1; n = 6; n_yes = n_no = 3
    // alpha = 1 - 5 * 2 / (36 - 18) = 1 - 10/18 = 0.4444
    expect(krippendorffAlpha(data, 'nominal').value).toBeCloseTo(4 / 9, 12);
    expect(() => krippendorffAlpha(data, 'interval')).toThrow(/interval level needs numeric values.*"no"/);
  });

  it('is NaN without variation and rejects negative ratio values', () => {
    const same = encodeRatings([
      { unit: 1, rater: 'a', value: 2 },
      { unit: 1, rater: 'b', value: 2 },
    ]);
    expect(krippendorffAlpha(same, 'nominal').value).toBeNaN();
    const negative = encodeRatings([
      { unit: 1, rater: 'a', value: -1 },
      { unit: 1, rater: 'b', value: 2 },
    ]);
    expect(() => krippendorffAlpha(negative, 'ratio')).toThrow(/non-negative/);
  });

  it('has a deterministic bootstrap interval that contains the point estimate', () => {
    for (let seed = 1; seed <= 4; seed++) {
      const data = encodeRatings(randomRatings(seed, 200, 4, 0.1, [1, 2, 3, 4, 5]));
      for (const level of levels) {
        const alpha = krippendorffAlpha(data, level);
        const a = bootstrapCoefficient(alpha, { replicates: 300, seed });
        const b = bootstrapCoefficient(alpha, { replicates: 300, seed });
        expect(a.ci).toEqual(b.ci);
        expect(a.ci![0]).toBeLessThanOrEqual(alpha.value);
        expect(a.ci![1]).toBeGreaterThanOrEqual(alpha.value);
        expect(a.ci![1] - a.ci![0]).toBeGreaterThan(0);
      }
    }
  });

  it('recomputes the point estimate when every group has its own multiplicity', () => {
    const alpha = krippendorffAlpha(encodeRatings(paper), 'ordinal');
    const { groupOf, nGroups, statistic } = alpha.resampling();
    const w = new Float64Array(nGroups);
    for (const g of groupOf) w[g]!++;
    expect(statistic(w)).toBeCloseTo(alpha.value, 12);
  });
});

describe('reliabilityMatrix', () => {
  it('lays the ratings out as raters x units with nulls for missing', () => {
    const m = reliabilityMatrix(encodeRatings(paper));
    expect(m.raters).toEqual(['A', 'B', 'C', 'D']);
    expect(m.values[2]!.slice(0, 3)).toEqual([null, 3, 3]);
    expect(m.values[0]![11]).toBeNull();
  });
});
