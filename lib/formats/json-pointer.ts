import type { z } from 'zod';

/** RFC 6901 JSON pointer for a path of keys and indices (`[]` -> `''`, the whole document). */
export function toPointer(path: readonly PropertyKey[]): string {
  return path.map((segment) => '/' + String(segment).replaceAll('~', '~0').replaceAll('/', '~1')).join('');
}

/** Appends segments to an existing pointer. */
export function joinPointer(base: string, ...path: PropertyKey[]): string {
  return base + toPointer(path);
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Reads the value a path points at (for error messages that say what was found). */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

export interface PointerIssue {
  pointer: string;
  message: string;
}

/**
 * One readable line per zod issue, anchored at a JSON pointer:
 * `/steps/3/tool_calls/0/arguments: expected object, received string`.
 * `input` is the value that was validated (to say what was received); `base` prefixes the pointers.
 */
export function zodIssues(error: z.ZodError, input: unknown, base = ''): PointerIssue[] {
  return error.issues.map((issue) => {
    const pointer = base + toPointer(issue.path);
    const found = valueAt(input, issue.path);
    let message: string;
    if (issue.code === 'invalid_type') {
      const expected = issue.expected === 'record' ? 'object' : String(issue.expected);
      message =
        found === undefined
          ? `missing (expected ${expected})`
          : typeof found === 'number' && !Number.isFinite(found)
            ? `${found} is not a finite number`
            : `expected ${expected}, received ${describeType(found)}`;
    } else if (issue.code === 'invalid_value') {
      message = `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, received ${JSON.stringify(found)}`;
    } else {
      message = issue.message;
    }
    return { pointer: pointer === '' ? '/' : pointer, message };
  });
}

/** The first few issues as one message (`/a/b: expected object; /c: missing (expected string)`). */
export function formatIssues(issues: PointerIssue[], max = 3): string {
  const shown = issues.slice(0, max).map((i) => `${i.pointer}: ${i.message}`);
  const more = issues.length > max ? ` (and ${issues.length - max} more)` : '';
  return shown.join('; ') + more;
}
