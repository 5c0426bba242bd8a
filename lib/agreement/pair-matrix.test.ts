import { describe, expect, it } from 'vitest';
import { cellFor, pairMatrix } from './pair-matrix';
import type { QuestionRatings } from './question-ratings';

describe('the reviewer x reviewer matrix', () => {
  it('gives each pair its shared items, percent agreement and alpha', () => {
    const rows: [string, string, string][] = [
      ['u1', 'a', 'x'],
      ['u1', 'b', 'x'],
      ['u1', 'c', 'y'],
      ['u2', 'a', 'y'],
      ['u2', 'b', 'y'],
      ['u2', 'c', 'y'],
      ['u3', 'a', 'x'],
      ['u3', 'b', 'x'],
      ['u4', 'a', 'y'],
      ['u4', 'c', 'x'],
    ];
    const q: QuestionRatings = {
      key: 'q',
      label: 'q',
      kind: 'single',
      level: 'nominal',
      ratings: rows.map(([unit, rater, value]) => ({ unit, rater, value, itemId: unit, at: 0 })),
    };
    const m = pairMatrix(q);
    expect(m.raters).toEqual(['a', 'b', 'c']);
    // a and b agree on u1, u2, u3 with both values present: perfect agreement
    expect(cellFor(m, 'b', 'a')).toMatchObject({ shared: 3, percent: 1, alpha: 1 });
    // a and c: u1 x/y, u2 y/y, u4 y/x -> 1 of 3 agree; nominal alpha for 2 raters:
    // values x:2, y:4 (n=6); observed disagreement pairs 2 units * 2 = 4 ordered pairs;
    // alpha = 1 - (n-1) * 4 / (n^2 - sum n_c^2) = 1 - 5*4/(36-20) = -0.25
    const ac = cellFor(m, 'a', 'c')!;
    expect(ac.shared).toBe(3);
    expect(ac.percent).toBeCloseTo(1 / 3);
    expect(ac.alpha).toBeCloseTo(-0.25);
    expect(cellFor(m, 'b', 'c')).toMatchObject({ shared: 2, percent: 0.5 });
  });
});
