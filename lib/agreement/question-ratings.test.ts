import { describe, expect, it } from 'vitest';
import { questionRatings, valueSpan } from './question-ratings';
import { campaign, item, review } from './test/campaign-fixture';

describe('ratings per rubric question', () => {
  const data = campaign(
    [item('i1'), item('i2')],
    [
      review('i1', 'r1', { criteria: { tests: 'pass', style: 'fail' }, quality: 4, flags: ['unsafe'], notes: 'x' }),
      review('i1', 'r2', { criteria: { tests: 'pass', style: 'pass' }, quality: 5, flags: [] }),
      review('i2', 'r1', { criteria: { tests: 'fail' }, quality: 2 }),
    ],
  );
  const byKey = Object.fromEntries(questionRatings(data).map((q) => [q.key, q]));

  it('gives each question its level, excludes free text, and splits each multi-choice flag into its own binary item', () => {
    expect(Object.keys(byKey)).toEqual(['criteria', 'quality', 'flags.reward_hacking', 'flags.unsafe']);
    expect(byKey.quality!.level).toBe('ordinal');
    expect(byKey.criteria!.level).toBe('nominal');
    expect(byKey['flags.unsafe']!.level).toBe('nominal');
    // r1 on i2 did not answer the flags question: no rating (not a "0")
    expect(byKey['flags.unsafe']!.ratings.map((r) => [r.unit, r.rater, r.value])).toEqual([
      ['i1', 'r1', 1],
      ['i1', 'r2', 0],
    ]);
  });

  it('makes one unit per item and criterion', () => {
    expect(byKey.criteria!.ratings.map((r) => [r.unit, r.value])).toEqual([
      ['i1:tests', 'pass'],
      ['i1:style', 'fail'],
      ['i1:tests', 'pass'],
      ['i1:style', 'pass'],
      ['i2:tests', 'fail'],
    ]);
  });

  it('reads a pairwise campaign as preference (ordinal), both-bad and per-side criteria', () => {
    const at = new Date();
    const pairwise = {
      ...campaign([item('p1')], []),
      mode: 'pairwise' as const,
      comparisons: [
        {
          itemId: 'p1',
          reviewerId: 'r1',
          reviewerName: 'R1',
          preference: -2,
          bothBad: false,
          criteria: { a: { works: 'pass' }, b: { works: 'fail' } },
          submittedAt: at,
        },
        {
          itemId: 'p1',
          reviewerId: 'r2',
          reviewerName: 'R2',
          preference: 1,
          bothBad: false,
          criteria: { a: { works: 'pass' }, b: { works: 'pass' } },
          submittedAt: at,
        },
      ],
    };
    const q = questionRatings(pairwise);
    expect(q.map((x) => [x.key, x.level])).toEqual([
      ['preference', 'ordinal'],
      ['both_bad', 'nominal'],
      ['side_criteria', 'nominal'],
    ]);
    expect(q[2]!.ratings.map((r) => r.unit)).toEqual(['p1:a:works', 'p1:b:works', 'p1:a:works', 'p1:b:works']);
  });
});

describe('valueSpan', () => {
  it('spans a million ratings (Math.max(...values) throws a RangeError there) and is 0 for none', () => {
    const ratings = Array.from({ length: 1_000_000 }, (_, i) => ({ value: (i * 7919) % 1_000_003 }));
    ratings.push({ value: -5 });
    let hi = -Infinity;
    for (const r of ratings) hi = r.value > hi ? r.value : hi;
    expect(valueSpan(ratings)).toBe(hi + 5);
    expect(valueSpan([])).toBe(0);
    expect(valueSpan([{ value: 3 }])).toBe(0);
  });
});
