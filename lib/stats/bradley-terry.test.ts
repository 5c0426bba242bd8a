import { describe, expect, it } from 'vitest';
import { aggregateBattles, type Battle, type BattleWinner, winMatrix } from './battles';
import { bradleyTerryRatings, fitBradleyTerry } from './bradley-terry';
import { mulberry32 } from './prng';

function battles(a: string, b: string, winner: BattleWinner, n: number): Battle[] {
  return Array.from({ length: n }, () => ({ model_a: a, model_b: b, winner }));
}
const rating = (r: { ratings: { model: string; rating: number }[] }, model: string) => r.ratings.find((x) => x.model === model)!.rating;

describe('bradleyTerryRatings', () => {
  it('gives equal ratings of 1000 to symmetric results', () => {
    const data = [
      ...battles('a', 'b', 'model_a', 4),
      ...battles('a', 'b', 'model_b', 4),
      ...battles('b', 'c', 'model_a', 3),
      ...battles('c', 'b', 'model_a', 3),
      ...battles('a', 'c', 'tie', 2),
    ];
    const r = bradleyTerryRatings(data, { bootstrap: 0 });
    for (const m of r.ratings) expect(m.rating).toBeCloseTo(1000, 9);
    expect(r.priorUsed).toBe(false);
  });

  it('puts A 400*log10(3) above B when A wins 3:1, centred on 1000', () => {
    const data = [...battles('A', 'B', 'model_a', 3), ...battles('B', 'A', 'model_a', 1)];
    const r = bradleyTerryRatings(data, { bootstrap: 0 });
    expect(rating(r, 'A') - rating(r, 'B')).toBeCloseTo(400 * Math.log10(3), 9);
    expect((rating(r, 'A') + rating(r, 'B')) / 2).toBeCloseTo(1000, 9);
    expect(r.ratings.map((m) => m.model)).toEqual(['A', 'B']);
    expect(r.ratings[0]!.battles).toBe(4);
  });

  it('counts both kinds of tie as half a win each way', () => {
    // 2 wins + 2 ties -> A credited 3, B credited 1: the same 3:1 odds
    const data = [...battles('A', 'B', 'model_a', 2), ...battles('A', 'B', 'tie', 1), ...battles('B', 'A', 'tie (bothbad)', 1)];
    const r = bradleyTerryRatings(data, { bootstrap: 0 });
    expect(rating(r, 'A') - rating(r, 'B')).toBeCloseTo(400 * Math.log10(3), 9);
  });

  it('satisfies the likelihood equations: expected wins equal observed wins', () => {
    const random = mulberry32(5);
    const strength = [0, 0.5, 1, -0.7, 0.2];
    const models = strength.map((_, i) => `m${i}`);
    const data: Battle[] = [];
    for (let k = 0; k < 3000; k++) {
      const i = Math.floor(random() * 5);
      const j = (i + 1 + Math.floor(random() * 4)) % 5;
      const p = 1 / (1 + 10 ** (strength[j]! - strength[i]!));
      const u = random();
      const winner: BattleWinner = u < 0.1 ? 'tie' : random() < p ? 'model_a' : 'model_b';
      data.push({ model_a: models[i]!, model_b: models[j]!, winner });
    }
    const agg = aggregateBattles(data);
    const W = winMatrix(agg, agg.cellCounts);
    const fit = fitBradleyTerry(W, 5);
    for (let i = 0; i < 5; i++) {
      let observed = 0;
      let expected = 0;
      for (let j = 0; j < 5; j++) {
        if (i === j) continue;
        const n = W[i * 5 + j]! + W[j * 5 + i]!;
        observed += W[i * 5 + j]!;
        expected += n / (1 + 10 ** ((fit.ratings[j]! - fit.ratings[i]!) / 400));
      }
      expect(expected).toBeCloseTo(observed, 6);
    }
    // recovers the generating strengths roughly (ties shrink gaps a little)
    const r = fit.ratings;
    expect(r[2]! > r[1]! && r[1]! > r[4]! && r[4]! > r[0]! && r[0]! > r[3]!).toBe(true);
  });

  it('keeps ratings finite when a model never loses or never wins', () => {
    const data = [...battles('A', 'B', 'model_a', 10), ...battles('B', 'C', 'model_a', 3), ...battles('C', 'B', 'model_a', 3)];
    const r = bradleyTerryRatings(data, { bootstrap: 50, seed: 2 });
    expect(r.priorUsed).toBe(true);
    for (const m of r.ratings) {
      expect(Number.isFinite(m.rating)).toBe(true);
      expect(m.ci!.every(Number.isFinite)).toBe(true);
    }
    expect(r.ratings[0]!.model).toBe('A');
    expect(rating(r, 'A') - rating(r, 'B')).toBeGreaterThan(200);
  });

  it('has deterministic bootstrap intervals that contain the ratings', () => {
    const random = mulberry32(9);
    const data: Battle[] = [];
    for (let k = 0; k < 2000; k++) {
      const i = Math.floor(random() * 4);
      const j = (i + 1 + Math.floor(random() * 3)) % 4;
      data.push({ model_a: `m${i}`, model_b: `m${j}`, winner: random() < 0.4 + 0.1 * (i - j) ? 'model_a' : 'model_b' });
    }
    const a = bradleyTerryRatings(data, { bootstrap: 200, seed: 4 });
    const b = bradleyTerryRatings(data, { bootstrap: 200, seed: 4 });
    expect(a).toEqual(b);
    for (const m of a.ratings) {
      expect(m.ci![0]).toBeLessThan(m.rating);
      expect(m.ci![1]).toBeGreaterThan(m.rating);
    }
    for (let i = 1; i < a.ratings.length; i++) expect(a.ratings[i - 1]!.rating).toBeGreaterThanOrEqual(a.ratings[i]!.rating);
  });

  it('rejects self-battles and unknown winners', () => {
    expect(() => bradleyTerryRatings(battles('A', 'A', 'model_a', 1))).toThrow(/cannot battle itself/);
    expect(() => bradleyTerryRatings([{ model_a: 'A', model_b: 'B', winner: 'draw' as BattleWinner }])).toThrow(/winner must be one of/);
  });
});
