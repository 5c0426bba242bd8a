import { describe, expect, it } from 'vitest';
import { judgePass, judgeScale, measurementAudit } from './audit';
import { questionRatings } from './question-ratings';
import { campaign, item, review } from './test/campaign-fixture';

describe('the measurement audit', () => {
  const items = [
    item('good', { reward: 1, judges: [{ judge: 'gpt', score: 9, label: null }] }),
    item('bad', { reward: 0, judges: [{ judge: 'gpt', score: 2, label: null }] }),
    item('hacked', { reward: 1, judges: [{ judge: 'gpt', score: 8, label: null }] }),
    item('meh', { reward: 0, judges: [{ judge: 'gpt', score: null, label: 'fail' }] }),
  ];
  const data = campaign(items, [
    review('good', 'a', { criteria: { t: 'pass' }, quality: 5 }),
    review('good', 'b', { criteria: { t: 'pass' }, quality: 5 }),
    review('bad', 'a', { criteria: { t: 'fail' }, quality: 1 }),
    review('bad', 'b', { criteria: { t: 'fail' }, quality: 1 }),
    review('hacked', 'a', { criteria: { t: 'fail' }, quality: 1 }),
    review('hacked', 'b', { criteria: { t: 'fail' }, quality: 2 }),
    review('meh', 'a', { criteria: { t: 'fail' }, quality: 2 }),
    review('meh', 'b', { criteria: { t: 'pass' }, quality: 3 }),
  ]);
  const audit = measurementAudit(data, questionRatings(data), { replicates: 200 });

  it('compares the human consensus with the verifier and each judge, worst disagreements first', () => {
    expect(audit.sources.map((s) => s.source)).toEqual(['verifier', 'judge:gpt']);
    const verifier = audit.sources[0]!;
    expect(verifier.items).toBe(4);
    // humans: good pass, bad fail, hacked fail, meh fail (a tie on the criterion is not a pass)
    expect(verifier.matchShare).toBe(0.75);
    expect(verifier.worst[0]).toMatchObject({ itemId: 'hacked', humanPass: 'fail', sourcePass: 'pass', sourceScore: 1 });
    expect(verifier.worst[0]!.gap).toBeCloseTo(1 - 0.125);
    expect(verifier.passAgreement.nItems).toBe(4);
    expect(verifier.passAgreement.value).not.toBeNull();
    expect(verifier.passAgreement.ci).not.toBeNull();
  });

  it('puts judge scores on 0..1 and reads pass/fail labels', () => {
    const judge = audit.sources[1]!;
    expect(judge.label).toContain('÷ 10');
    expect(judge.worst.find((w) => w.itemId === 'good')!.sourceScore).toBeCloseTo(0.9);
    expect(judge.worst.find((w) => w.itemId === 'meh')).toMatchObject({ sourcePass: 'fail', sourceScore: null });
    expect(judgeScale([0.2, 1])).toBe(1);
    expect(judgeScale([3, 7])).toBe(10);
    expect(judgeScale([75])).toBe(100);
    expect(judgePass(0.2, 'Correct', 0.5)).toBe('pass');
    expect(judgePass(0.7, null, 0.5)).toBe('pass');
  });
});
