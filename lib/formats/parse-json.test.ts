import { describe, expect, it } from 'vitest';
import { lineColumn, locateJsonError, parseJson } from './parse-json';

describe('parseJson', () => {
  it('parses valid JSON (and a leading BOM)', () => {
    expect(parseJson('{"a": [1, 2]}')).toEqual({ ok: true, value: { a: [1, 2] } });
    expect(parseJson('\uFEFF[true]')).toEqual({ ok: true, value: [true] });
  });

  it('names line and column of truncated JSON', () => {
    const r = parseJson('{\n  "a": 1,\n  "b": [1, 2');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.line).toBe(3);
    expect(r.column).toBe(13);
    expect(r.message).toBe('invalid JSON at line 3, column 13: unexpected end of input');
  });

  it('names the offending character', () => {
    const r = parseJson('{\n  "a": tru\n}');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/^invalid JSON at line 2, column 11: unexpected character/);
    const r2 = parseJson('{"a" 1}');
    if (!r2.ok) expect(r2.message).toContain("expected ':' after a property name");
    const r3 = parseJson('[1] x');
    if (!r3.ok) expect(r3.message).toContain('unexpected content after the JSON value');
  });

  it('refuses a number that overflows a double (1e999) with its pointer, literal, line and column (issue 14, item 12c)', () => {
    const r = parseJson('{\n  "steps": [\n    {"reward": 0.5},\n    {"n": 3, "reward": 1e999}\n  ]\n}');
    expect(r).toEqual({
      ok: false,
      line: 4,
      column: 24,
      message: '/steps/1/reward: 1e999 is not a finite number (out of range for a 64-bit float)',
    });
    const negative = parseJson('[-2.5E+400]');
    expect(negative.ok || negative.message).toBe('/0: -2.5E+400 is not a finite number (out of range for a 64-bit float)');
    const digits = parseJson(`{"a/b": ${'9'.repeat(400)}}`);
    expect(digits.ok || digits.message).toBe(
      '/a~1b: 99999999999999999999…(400 characters) is not a finite number (out of range for a 64-bit float)',
    );
    // the largest doubles, and 1e999 inside a string, are fine
    expect(parseJson('[1.7976931348623157e308, 1e-999, "1e999"]')).toEqual({ ok: true, value: [1.7976931348623157e308, 0, '1e999'] });
  });

  it('reports an empty input', () => {
    const r = parseJson('  ');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain('empty input');
  });

  it('finds errors inside strings', () => {
    expect(locateJsonError('["a\\qb"]').reason).toContain('invalid escape');
    expect(locateJsonError('["abc').reason).toBe('unterminated string');
    expect(locateJsonError('[-]').reason).toContain('unexpected character');
  });

  it('computes 1-based line/column', () => {
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
    expect(lineColumn('', 0)).toEqual({ line: 1, column: 1 });
  });
});
