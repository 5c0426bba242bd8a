import { describe, expect, it } from 'vitest';
import { findDisagreements, tallyText } from './disagreements';
import { questionRatings } from './question-ratings';
import { campaign, item, review } from './test/campaign-fixture';

describe('the disagreement queue', () => {
  const data = campaign(
    [item('calm'), item('split'), item('spread')],
    [
      review('calm', 'a', { criteria: { t: 'pass' }, quality: 4, flags: [] }),
      review('calm', 'b', { criteria: { t: 'pass' }, quality: 5, flags: [] }),
      review('calm', 'c', { criteria: { t: 'pass' }, quality: 4, flags: [] }),
      review('split', 'a', { criteria: { t: 'pass' }, quality: 3, flags: ['unsafe'] }),
      review('split', 'b', { criteria: { t: 'fail' }, quality: 3, flags: [] }),
      review('split', 'c', { criteria: { t: 'fail' }, quality: 3, flags: ['unsafe'] }),
      review('spread', 'a', { criteria: { t: 'pass' }, quality: 2, flags: [] }),
      review('spread', 'b', { criteria: { t: 'pass' }, quality: 4, flags: [] }),
      review('spread', 'c', { criteria: { t: 'pass' }, quality: 3, flags: [] }),
    ],
  );

  it('flags a 2-1 split under the default 0.75 majority cut and a Likert range of 2, most split first', () => {
    const queue = findDisagreements(questionRatings(data));
    expect(queue.map((d) => d.itemId)).toEqual(['split', 'spread']);
    expect(queue[0]!.splits.map((s) => [s.questionKey, s.detail, s.answers])).toEqual([
      ['criteria', 't', 'fail ×2, pass ×1'],
      ['flags.unsafe', null, '1 ×2, 0 ×1'],
    ]);
    expect(queue[0]!.reviews).toBe(3);
    expect(queue[1]!.splits).toEqual([
      { questionKey: 'quality', label: 'Quality', detail: null, answers: '2 – 4 (2 ×1, 3 ×1, 4 ×1)', consensus: 0.5 },
    ]);
  });

  it('follows the thresholds: a looser cut lets 2-1 splits through, a wider range lets 2..4 through', () => {
    expect(findDisagreements(questionRatings(data), { majorityCut: 0.6, ordinalRange: 3 })).toEqual([]);
  });

  it('writes tallies most common first', () => {
    expect(tallyText(['b', 'a', 'b'])).toBe('b ×2, a ×1');
  });
});
