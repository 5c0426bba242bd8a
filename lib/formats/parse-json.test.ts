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
