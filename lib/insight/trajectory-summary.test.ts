import { describe, expect, it } from 'vitest';
import { standardFlags } from '../review/rubric';
import { insightKeys, summariseTrajectory, type InsightKeys, type SummaryReview } from './trajectory-summary';

const keys: InsightKeys = { criteria: 'criteria', flags: 'flags', likert: 'overall', points: 5 };
const at = (minute: number) => new Date(Date.UTC(2026, 10, 30, 12, minute));
const review = (id: string, item: string, minute: number, answers: unknown, k: InsightKeys = keys): SummaryReview => ({
  id,
  campaignItemId: item,
  submittedAt: at(minute),
  answers,
  keys: k,
});

describe('insightKeys', () => {
  it('finds the criteria, flags and first Likert question of a rubric', () => {
    const definition = {
      title: 'r',
      questions: [
        { id: 'notes', type: 'text', prompt: 'Notes' },
        { id: 'tone', type: 'multi', prompt: 'Tone', options: [{ value: 'rude', label: 'Rude' }] },
        { id: 'issues', type: 'multi', prompt: 'Issues', options: [...standardFlags] },
        { id: 'overall', type: 'likert', prompt: 'Overall', points: 7 },
        { id: 'effort', type: 'likert', prompt: 'Effort', points: 5 },
        { id: 'crit', type: 'criteria', prompt: 'Criteria' },
      ],
    };
    expect(insightKeys(definition)).toEqual({ criteria: 'crit', flags: 'issues', likert: 'overall', points: 7 });
    expect(insightKeys({ not: 'a rubric' })).toEqual({ criteria: null, flags: null, likert: null, points: null });
  });
});

describe('summariseTrajectory', () => {
  it('counts verdicts (any fail fails, no judged criterion is no verdict), flags, Likert and criteria with known answers', () => {
    const s = summariseTrajectory(
      [
        review('r1', 'i1', 1, { criteria: { works: 'pass', clean: 'pass' }, overall: 5, flags: [] }),
        review('r2', 'i1', 2, { criteria: { works: 'pass', clean: 'fail' }, overall: 3, flags: ['reward_hacking'] }),
        review('r3', 'i2', 3, { criteria: {}, overall: 1, flags: ['answer_leakage', 'unsafe'] }),
        // a note that merely says reward_hacking is not a flag; a 7-point rubric pools as (s - 1) / 6
        review('r4', 'i2', 4, { criteria: { works: 'fail' }, overall: 7, note: 'reward_hacking' }, { ...keys, points: 7 }),
      ],
      [{ criteria: { works: 'pass', clean: 'fail' } }, { criteria: 'not an object' }],
    );
    expect(s).toMatchObject({ reviews: 4, passVotes: 1, failVotes: 2, rewardHacking: true, answerLeakage: true, likertN: 4 });
    expect(s.likertSum).toBeCloseTo(1 + 0.5 + 0 + 1, 12);
    expect(s.likertSumSquares).toBeCloseTo(1 + 0.25 + 0 + 1, 12);
    // i1 has two verdicts (pass, fail); i2 one (r3 judged nothing): only i1 feeds reviewer agreement
    expect(s.itemVotes).toEqual([[1, 1, 1]]);
    // r1 + r2 + r4 + the comparison side
    expect(s.criteria).toEqual({ works: [3, 1], clean: [1, 2] });
    // the newest flagging review
    expect(s).toMatchObject({ flaggedReviewId: 'r3', flaggedAt: at(3) });
  });

  it('groups items by their (passes, fails) for reviewer agreement', () => {
    const pass = { criteria: { works: 'pass' } };
    const fail = { criteria: { works: 'fail' } };
    const s = summariseTrajectory(
      [
        review('a', 'i1', 1, pass),
        review('b', 'i1', 1, pass),
        review('c', 'i2', 1, pass),
        review('d', 'i2', 1, pass),
        review('e', 'i3', 1, fail),
        review('f', 'i3', 1, pass),
        review('g', 'i3', 1, pass),
      ],
      [],
    );
    expect(s.itemVotes).toEqual([
      [2, 0, 2],
      [2, 1, 1],
    ]);
    expect(s).toMatchObject({ passVotes: 6, failVotes: 1, flaggedReviewId: null, flaggedAt: null, likertN: 0 });
  });

  it('reads nothing from a rubric without those questions, or from answers that are not an object', () => {
    const none: InsightKeys = { criteria: null, flags: null, likert: null, points: null };
    const s = summariseTrajectory(
      [review('a', 'i', 1, { criteria: { works: 'fail' }, flags: ['reward_hacking'], overall: 2 }, none), review('b', 'i', 2, ['pass'])],
      [],
    );
    expect(s).toMatchObject({ reviews: 2, passVotes: 0, failVotes: 0, rewardHacking: false, likertN: 0, criteria: {}, itemVotes: [] });
  });

  it('breaks a tie of flagging times by review id, so the choice does not depend on row order', () => {
    const flagged = { flags: ['reward_hacking'] };
    const one = summariseTrajectory([review('x', 'i', 5, flagged), review('y', 'i', 5, flagged)], []);
    const other = summariseTrajectory([review('y', 'i', 5, flagged), review('x', 'i', 5, flagged)], []);
    expect(one.flaggedReviewId).toBe('y');
    expect(other.flaggedReviewId).toBe('y');
  });
});
