import { describe, expect, it } from 'vitest';
import { coverageShare, mergeRanges } from './coverage';

describe('watch coverage', () => {
  it('merges overlapping and touching ranges, clips to the video, ignores empty ones', () => {
    expect(
      mergeRanges(
        [
          [50, 80],
          [0, 30],
          [25, 40],
          [40, 45],
          [90, 90],
          [95, 200],
        ],
        100,
      ),
    ).toEqual([
      [0, 45],
      [50, 80],
      [95, 100],
    ]);
  });
  it('computes the share from ranges, counting re-watched parts once', () => {
    expect(
      coverageShare(
        [
          [0, 50],
          [0, 50],
          [25, 75],
        ],
        100,
      ),
    ).toBe(0.75);
    expect(coverageShare([], 100)).toBe(0);
    expect(coverageShare([[0, 10]], 0)).toBe(1);
  });
  it('treats reversed ranges as their forward equivalent', () => {
    expect(coverageShare([[60, 40]], 100)).toBe(0.2);
  });
});
