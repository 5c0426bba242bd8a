import { describe, expect, it } from 'vitest';
import { datasetCard } from './card';
import { defaultDeriveOptions, deriveRows } from './derive';
import { assertNoEvalItems, assertRowPurpose, offendingItems, purposeOf } from './guard';
import { labelTrajectory, pairItem, singleItem } from './test-items';

describe('the measurement guard', () => {
  const evalPair = pairItem('e1', [[1]], { b: labelTrajectory('e1-b', 'It is green.', { split: 'eval' }) });
  const trainPair = pairItem('t1', [[1]]);

  it('lists every item that touches an eval task, either side of a pair', () => {
    expect(offendingItems([trainPair, evalPair])).toEqual([{ itemId: 'e1', task: 'sky', trajectoryIds: ['e1-a', 'e1-b'] }]);
  });

  it('a training export with eval items fails saying how many, of which tasks and where to see them; the ids only in its details', () => {
    const offending = offendingItems([evalPair]);
    expect(() => assertNoEvalItems(offending, 'training')).toThrowError(/^Refused: 1 item belongs to eval-split tasks \(task sky\)/);
    // 17 items of 3 tasks: the count and the tasks, a link to the project's eval trajectories, no ids in the message
    const many = Array.from({ length: 17 }, (_, i) => ({ itemId: `item-${i}`, task: `held-out-${i % 3}`, trajectoryIds: [`traj-${i}`] }));
    let refusal: unknown;
    try {
      assertNoEvalItems(many, 'training', 'my project');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toMatchObject({
      code: 'BAD_INPUT',
      details: { offending: many, see: '/trajectories?project=my%20project&split=eval' },
    });
    const message = (refusal as Error).message;
    expect(message).toMatch(/^Refused: 17 items belong to eval-split tasks \(3 tasks: held-out-0, held-out-1, held-out-2\)/);
    expect(message).toContain('See them at /trajectories?project=my%20project&split=eval');
    expect(message).not.toMatch(/item-\d|traj-\d/);
    try {
      assertNoEvalItems(offending, 'training');
    } catch (error) {
      expect(error).toMatchObject({ code: 'BAD_INPUT', details: { offending } });
    }
    expect(() => assertNoEvalItems(offending, 'evaluation')).not.toThrow();
    expect(purposeOf(undefined)).toBe('training');
    expect(purposeOf('eval')).toBe('evaluation');
  });

  it('checks each row again: no eval trajectory in a training row, no train row in an evaluation set', () => {
    const [evalRow] = deriveRows('preference', [evalPair], undefined, defaultDeriveOptions, {});
    const [trainRow] = deriveRows('preference', [trainPair], undefined, defaultDeriveOptions, {});
    expect(() => assertRowPurpose(evalRow!, 'training')).toThrowError(/eval-split/);
    expect(() => assertRowPurpose(evalRow!, 'evaluation')).not.toThrow();
    expect(() => assertRowPurpose(trainRow!, 'evaluation')).toThrowError(/evaluation set holds eval-split tasks only/);
  });

  it('an evaluation card says so up front; the rows say purpose "evaluation"', () => {
    const base = {
      format: 'trl-kto' as const,
      scope: { project: 'p', campaigns: [{ id: 'c', name: 'C', mode: 'single', rubricVersion: 1 }], split: 'eval' as const },
      options: defaultDeriveOptions,
      rows: 1,
      items: 1,
      sha256: 'ab',
      excluded: { tie: 2 },
      labels: { 'label true (pass)': 1 },
      adjudicatedRows: 0,
      agreement: null,
    };
    const card = datasetCard({ ...base, purpose: 'evaluation' });
    expect(card.split('\n')[0]).toBe('# EVALUATION SET: trl-kto');
    expect(card).toContain('not for training');
    expect(datasetCard({ ...base, purpose: 'training' })).toContain('this file holds no eval task');
    const item = singleItem('s', [{ quality: 5, verdict: 'accept' }], { trajectory: labelTrajectory('t', 'x', { split: 'eval' }) });
    const [row] = deriveRows('unpaired', [item], undefined, defaultDeriveOptions, {});
    expect(row!.provenance.split).toBe('eval');
  });
});
