import { describe, expect, it } from 'vitest';
import { leaveOneOutAgreement } from './leave-one-out';
import type { QuestionRatings, TimedRating } from './question-ratings';

function q(level: 'nominal' | 'ordinal', rows: [string, string, string | number][]): QuestionRatings {
  const ratings: TimedRating[] = rows.map(([unit, rater, value]) => ({ unit, rater, value, itemId: unit, at: 0 }));
  return { key: 'q', label: 'q', kind: level === 'nominal' ? 'single' : 'likert', level, ratings };
}

describe('agreement with the leave-one-out consensus', () => {
  it('compares each reviewer with the others’ majority, skipping ties among the others', () => {
    const question = q('nominal', [
      ['u1', 'a', 'x'],
      ['u1', 'b', 'x'],
      ['u1', 'c', 'y'],
      ['u2', 'a', 'x'],
      ['u2', 'b', 'y'],
      ['u2', 'c', 'y'],
      ['u3', 'a', 'x'],
      ['u3', 'b', 'x'],
      ['u3', 'c', 'x'],
    ]);
    const result = leaveOneOutAgreement([question]);
    // u1: a vs {x,y} tie skipped; b vs {x,y} tie skipped; c vs {x,x} -> disagree
    // u2: a vs {y,y} -> disagree; b, c ties skipped
    // u3: everyone agrees with the other two
    expect(result.get('a')).toEqual({ agreed: 1, compared: 2 });
    expect(result.get('b')).toEqual({ agreed: 1, compared: 1 });
    expect(result.get('c')).toEqual({ agreed: 1, compared: 2 });
  });

  it('counts an ordinal answer as agreeing within half a point of the others’ median', () => {
    const result = leaveOneOutAgreement([
      q('ordinal', [
        ['u', 'a', 3],
        ['u', 'b', 4],
        ['u', 'c', 5],
      ]),
    ]);
    // a vs median(4,5)=4.5 -> off by 1.5; b vs median(3,5)=4 -> agrees; c vs 3.5 -> off by 1.5
    expect(result.get('a')).toEqual({ agreed: 0, compared: 1 });
    expect(result.get('b')).toEqual({ agreed: 1, compared: 1 });
    expect(result.get('c')).toEqual({ agreed: 0, compared: 1 });
  });
});
