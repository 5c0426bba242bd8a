import { describe, expect, it } from 'vitest';
import { inert, prettyJson } from './inert-text';

describe('inert', () => {
  it('shows ESC and other controls as visible symbols, keeps tabs and newlines', () => {
    expect(inert('\u001b[31mred\u001b[0m')).toBe('␛[31mred␛[0m');
    expect(inert('a\tb\r\nc\u0000d\u0007\u007f')).toBe('a\tb\nc␀d␇␡');
    expect(inert('x\u009b2Jy')).toBe('x⟨U+009B⟩2Jy');
    expect(inert('admin\u202Etxt.exe')).toBe('admin⟨U+202E⟩txt.exe');
    expect(inert('<script>alert(1)</script>')).toBe('<script>alert(1)</script>'); // React renders it as text
  });

  it('pretty-prints JSON and leaves strings alone', () => {
    expect(prettyJson({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(prettyJson('ls -la')).toBe('ls -la');
    expect(prettyJson(undefined)).toBe('');
  });
});
