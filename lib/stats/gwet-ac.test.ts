import { describe, expect, it } from 'vitest';
import { cohenKappa } from './cohen-kappa';
import { gwetAc } from './gwet-ac';
import { encodeRatings, type Rating } from './ratings';

function rows(table: Record<string, (string | number | null)[]>): Rating[] {
  const out: Rating[] = [];
  for (const [rater, values] of Object.entries(table)) {
    values.forEach((value, u) => {
      if (value !== null) out.push({ unit: u + 1, rater, value });
    });
  }
  return out;
}

function twoByTwo(yy: number, yn: number, ny: number, nn: number): Rating[] {
  const out: Rating[] = [];
  let u = 0;
  for (const [a, b, count] of [
    ['yes', 'yes', yy],
    ['yes', 'no', yn],
    ['no', 'yes', ny],
    ['no', 'no', nn],
  ] as const) {
    for (let i = 0; i < count; i++, u++) out.push({ unit: u, rater: 'A', value: a }, { unit: u, rater: 'B', value: b });
  }
  return out;
}

describe('gwetAc', () => {
  it('resolves the kappa paradox on a skewed 2x2 table (hand computed)', () => {
    // 118 yes/yes, 5 yes/no, 2 no/yes, 0 no/no; n = 125, p_a = 118/125 = .944
    // marginals: A yes .984, B yes .96 -> pi_yes = .972, pi_no = .028
    // AC1:   p_e = (1/(2-1)) (.972*.028 + .028*.972) = .054432 -> (.944 - .054432)/.945568 = 0.94078
    // kappa: p_e = .984*.96 + .016*.04 = .94528                 -> (.944 - .94528)/.05472  = -0.02339
    const data = encodeRatings(twoByTwo(118, 5, 2, 0));
    expect(gwetAc(data).value).toBeCloseTo((0.944 - 0.054432) / 0.945568, 12);
    expect(cohenKappa(data).value).toBeCloseTo((0.944 - 0.94528) / 0.05472, 12);
  });

  it('handles three raters with missing ratings (Gwet 2014 multi-rater formulas, hand computed)', () => {
    // unit 1: a a a  -> 3*2/(3*2) = 1
    // unit 2: a b .  -> 0
    // unit 3: b b a  -> 2*1/(3*2) = 1/3
    // unit 4: b . .  -> one rating: only in pi
    // p_a = (1 + 0 + 1/3)/3 = 4/9
    // pi_a = (1 + 1/2 + 1/3 + 0)/4 = 11/24, pi_b = 13/24
    // p_e = 2 * 11/24 * 13/24 = 143/288;  AC1 = (4/9 - 143/288)/(1 - 143/288) = -15/145
    const data = encodeRatings(
      rows({
        r1: ['a', 'a', 'b', 'b'],
        r2: ['a', 'b', 'b', null],
        r3: ['a', null, 'a', null],
      }),
    );
    const ac1 = gwetAc(data);
    expect(ac1.value).toBeCloseTo(-15 / 145, 12);
    expect(ac1.nUnits).toBe(4);
  });

  it('computes AC2 with linear weights from the category values (hand computed)', () => {
    // units (1,1) (1,2) (2,3) (3,3) (2,2); linear w_kl = 1 - |k-l|/2, T_w = 3 + 4*0.5 = 5
    // per unit sum_k r_k (r*_k - 1)/2: 1, .5, .5, 1, 1 -> p_a = 0.8
    // pi = (.3, .4, .3); sum pi(1-pi) = .66; p_e = 5/(3*2) * .66 = .55
    // AC2 = (.8 - .55)/(1 - .55) = 5/9;  AC1: p_a = .6, p_e = .66/2 = .33 -> .27/.67
    const data = encodeRatings(rows({ a: [1, 1, 2, 3, 2], b: [1, 2, 3, 3, 2] }));
    expect(gwetAc(data, 'linear').value).toBeCloseTo(5 / 9, 12);
    expect(gwetAc(data).value).toBeCloseTo(0.27 / 0.67, 12);
    // quadratic: w = 1 - (k-l)^2/4 -> off-by-one .75, T_w = 3 + 4*.75 = 6; per unit: 1, .75, .75, 1, 1 -> p_a = .9
    // p_e = 6/6 * .66 = .66 -> AC2 = .24/.34
    expect(gwetAc(data, 'quadratic').value).toBeCloseTo(0.24 / 0.34, 12);
  });

  it('equals 1 under perfect agreement and needs numbers for weights', () => {
    const data = encodeRatings(rows({ a: ['x', 'y', 'x'], b: ['x', 'y', 'x'] }));
    expect(gwetAc(data).value).toBeCloseTo(1, 12);
    expect(() => gwetAc(data, 'quadratic')).toThrow(/numeric values/);
  });
});
