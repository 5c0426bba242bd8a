import { describe, expect, it } from 'vitest';
import { criteriaFromTexts, slugKey } from './criteria';

describe('criteria keys', () => {
  it('slugs text', () => {
    expect(slugKey('Output matches expected.txt!')).toBe('output-matches-expected-txt');
    expect(slugKey('Crème brûlée')).toBe('creme-brulee');
    expect(slugKey('日本語')).toBe('criterion');
    expect(slugKey('x'.repeat(100))).toHaveLength(64);
  });

  it('dedupes keys in order and drops blank texts', () => {
    const c = criteriaFromTexts(['Works', 'works!', '  ', 'Works'], 'task');
    expect(c.map((x) => x.key)).toEqual(['works', 'works-2', 'works-3']);
    expect(c.every((x) => x.origin === 'task' && x.verdict === null)).toBe(true);
  });
});
