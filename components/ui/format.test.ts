import { describe, expect, it } from 'vitest';
import { formatCount, stepNumber } from './format';

describe('formatCount', () => {
  it('groups whole numbers as en-US does', () => {
    for (const n of [
      0,
      7,
      999,
      1000,
      1001,
      12_345,
      999_999,
      1_000_000,
      1_234_567_890,
      -1,
      -999,
      -1000,
      -1_234_567,
      Number.MAX_SAFE_INTEGER,
    ])
      expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
    expect(formatCount(1_234_567)).toBe('1,234,567');
  });

  it('leaves fractions and unsafe integers to en-US', () => {
    expect(formatCount(1234.5)).toBe('1,234.5');
    expect(formatCount(2 ** 60)).toBe((2 ** 60).toLocaleString('en-US'));
  });
});

describe('stepNumber', () => {
  it('counts from 1', () => expect(stepNumber(0)).toBe(1));
});
