import { describe, expect, it } from 'vitest';
import { auditRowDisagrees, judgePass, judgeScale, measurementAudit } from './audit';
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
    // humans: good pass, bad fail, hacked fail, meh split (a tie on the criterion: no verdict, not compared)
    expect(verifier.matchShare).toBeCloseTo(2 / 3);
    expect(verifier.worst.find((w) => w.itemId === 'meh')).toMatchObject({ humanPass: 'split', sourcePass: 'fail' });
    expect(verifier.worst[0]).toMatchObject({ itemId: 'hacked', humanPass: 'fail', sourcePass: 'pass', sourceScore: 1 });
    expect(verifier.worst[0]!.gap).toBeCloseTo(1 - 0.125);
    expect(verifier.passAgreement.nItems).toBe(3);
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

  it('lists as disagreements only rows that disagree: a tie among reviewers at full marks is not "humans fail" against a passing verifier', () => {
    const agreeing = campaign(
      [item('tied', { reward: 1 }), item('wrong', { reward: 1 }), item('close', { reward: 1 }), item('far', { reward: 1 })],
      [
        // both reviewers give full marks; they split on one criterion (the demo's 8% noise)
        review('tied', 'a', { criteria: { t: 'pass', u: 'pass' }, quality: 5 }),
        review('tied', 'b', { criteria: { t: 'pass', u: 'fail' }, quality: 5 }),
        review('wrong', 'a', { criteria: { t: 'fail' }, quality: 1 }),
        review('wrong', 'b', { criteria: { t: 'fail' }, quality: 1 }),
        review('close', 'a', { criteria: { t: 'pass' }, quality: 4 }),
        review('close', 'b', { criteria: { t: 'pass' }, quality: 5 }),
        review('far', 'a', { criteria: { t: 'pass' }, quality: 3 }),
        review('far', 'b', { criteria: { t: 'pass' }, quality: 3 }),
      ],
    );
    const verifier = measurementAudit(agreeing, questionRatings(agreeing), { replicates: 50 }).sources[0]!;
    const row = (id: string) => verifier.worst.find((w) => w.itemId === id)!;
    expect(row('tied')).toMatchObject({ humanPass: 'split', humanScore: 1, sourcePass: 'pass', sourceScore: 1, gap: 0 });
    expect(auditRowDisagrees(row('tied'))).toBe(false);
    expect(auditRowDisagrees(row('close'))).toBe(false); // same verdict, 0.125 apart
    expect(auditRowDisagrees(row('wrong'))).toBe(true); // fail against pass
    expect(auditRowDisagrees(row('far'))).toBe(true); // same verdict, scores 0.5 apart
    expect(verifier.worst.filter(auditRowDisagrees).map((w) => w.itemId)).toEqual(['wrong', 'far']);
    expect(verifier.worst.map((w) => w.itemId).slice(0, 2)).toEqual(['wrong', 'far']);
    // the split item is left out of the pass/fail comparison: 3 compared, 2 the same
    expect(verifier.matchShare).toBeCloseTo(2 / 3);
  });
});
