/**
 * JSON parsing for importers: `JSON.parse`, and on failure a small scanner that finds where
 * the text stops being JSON so the error can name a line and column (V8's own messages name a
 * character offset only sometimes, and never a line).
 */

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; line: number; column: number; message: string };

export function parseJson(input: string): JsonParseResult {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    const { offset, reason } = locateJsonError(text);
    const { line, column } = lineColumn(text, offset);
    return { ok: false, line, column, message: `invalid JSON at line ${line}, column ${column}: ${reason}` };
  }
  // JSON.parse reads 1e999 as Infinity, which no column stores and zod calls "expected number,
  // received number": refuse it here, saying where. The parsed value is walked (far fewer nodes
  // than the text has characters; a regular expression over the text cost more than JSON.parse).
  // The same walk refuses nesting deeper than MAX_JSON_DEPTH: JSON.parse reads any depth, but
  // JSON.stringify (the content hash, the stored columns) overflows the stack past ~9,000 levels.
  const found = scanParsed(value);
  if (found === 'deep') return { ok: false, ...tooDeep(text, value) };
  if (found === 'infinite') {
    const overflow = findOverflow(text, value);
    if (overflow) return { ok: false, ...overflow };
  }
  return { ok: true, value };
}

/** Arrays and objects inside each other at most this deep in an imported document (its top level is 1). */
export const MAX_JSON_DEPTH = 1000;

/**
 * Whether a parsed JSON value holds a number JSON.parse made infinite, or arrays and objects
 * nested deeper than MAX_JSON_DEPTH (iterative: no stack limit on deep nesting).
 */
function scanParsed(value: unknown): 'infinite' | 'deep' | null {
  if (typeof value !== 'object' || value === null) return value === Infinity || value === -Infinity ? 'infinite' : null;
  const stack: object[] = [value];
  const depths: number[] = [1];
  let infinite = false;
  while (stack.length > 0) {
    const v = stack.pop()!;
    const depth = depths.pop()!;
    if (depth > MAX_JSON_DEPTH) return 'deep';
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (typeof x === 'object' && x !== null) {
          stack.push(x);
          depths.push(depth + 1);
        } else if (x === Infinity || x === -Infinity) infinite = true;
      }
    } else {
      for (const key in v) {
        const x = (v as Record<string, unknown>)[key];
        if (typeof x === 'object' && x !== null) {
          stack.push(x);
          depths.push(depth + 1);
        } else if (x === Infinity || x === -Infinity) infinite = true;
      }
    }
  }
  return infinite ? 'infinite' : null;
}

/** Whether a parsed JSON value nests arrays and objects deeper than MAX_JSON_DEPTH. */
export function nestedTooDeep(value: unknown): boolean {
  return scanParsed(value) === 'deep';
}

/** Where a document first nests deeper than MAX_JSON_DEPTH: the pointer (its first segments) and the line and column in the text. */
function tooDeep(text: string, value: unknown): { line: number; column: number; message: string } {
  // the pointer: follow the first child that is an array or object, down past the limit (iterative)
  const segments: string[] = [];
  let v: unknown = value;
  for (let depth = 1; depth <= MAX_JSON_DEPTH && typeof v === 'object' && v !== null; depth++) {
    let next: [string, unknown] | null = null;
    if (Array.isArray(v)) {
      const i = v.findIndex((x) => nestedTooDeepFrom(x, depth + 1));
      if (i >= 0) next = [String(i), v[i]];
    } else {
      for (const key in v) {
        const x = (v as Record<string, unknown>)[key];
        if (nestedTooDeepFrom(x, depth + 1)) {
          next = [key.replaceAll('~', '~0').replaceAll('/', '~1'), x];
          break;
        }
      }
    }
    if (!next) break;
    segments.push(next[0]);
    v = next[1];
  }
  const pointer = segments.length <= 6 ? `/${segments.join('/')}` : `/${segments.slice(0, 4).join('/')}/…`;
  // the character where the limit is passed: the bracket that opens level MAX_JSON_DEPTH + 1 (strings skipped)
  let depth = 0;
  let offset = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > MAX_JSON_DEPTH) {
        offset = i;
        break;
      }
    } else if (c === 93 || c === 125) depth--;
  }
  const { line, column } = lineColumn(text, offset);
  return {
    line,
    column,
    message: `${pointer}: arrays and objects nested deeper than ${formatThousands(MAX_JSON_DEPTH)} levels (the most an imported document may nest)`,
  };
}

/** Whether `value`, found at `depth`, reaches past MAX_JSON_DEPTH (iterative). */
function nestedTooDeepFrom(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: object[] = [value];
  const depths: number[] = [depth];
  while (stack.length > 0) {
    const v = stack.pop()!;
    const d = depths.pop()!;
    if (d > MAX_JSON_DEPTH) return true;
    for (const x of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof x === 'object' && x !== null) {
        stack.push(x as object);
        depths.push(d + 1);
      }
    }
  }
  return false;
}

const formatThousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const NUMBER_LITERAL = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** The first number in `value` that JSON.parse made infinite, as pointer, literal, line and column. */
function findOverflow(text: string, value: unknown): { line: number; column: number; message: string } | null {
  const pointer = infinitePointer(value, '');
  if (pointer === null) return null;
  let literal = 'the number';
  let offset = 0;
  for (const m of text.matchAll(NUMBER_LITERAL)) {
    if (!Number.isFinite(Number(m[0]))) {
      literal = m[0].length > 40 ? `${m[0].slice(0, 20)}…(${m[0].length} characters)` : m[0];
      offset = m.index;
      break;
    }
  }
  const { line, column } = lineColumn(text, offset);
  return { line, column, message: `${pointer || '/'}: ${literal} is not a finite number (out of range for a 64-bit float)` };
}

function infinitePointer(value: unknown, at: string): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : at;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = infinitePointer(value[i], `${at}/${i}`);
      if (found !== null) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      const found = infinitePointer(v, `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
      if (found !== null) return found;
    }
  }
  return null;
}

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

class JsonSyntaxError {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {}
}

/** Where and why `text` is not valid JSON (only meaningful when JSON.parse has failed). */
export function locateJsonError(text: string): { offset: number; reason: string } {
  let i = 0;
  const n = text.length;
  const fail = (reason: string, at = i): never => {
    throw new JsonSyntaxError(at, reason);
  };
  const describe = (at: number) => (at >= n ? 'unexpected end of input' : `unexpected character ${JSON.stringify(text[at])}`);
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const literal = (word: string) => {
    for (let k = 0; k < word.length; k++) {
      if (text[i + k] !== word[k]) fail(describe(i + k), i + k);
    }
    i += word.length;
  };
  const string = () => {
    i++; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c === 92) {
        const e = text[i + 1];
        if (e === undefined) fail('unexpected end of input in string', i + 1);
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('invalid \\u escape in string', i);
          i += 6;
        } else if ('"\\/bfnrt'.includes(e as string)) i += 2;
        else fail(`invalid escape \\${e} in string`, i);
      } else if (c < 32) fail('unescaped control character in string');
      else i++;
    }
    fail('unterminated string');
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '-' || m[0] === '') fail(describe(i));
    i += (m as RegExpExecArray)[0].length;
  };
  const value = (depth: number): void => {
    if (depth > 10_000) fail('nesting too deep');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(i >= n ? 'unexpected end of input' : `expected a property name, got ${JSON.stringify(text[i])}`);
        string();
        ws();
        if (text[i] !== ':')
          fail(i >= n ? 'unexpected end of input' : `expected ':' after a property name, got ${JSON.stringify(text[i])}`);
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(i >= n ? 'unexpected end of input' : `expected ',' or '}', got ${JSON.stringify(text[i])}`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(i >= n ? 'unexpected end of input' : `expected ',' or ']', got ${JSON.stringify(text[i])}`);
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    fail(i >= n ? (n === 0 || text.trim() === '' ? 'empty input' : 'unexpected end of input') : describe(i));
  };
  try {
    value(0);
    ws();
    if (i < n) fail(`unexpected content after the JSON value: ${JSON.stringify(text[i])}`);
    return { offset: n, reason: 'invalid JSON' };
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { offset: e.offset, reason: e.reason };
    return { offset: i, reason: 'invalid JSON' };
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function asNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** a finite non-negative number, else null (for token counts and costs) */
export function asCount(value: unknown): number | null {
  const n = asNumber(value);
  return n !== null && n >= 0 ? n : null;
}
