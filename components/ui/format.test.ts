import { describe, expect, it } from 'vitest';
import { stepNumber } from './format';

describe('stepNumber', () => {
  it('counts from 1', () => expect(stepNumber(0)).toBe(1));
});
