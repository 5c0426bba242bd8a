import { describe, expect, it } from 'vitest';
import { buildTrajectory } from '../formats/build-trajectory';
import { pairConsensus, reviewScore, reviewVerdict, singleConsensus } from './consensus';
import { defaultDeriveOptions, deriveRows, type Excluded, type PreferenceRow, type StepRow } from './derive';
import { labelTrajectory, pairItem, rubric, singleItem } from './test-items';

const o = defaultDeriveOptions;

describe('consensus', () => {
  it('reads scores (first likert, 0..1) and accept/reject verdicts from answers', () => {
    expect(reviewScore(rubric, { quality: 5, verdict: 'accept' })).toBe(1);
    expect(reviewScore(rubric, { quality: 2, verdict: 'accept' })).toBe(0.25);
    expect(reviewVerdict(rubric, { quality: 2, verdict: 'reject' })).toBe(false);
    expect(reviewVerdict(rubric, { quality: 2, verdict: 'accept' })).toBe(true);
  });

  it('uses majority under three reviews, agreement is the share matching, and an adjudication wins', () => {
    const item = pairItem('i', [[-2], [-1], [1]]);
    expect(pairConsensus(item)).toMatchObject({ outcome: 'a', method: 'majority', reviewers: 3 });
    expect(pairConsensus(item).agreement).toBeCloseTo(2 / 3);
    expect(pairConsensus(item).strength).toBeCloseTo(0.75);
    const adjudicated = { ...item, adjudication: { id: 'adj', preference: 2, bothBad: false } };
    expect(pairConsensus(adjudicated)).toMatchObject({
      outcome: 'b',
      method: 'adjudication',
      adjudicated: true,
      adjudicationId: 'adj',
      strength: 1,
    });
    expect(pairConsensus(adjudicated).agreement).toBeCloseTo(1 / 3);
  });

  it('uses the Dawid-Skene label when the item has three or more reviews and a model covers it', () => {
    const item = singleItem('s', [
      { quality: 5, verdict: 'accept' },
      { quality: 1, verdict: 'reject' },
      { quality: 1, verdict: 'reject' },
    ]);
    expect(singleConsensus(item)).toMatchObject({ accepted: false, method: 'majority' });
    expect(singleConsensus(item, new Map([['s', 'pass']]))).toMatchObject({ accepted: true, method: 'dawid-skene' });
    const c = singleConsensus(item);
    expect(c.score).toBeCloseTo(1 / 3);
    expect(c.spread).toBeCloseTo(Math.sqrt(2) / 3);
  });
});

describe('preference pairs', () => {
  it('chooses the consensus winner; margin = strength x agreement; provenance names reviews and rubric', () => {
    const excluded: Excluded = {};
    const [row] = deriveRows('preference', [pairItem('i', [[1], [2]])], undefined, o, excluded) as PreferenceRow[];
    expect(row!.chosen).toEqual([{ role: 'assistant', content: 'It is green.' }]);
    expect(row!.rejected).toEqual([{ role: 'assistant', content: 'It is blue.' }]);
    expect(row!.prompt).toEqual([{ role: 'user', content: 'What color is the sky?' }]);
    expect(row!.margin).toBe(0.75);
    expect(row!.provenance).toMatchObject({
      review_ids: ['i-cmp0', 'i-cmp1'],
      reviewers: 2,
      agreement: 1,
      rubric_version: 1,
      adjudicated: false,
      trajectory_ids: ['i-b', 'i-a'],
    });
    expect(excluded).toEqual({});
  });

  it('two scaffolds with different system prompts share the task instruction as the prompt', () => {
    const withSystem = (id: string, system: string, answer: string) =>
      labelTrajectory(id, '', {
        steps: buildTrajectory({
          format: 'openai',
          task: { name: 'sky' },
          steps: [
            { source: 'system', text: system },
            { source: 'user', text: 'What color is the sky?' },
            { source: 'agent', text: answer },
          ],
        }).steps,
      });
    const item = pairItem('s', [[-1]], {
      a: withSystem('a', 'You are terse.', 'Blue.'),
      b: withSystem('b', 'You are verbose.', 'Green, I think.'),
    });
    const [row] = deriveRows('preference', [item], undefined, o, {}) as PreferenceRow[];
    expect(row!.prompt).toEqual([{ role: 'user', content: 'What color is the sky?' }]);
    expect(row!.chosen).toEqual([{ role: 'assistant', content: 'Blue.' }]);
    expect(row!.rejected).toEqual([{ role: 'assistant', content: 'Green, I think.' }]);
  });

  it('makes no pair from ties or "both bad", and counts why', () => {
    const excluded: Excluded = {};
    const rows = deriveRows(
      'preference',
      [
        pairItem('t', [[0], [0]]),
        pairItem('bb', [
          [1, true],
          [-1, true],
        ]),
        pairItem('none', []),
      ],
      undefined,
      o,
      excluded,
    );
    expect(rows).toEqual([]);
    expect(excluded).toEqual({ tie: 1, both_bad: 1, no_reviews: 1 });
  });

  it('makes no pair of two identical conversations (two checkpoints wrote the same transcript), pairwise or from scores', () => {
    const excluded: Excluded = {};
    const same = pairItem('same', [[-2], [-1]], { b: labelTrajectory('same-b', 'It is blue.') });
    const hi = singleItem('hi', [{ quality: 5, verdict: 'accept' }]);
    const lo = singleItem('lo', [{ quality: 1, verdict: 'reject' }]);
    expect(deriveRows('preference', [same, hi, lo], undefined, o, excluded)).toEqual([]);
    expect(excluded).toEqual({ identical: 2 });
  });

  it('applies min agreement and min reviews, but keeps adjudicated items', () => {
    const excluded: Excluded = {};
    const split = pairItem('s', [[1], [-1], [1]]);
    const thin = pairItem('thin', [[1]]);
    const decided = pairItem('d', [[1]], { adjudication: { id: 'a', preference: -1, bothBad: false } });
    const rows = deriveRows('preference', [split, thin, decided], undefined, { ...o, minAgreement: 0.8, minReviews: 2 }, excluded);
    expect(rows.map((r) => r.provenance.item_ids)).toEqual([['d']]);
    expect(excluded).toEqual({ below_min_agreement: 1, below_min_reviews: 1 });
  });

  it('pairs single items of the same task when their consensus scores differ by the gap', () => {
    const hi = singleItem('hi', [{ quality: 5, verdict: 'accept' }]);
    const mid = singleItem('mid', [{ quality: 4, verdict: 'accept' }]);
    const lo = singleItem('lo', [{ quality: 1, verdict: 'reject' }], { trajectory: labelTrajectory('lo-t', 'It is green.') });
    const other = singleItem('other', [{ quality: 1, verdict: 'reject' }], { trajectory: labelTrajectory('o-t', 'x', { task: 'other' }) });
    const excluded: Excluded = {};
    const rows = deriveRows('preference', [hi, mid, lo, other], undefined, { ...o, scoreGap: 0.5 }, excluded) as PreferenceRow[];
    expect(rows.map((r) => [r.provenance.item_ids, r.margin, r.source])).toEqual([
      [['hi', 'lo'], 1, 'scores'],
      [['mid', 'lo'], 0.75, 'scores'],
    ]);
    expect(excluded).toEqual({ score_gap_below_threshold: 1 });
  });
});

describe('unpaired, reward, SFT', () => {
  const accepted = singleItem('a', [
    { quality: 5, verdict: 'accept' },
    { quality: 4, verdict: 'accept' },
  ]);
  const rejected = singleItem('r', [{ quality: 1, verdict: 'reject' }]);

  it('KTO rows carry the consensus verdict as label', () => {
    const rows = deriveRows('unpaired', [accepted, rejected], undefined, o, {});
    expect(rows.map((r) => r.kind === 'unpaired' && r.label)).toEqual([true, false]);
  });

  it('reward rows carry the scalar consensus score, spread and reviewer count', () => {
    const [row] = deriveRows('reward', [accepted], undefined, o, {});
    expect(row).toMatchObject({ kind: 'reward', score: 0.875, spread: 0.125, provenance: { reviewers: 2 } });
  });

  it('SFT takes accepted trajectories only', () => {
    const excluded: Excluded = {};
    const rows = deriveRows('sft', [accepted, rejected, pairItem('p', [[1]])], undefined, o, excluded);
    expect(rows).toHaveLength(1);
    expect(excluded).toEqual({ not_accepted: 1, pairwise_item_not_used_by_format: 1 });
  });
});

describe('process supervision', () => {
  const steps = buildTrajectory({
    format: 'openai',
    task: { name: 'sky' },
    steps: [
      { source: 'user', text: 'Fix the bug' },
      { source: 'agent', text: 'Look at the code', toolCalls: [{ id: 'c1', name: 'bash', arguments: { cmd: 'cat a.py' } }] },
      { source: 'tool', text: 'def f(): pass' },
      { source: 'agent', text: 'Delete the tests' },
      { source: 'agent', text: 'Done' },
    ],
  }).steps;

  it('steps before the first flagged one are true, the flagged one false, later ones left out', () => {
    const item = singleItem(
      's',
      [
        { quality: 2, verdict: 'reject', wrong: [3] },
        { quality: 1, verdict: 'reject', wrong: [4] },
      ],
      {
        trajectory: labelTrajectory('t', '', { steps }),
      },
    );
    const [row] = deriveRows('steps', [item], undefined, o, {}) as StepRow[];
    expect(row!.completions).toEqual(['Look at the code\nbash({"cmd":"cat a.py"})', 'Delete the tests']);
    expect(row!.labels).toEqual([true, false]);
  });

  it('a flag on a tool output counts for the agent step that caused it; no flag + accepted = all true; no flag + rejected = no row', () => {
    const flagged = singleItem('f', [{ quality: 2, verdict: 'reject', wrong: [2] }], { trajectory: labelTrajectory('t', '', { steps }) });
    expect((deriveRows('steps', [flagged], undefined, o, {})[0] as StepRow).labels).toEqual([false]);
    const fine = singleItem('ok', [{ quality: 5, verdict: 'accept' }], { trajectory: labelTrajectory('t', '', { steps }) });
    expect((deriveRows('steps', [fine], undefined, o, {})[0] as StepRow).labels).toEqual([true, true, true]);
    const excluded: Excluded = {};
    expect(deriveRows('steps', [singleItem('bad', [{ quality: 1, verdict: 'reject' }])], undefined, o, excluded)).toEqual([]);
    expect(excluded).toEqual({ no_flagged_step: 1 });
  });
});
