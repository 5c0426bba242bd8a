import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatIssues, toPointer, zodIssues } from './json-pointer';

describe('json pointers', () => {
  it('escapes ~ and / (RFC 6901)', () => {
    expect(toPointer(['steps', 3, 'a/b', 'c~d'])).toBe('/steps/3/a~1b/c~0d');
    expect(toPointer([])).toBe('');
  });

  it('formats zod issues at their pointer with what was received', () => {
    const schema = z.object({
      items: z.array(z.object({ args: z.record(z.string(), z.unknown()), kind: z.enum(['a', 'b']) })),
      name: z.string(),
    });
    const input = {
      items: [
        { args: {}, kind: 'a' },
        { args: 'oops', kind: 'c' },
      ],
    };
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    if (result.success) return;
    const issues = zodIssues(result.error, input);
    expect(issues).toContainEqual({ pointer: '/items/1/args', message: 'expected object, received string' });
    expect(issues).toContainEqual({ pointer: '/items/1/kind', message: 'expected one of "a", "b", received "c"' });
    expect(issues).toContainEqual({ pointer: '/name', message: 'missing (expected string)' });
    expect(formatIssues(issues, 1)).toMatch(/^\/items\/1\/args: expected object, received string \(and 2 more\)$/);
  });
});
