import { describe, expect, it } from 'vitest';
import { formatClock, frameClock, stepNumber } from './format';

describe('stepNumber', () => {
  it('counts from 1', () => expect(stepNumber(0)).toBe(1));
});

describe('formatClock / frameClock', () => {
  it('prints whole seconds as m:ss, never a negative or a fraction', () => {
    expect(formatClock(65.9)).toBe('1:05');
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(-3)).toBe('0:00');
    expect(formatClock(3600)).toBe('60:00');
    expect(frameClock(1799, 30)).toBe('0:59');
    expect(frameClock(1800, 30)).toBe('1:00');
  });
});
