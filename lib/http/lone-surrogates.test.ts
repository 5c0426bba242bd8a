import { describe, expect, it } from 'vitest';
import { wellFormedText, withWellFormedText } from './lone-surrogates';

describe('unpaired UTF-16 surrogates become U+FFFD', () => {
  it('in a string: lone high and low halves, at the start, middle and end; pairs stay', () => {
    expect(wellFormedText('\ud800')).toBe('\ufffd');
    expect(wellFormedText('a\udc00b')).toBe('a\ufffdb');
    expect(wellFormedText('end \ud83d')).toBe('end \ufffd');
    expect(wellFormedText('\udc00\ud800')).toBe('\ufffd\ufffd');
    expect(wellFormedText('ok 😀 \ud83d\ude00')).toBe('ok 😀 😀');
    expect(wellFormedText('x\ud83d\ude00\ude00')).toBe('x😀\ufffd');
  });

  it('in nested values and keys, rebuilding only what changed', () => {
    const input = { name: 'n\ud800', rubric: { title: 'ok', items: ['a', '\udfff'] }, ['k\ud800']: 1, n: 2, b: true, z: null };
    expect(withWellFormedText(input)).toEqual({
      name: 'n\ufffd',
      rubric: { title: 'ok', items: ['a', '\ufffd'] },
      ['k\ufffd']: 1,
      n: 2,
      b: true,
      z: null,
    });
    expect(JSON.stringify(withWellFormedText(input))).not.toMatch(/\\ud[89a-f]/);
    const clean = { a: ['x', { b: 'y' }] };
    expect(withWellFormedText(clean)).toBe(clean);
    const date = new Date(0);
    expect(withWellFormedText(date)).toBe(date);
  });
});
