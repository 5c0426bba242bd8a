import { describe, expect, it } from 'vitest';
import { hasFilters, listHref } from './list-url';

describe('listHref', () => {
  it('keeps only set filters and pages after the first', () => {
    expect(listHref({})).toBe('/trajectories');
    expect(listHref({ q: ' fix ', project: 'demo', split: '' }, 1)).toBe('/trajectories?q=fix&project=demo');
    expect(listHref({ reward: 'none' }, 3)).toBe('/trajectories?reward=none&page=3');
    expect(hasFilters({ q: ' ' })).toBe(false);
    expect(hasFilters({ review: 'reviewed' })).toBe(true);
  });
});
