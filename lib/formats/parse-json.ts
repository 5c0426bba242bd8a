/**
 * JSON parsing for importers: `JSON.parse`, and on failure a small scanner that finds where
 * the text stops being JSON so the error can name a line and column (V8's own messages name a
 * character offset only sometimes, and never a line).
 */

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; line: number; column: number; message: string };

export function parseJson(input: string): JsonParseResult {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    const { offset, reason } = locateJsonError(text);
    const { line, column } = lineColumn(text, offset);
    return { ok: false, line, column, message: `invalid JSON at line ${line}, column ${column}: ${reason}` };
  }
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
