import { describe, expect, it } from 'vitest';
import { readListParams } from './search-params';

describe('readListParams', () => {
  it('reads the filters from the URL and drops values that make no sense', () => {
    expect(readListParams({ project: 'demo', split: 'eval', reward: 'none', review: 'unreviewed', q: ' fix ', page: '2' })).toEqual({
      params: { project: 'demo', split: 'eval', reward: 'none', review: 'unreviewed', q: 'fix', page: 2 },
      values: { project: 'demo', split: 'eval', reward: 'none', review: 'unreviewed', q: 'fix' },
      page: 2,
    });
    expect(readListParams({ split: 'test', reward: 'maybe', rewardMin: 'abc', page: '-1', review: 'any' })).toEqual({
      params: { page: 1 },
      values: {},
      page: 1,
    });
  });

  it('swaps an inverted reward range and takes the first of repeated params', () => {
    const { params, values } = readListParams({ rewardMin: '1', rewardMax: '0.25', project: ['a', 'b'] });
    expect(params).toMatchObject({ rewardMin: 0.25, rewardMax: 1, project: 'a' });
    expect(values).toMatchObject({ rewardMin: '0.25', rewardMax: '1' });
  });
});
