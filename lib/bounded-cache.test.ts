import { describe, expect, it } from 'vitest';
import { BoundedCache } from './bounded-cache';

describe('BoundedCache', () => {
  it('returns what was stored for a key, and nothing for another', () => {
    const cache = new BoundedCache<string>({ maxEntries: 10, maxWeight: 100 });
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', 'A', 1);
    expect(cache.get('a')).toBe('A');
    expect(cache.get('b')).toBeUndefined();
    cache.set('a', 'A2', 3); // replaced, its weight counted once
    expect(cache.get('a')).toBe('A2');
    expect(cache.weight).toBe(3);
    expect(cache.size).toBe(1);
  });

  it('drops the least recently used entries past its entry bound', () => {
    const cache = new BoundedCache<number>({ maxEntries: 2, maxWeight: 100 });
    cache.set('a', 1, 1);
    cache.set('b', 2, 1);
    expect(cache.get('a')).toBe(1); // a is now the most recently used
    cache.set('c', 3, 1);
    expect(cache.has('a')).toBe(true);
    expect(cache.has('b')).toBe(false);
    expect(cache.has('c')).toBe(true);
    expect(cache.size).toBe(2);
  });

  it('keeps the total weight within its bound, and never stores an entry heavier than the bound', () => {
    const cache = new BoundedCache<string>({ maxEntries: 100, maxWeight: 10 });
    for (const k of ['a', 'b', 'c', 'd']) cache.set(k, k, 4);
    expect([...'abcd'].filter((k) => cache.has(k))).toEqual(['c', 'd']);
    expect(cache.weight).toBe(8);
    cache.set('huge', 'H', 11);
    expect(cache.has('huge')).toBe(false);
    expect(cache.size).toBe(2);
    cache.delete('c');
    expect(cache.weight).toBe(4);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.weight).toBe(0);
  });

  it('refuses bounds and weights that are not numbers >= the minimum', () => {
    expect(() => new BoundedCache({ maxEntries: 0, maxWeight: 1 })).toThrow(/maxEntries and maxWeight must be >= 1/);
    const cache = new BoundedCache<number>({ maxEntries: 1, maxWeight: 1 });
    expect(() => cache.set('x', 1, Number.NaN)).toThrow(/weight must be a number >= 0/);
  });
});
