import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from './errors';
import { firstValue, parseInput } from './parse-input';

const schema = z.object({ name: z.string().min(2), tags: z.array(z.string()).max(1) });

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('parseInput accepted bad input');
}

describe('parseInput', () => {
  it('returns the parsed value', () => {
    expect(parseInput(schema, { name: 'ab', tags: [] }, 'body')).toEqual({ name: 'ab', tags: [] });
  });

  it('refuses with BAD_INPUT saying where and what, the field in details.field', () => {
    const error = refusal(() => parseInput(schema, { name: 'ab', tags: ['a', 'b'] }, 'body'));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toMatch(/^body tags: /);
    expect(error.details).toEqual({ field: 'tags' });
    expect(refusal(() => parseInput(schema, { name: 'a', tags: [] }, '')).message).toMatch(/^name: /);
  });

  it('names the input as a whole when the issue has no path, and prefixes nested inputs with `under`', () => {
    expect(refusal(() => parseInput(schema, 'nope', 'body')).message).toMatch(/^body: /);
    expect(refusal(() => parseInput(schema, 'nope', '')).message).toMatch(/^input: /);
    const nested = refusal(() => parseInput(schema, { name: 'a', tags: [] }, '', { under: 'answers' }));
    expect(nested.message).toMatch(/^answers\.name: /);
    expect(nested.details).toEqual({ field: 'answers.name' });
  });
});

describe('firstValue', () => {
  it("takes a repeated URL parameter's first value and leaves a single one as it is", () => {
    expect(firstValue(['a', 'b'])).toBe('a');
    expect(firstValue('a')).toBe('a');
    expect(firstValue(undefined)).toBeUndefined();
  });
});
