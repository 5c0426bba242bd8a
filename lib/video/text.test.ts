import { describe, expect, it } from 'vitest';
import { findUnifiedDiffs, editArgumentsDiff, guessLanguage, diffFilesForScene } from './diff';
import { testMatchers, testResultsIn } from './evidence';
import { excerpt, formatCount, mathSegments, plainText } from './text';

describe('mathSegments', () => {
  it('marks inline and display maths in all four notations', () => {
    expect(mathSegments('So $E=mc^2$ and \\(a+b\\), then $$\\int_0^1 x\\,dx$$ and \\[x^2\\].')).toEqual([
      { k: 'text', text: 'So ' },
      { k: 'math', tex: 'E=mc^2', display: false },
      { k: 'text', text: ' and ' },
      { k: 'math', tex: 'a+b', display: false },
      { k: 'text', text: ', then ' },
      { k: 'math', tex: '\\int_0^1 x\\,dx', display: true },
      { k: 'text', text: ' and ' },
      { k: 'math', tex: 'x^2', display: true },
      { k: 'text', text: '.' },
    ]);
  });

  it('leaves prices, shell variables, code spans and escaped dollars as text', () => {
    const plain = (s: string) => mathSegments(s).every((seg) => seg.k === 'text');
    expect(plain('It costs $5 and $10 today.')).toBe(true);
    expect(plain('echo $HOME and $PATH')).toBe(true);
    expect(plain('run `echo $a$` here')).toBe(true);
    expect(plain('```\nx=$y$\n```')).toBe(true);
    expect(mathSegments('a \\$5 fee')).toEqual([{ k: 'text', text: 'a $5 fee' }]);
    expect(plain('unclosed $x+1 and \\( never closed')).toBe(true);
  });
});

describe('excerpt', () => {
  it('keeps short texts whole and strips control sequences', () => {
    expect(excerpt('\x1b[31mred\x1b[0m\r\nnext\n', { headLines: 3, tailLines: 1, maxLineChars: 80 })).toEqual({
      head: 'red\nnext',
      omittedLines: 0,
      tail: '',
      totalLines: 2,
    });
    expect(plainText('50%\r75%\r100%\ndone')).toBe('100%\ndone');
  });

  it('summarises a 100k-line output with a marker count', () => {
    const text = Array.from({ length: 100_000 }, (_, i) => `line ${i + 1}`).join('\n');
    const t0 = performance.now();
    const e = excerpt(text, { headLines: 8, tailLines: 4, maxLineChars: 120 });
    expect(performance.now() - t0).toBeLessThan(500);
    expect(e.totalLines).toBe(100_000);
    expect(e.omittedLines).toBe(100_000 - 12);
    expect(e.head.split('\n')).toHaveLength(8);
    expect(e.head.split('\n')[0]).toBe('line 1');
    expect(e.tail.split('\n')).toEqual(['line 99997', 'line 99998', 'line 99999', 'line 100000']);
    expect(formatCount(e.omittedLines)).toBe('99,988');
  });

  it('clips very long lines', () => {
    const e = excerpt('x'.repeat(10_000), { headLines: 2, tailLines: 1, maxLineChars: 50 });
    expect(e.head).toHaveLength(50);
    expect(e.head.endsWith('…')).toBe(true);
  });
});

describe('diffs', () => {
  const gitDiff = [
    'diff --git a/src/app.py b/src/app.py',
    'index 1111111..2222222 100644',
    '--- a/src/app.py',
    '+++ b/src/app.py',
    '@@ -10,4 +10,5 @@ def main():',
    '     x = 1',
    '-    return x',
    '+    y = 2',
    '+    return x + y',
    ' ',
    '     # end',
    'diff --git a/README.md b/README.md',
    'new file mode 100644',
    '--- /dev/null',
    '+++ b/README.md',
    '@@ -0,0 +1 @@',
    '+# Title',
    '\\ No newline at end of file',
  ].join('\n');

  it('parses files, hunks, kinds and line numbers', () => {
    const files = findUnifiedDiffs(`Here is my change:\n${gitDiff}\nthanks`);
    expect(files).toHaveLength(2);
    expect(files[0]).toMatchObject({ oldPath: 'src/app.py', newPath: 'src/app.py' });
    const lines = files[0]!.hunks[0]!.lines;
    expect(lines.map((l) => l.kind)).toEqual(['context', 'del', 'add', 'add', 'context', 'context']);
    expect(lines[1]).toEqual({ kind: 'del', text: '    return x', oldNo: 11, newNo: null });
    expect(lines[3]).toEqual({ kind: 'add', text: '    return x + y', oldNo: null, newNo: 12 });
    expect(lines[5]).toMatchObject({ oldNo: 13, newNo: 14 });
    expect(files[1]).toMatchObject({ oldPath: null, newPath: 'README.md' });
    expect(files[1]!.hunks[0]!.lines).toEqual([{ kind: 'add', text: '# Title', oldNo: null, newNo: 1 }]);
  });

  it('finds nothing in ordinary text and turns edit arguments into a diff', () => {
    expect(findUnifiedDiffs('no diff here -- just text\n+ a bullet')).toEqual([]);
    const edit = editArgumentsDiff({ command: 'str_replace', path: '/repo/x.ts', old_str: 'a\nb', new_str: 'a\nc' });
    expect(edit?.newPath).toBe('/repo/x.ts');
    expect(edit?.hunks[0]!.lines.map((l) => `${l.kind}:${l.text}`)).toEqual(['del:a', 'del:b', 'add:a', 'add:c']);
    expect(editArgumentsDiff({ path: 'x', old_str: 'same', new_str: 'same' })).toBeNull();
  });

  it('guesses languages and budgets lines for a scene', () => {
    expect(guessLanguage('src/app.py')).toBe('python');
    expect(guessLanguage('a/b/Component.tsx')).toBe('tsx');
    expect(guessLanguage('Dockerfile')).toBe('docker');
    expect(guessLanguage('notes')).toBeNull();
    const big = findUnifiedDiffs(
      ['--- a/x.go', '+++ b/x.go', '@@ -1,0 +1,100 @@', ...Array.from({ length: 100 }, (_, i) => `+line ${i}`)].join('\n'),
    );
    const { files } = diffFilesForScene(big, 3, 30);
    expect(files[0]!.language).toBe('go');
    expect(files[0]!.additions).toBe(100);
    expect(files[0]!.hunks[0]!.lines).toHaveLength(29);
    expect(files[0]!.omittedLines).toBe(71);
  });
});

describe('test evidence', () => {
  const matchers = testMatchers([
    { key: 'tests/test_x.py::test_alpha', text: 'tests/test_x.py::test_alpha', origin: 'verifier', verdict: true },
    { key: 'script-is-executable', text: 'script is executable', origin: 'task', verdict: null },
  ]);

  it('reads pytest, unittest and summary lines for named tests only', () => {
    expect(matchers.map((m) => m.key)).toEqual(['tests/test_x.py::test_alpha']);
    expect(testResultsIn('tests/test_x.py::test_alpha PASSED [ 50%]', matchers)).toEqual([
      { key: 'tests/test_x.py::test_alpha', state: 'pass' },
    ]);
    expect(testResultsIn('FAILED tests/test_x.py::test_alpha - assert 1 == 2', matchers)).toEqual([
      { key: 'tests/test_x.py::test_alpha', state: 'fail' },
    ]);
    expect(testResultsIn('test_alpha (tests.TestX) ... ok', matchers)).toEqual([{ key: 'tests/test_x.py::test_alpha', state: 'pass' }]);
    expect(testResultsIn('test_alpha_beta PASSED', matchers)).toEqual([]);
    expect(testResultsIn('collected 3 items\ntest_alpha is slow', matchers)).toEqual([]);
  });
});

describe('maths and test names, edge cases', () => {
  it('drops the line breaks around a display block', () => {
    expect(mathSegments('the mean is\n$$x = 1$$\nso done')).toEqual([
      { k: 'text', text: 'the mean is' },
      { k: 'math', tex: 'x = 1', display: true },
      { k: 'text', text: 'so done' },
    ]);
  });

  it('does not take a file path for a bare test name', () => {
    const m = testMatchers([{ key: 'tests/test_mean.py::test_mean', text: 't', origin: 'verifier', verdict: true }]);
    expect(testResultsIn('FAILED tests/test_mean.py::test_weighted_mean - assert 1.0 == 2.5', m)).toEqual([]);
    expect(testResultsIn('tests/test_mean.py::test_mean PASSED', m)).toEqual([{ key: 'tests/test_mean.py::test_mean', state: 'pass' }]);
    expect(testResultsIn('test_mean (tests.test_mean.MeanTest) ... ok', m)).toEqual([
      { key: 'tests/test_mean.py::test_mean', state: 'pass' },
    ]);
  });
});

describe('formatCount', () => {
  it('groups whole numbers as en-US does', () => {
    for (const n of [
      0,
      7,
      999,
      1000,
      1001,
      12_345,
      999_999,
      1_000_000,
      1_234_567_890,
      -1,
      -999,
      -1000,
      -1_234_567,
      Number.MAX_SAFE_INTEGER,
    ])
      expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
    expect(formatCount(1_234_567)).toBe('1,234,567');
  });

  it('leaves fractions and unsafe integers to en-US', () => {
    expect(formatCount(1234.5)).toBe('1,234.5');
    expect(formatCount(2 ** 60)).toBe((2 ** 60).toLocaleString('en-US'));
  });
});
