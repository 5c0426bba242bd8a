import { describe, expect, it } from 'vitest';
import { majorityAnswers } from './majority-answers';
import { fixtureRubric } from './test/campaign-fixture';

describe('the majority answer as the final label’s starting point', () => {
  it('takes the rounded median, the most common choice, per-criterion majorities (none on a tie) and flags chosen by more than half', () => {
    const result = majorityAnswers(fixtureRubric, [
      { criteria: { a: 'pass', b: 'fail' }, quality: 2, flags: ['unsafe'], notes: 'x' },
      { criteria: { a: 'pass', b: 'pass' }, quality: 3, flags: ['unsafe', 'reward_hacking'] },
      { criteria: { a: 'fail' }, quality: 5, flags: [] },
      { criteria: { a: 'pass' }, quality: 4, flags: ['unsafe'] },
    ]);
    expect(result).toEqual({ criteria: { a: 'pass' }, quality: 4, flags: ['unsafe'] });
  });
});
