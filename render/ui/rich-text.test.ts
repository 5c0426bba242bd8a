import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { codeSpan, markdownWithMath, trimUnclosedMath } from '@/lib/rich-text/markdown-source';
import { RichText, typesetCacheForTests } from './rich-text';

const html = (text: string, inline = false) => renderToStaticMarkup(createElement(RichText, { text, inline }));
/** formulas KaTeX typeset */
const formulas = (out: string) => out.split('<span class="katex">').length - 1;
/** the text a reader sees (tags dropped) holds no TeX command */
const noTex = (out: string) => !/\\[a-zA-Z]+/.test(out.replace(/<[^>]+>/g, ''));
const displays = (out: string) => out.split('class="katex-display"').length - 1;

describe('markdownWithMath', () => {
  it('rewrites the four notations for remark-math and escapes the dollars that stay text', () => {
    expect(markdownWithMath('So $E=mc^2$ and \\(a+b\\), then $$\\int_0^1 x\\,dx$$ and \\[x^2\\].')).toBe(
      // the full stop after the last display goes inside it (a line of its own read as a stray ".")
      'So $$ E=mc^2 $$ and $$ a+b $$, then $$$ \\int_0^1 x\\,dx $$$ and $$$ x^2 . $$$',
    );
    expect(markdownWithMath('echo $$ and $HOME costs $5')).toBe('echo \\$\\$ and $HOME costs $5');
    expect(markdownWithMath('`a $$ b` and `$x$`')).toBe('`a $$ b` and `$x$`');
    expect(markdownWithMath('a \\$5 fee')).toBe('a \\$5 fee');
  });

  it('shows the notation written out as code, not as an empty formula (a system prompt describing how to write maths)', () => {
    // the demo physics runs' system prompt (prisma/seed/demo/physics-derivations)
    const prompt = 'write mathematics in LaTeX ($...$ inline, $$...$$ or \\[...\\] for display), and end with ANSWER.';
    expect(markdownWithMath(prompt)).toBe(
      'write mathematics in LaTeX (`$...$` inline, `$$...$$` or `\\[...\\]` for display), and end with ANSWER.',
    );
    const out = html(prompt);
    expect(formulas(out)).toBe(0);
    expect(out).toContain('<code>$...$</code>');
    expect(out).toContain('<code>$$...$$</code>');
    expect(out).toContain('<code>\\[...\\]</code>');
    // real maths around it is still typeset, and \dots inside a formula is maths
    expect(formulas(html('as $...$, e.g. $x_1, \\dots, x_n$ or $\\dots$'))).toBe(1);
  });

  it('keeps maths on one line and out of table cells', () => {
    expect(markdownWithMath('$$\n\\begin{pmatrix} a \\\\\n# b\n\\end{pmatrix}\n$$')).toBe(
      '$$$ \\begin{pmatrix} a \\\\ # b \\end{pmatrix} $$$',
    );
    expect(markdownWithMath('| x | $|v|$ |')).toBe('| x | $$ \\vert v\\vert  $$ |');
    expect(markdownWithMath('$\\|v\\|$')).toBe('$$ \\|v\\| $$');
  });
  it('shows Python dunder names as written, not as bold (the demo sweep criterion "No __pycache__ or .cache entries")', () => {
    const out = html('No __pycache__ or .cache entries; tests/__init__.py runs when __name__ == "__main__"', true);
    expect(out).not.toContain('<strong>');
    expect(out.replace(/<[^>]+>/g, '')).toContain(
      'No __pycache__ or .cache entries; tests/__init__.py runs when __name__ == &quot;__main__&quot;',
    );
    // bold with spaces, bold written with asterisks, an underscore inside a word, code and URLs are as Markdown has them
    expect(html('__really bold__ and **Equilibria.**', true)).toContain('<strong>really bold</strong> and <strong>Equilibria.</strong>');
    expect(markdownWithMath('snake__case__name')).toBe('snake__case__name');
    expect(html('snake__case__name', true)).not.toContain('<strong>');
    expect(markdownWithMath('`__init__` and https://example.com/__init__.py')).toBe('`__init__` and https://example.com/__init__.py');
  });

  it('fences a code span one backtick longer than any run inside it', () => {
    expect(codeSpan('find . -name __pycache__')).toBe('`find . -name __pycache__`');
    expect(codeSpan('echo `date`')).toBe('`` echo `date` ``');
    const out = html(`bash: ${codeSpan('echo `date` *.py')}`, true);
    expect(out).toContain('<code>echo `date` *.py</code>');
  });
});

describe('trimUnclosedMath', () => {
  it('cuts a clipped label before maths whose closing was cut off, and leaves prices and shell variables', () => {
    expect(trimUnclosedMath('agent · So $\\ddot\\theta + \\frac{g}{\\ell}…')).toBe('agent · So…');
    expect(trimUnclosedMath('agent · Torque about the pivot:$m\\ell^2\\ddot\\theta =…')).toBe('agent · Torque about the pivot:…');
    // cut before any TeX character, after closed maths (seen on the demo physics chapters)
    expect(trimUnclosedMath('agent · Landing time: $y(t) = h$, so $t...')).toBe('agent · Landing time: \\(y(t) = h\\), so…');
    expect(trimUnclosedMath('user · echo $HOME done')).toBe('user · echo $HOME done'); // not clipped: a shell variable stays
    expect(trimUnclosedMath('agent · With $x^2$ and \\(y\\) we get…')).toBe('agent · With \\(x^2\\) and \\(y\\) we get…');
    expect(trimUnclosedMath('tool · echo $HOME costs $5…')).toBe('tool · echo $HOME costs $5…');
  });
});

describe('RichText', () => {
  it('typesets inline and display maths in all four notations', () => {
    const out = html('So $E=mc^2$ and \\(a+b\\), then $$\\int_0^1 x\\,dx$$ and \\[x^2\\].');
    expect(formulas(out)).toBe(4);
    expect(noTex(out)).toBe(true);
    expect(displays(out)).toBe(2);
    expect(out).not.toContain('$');
  });

  it('renders the demo derivation: Markdown emphasis, an ODE and display blocks on their own lines', () => {
    const text = [
      '**Equilibria.** Setting $\\dot\\theta = 0$ in',
      '$$',
      'RC\\,\\dot V + V = V_0',
      '$$',
      'gives:',
      '',
      '1. $\\theta = 0$ (stable when $\\omega^2 < g/R$)',
      '2. $\\cos\\theta = g/(\\omega^2 R)$',
    ].join('\n');
    const out = html(text);
    expect(out).toContain('<strong>Equilibria.</strong>');
    expect(out).not.toContain('**');
    expect(out).toMatch(/<ol>\s*<li>/);
    expect(formulas(out)).toBe(5);
    expect(noTex(out)).toBe(true);
    expect(displays(out)).toBe(1);
  });

  it('leaves shell dollars, prices and code alone', () => {
    const out = html(
      'Run `echo $HOME` then echo $PATH; it costs $5 and $10. PID is $$.\n\n```bash\nfor f in $FILES; do echo "$f$"; done\n```',
    );
    expect(formulas(out)).toBe(0);
    expect(noTex(out)).toBe(true);
    expect(out).toContain('echo $PATH; it costs $5 and $10. PID is $$.');
    expect(out).toContain('<code>echo $HOME</code>');
    // the fence is highlighted as bash, its dollars untouched
    expect(out).toContain('data-language="bash"');
    expect(out.replace(/<[^>]+>/g, '')).toContain('for f in $FILES; do echo &quot;$f$&quot;; done');
    expect(out).toMatch(/<span style="color:#[0-9a-f]{6}">for<\/span>/);
  });

  it('renders GFM tables, task lists and strikethrough', () => {
    const out = html('| quantity | value |\n|---|---|\n| $\\tau$ | $RC$ |\n| $|V|$ | 5 |\n\n- [x] done\n- [ ] ~~not~~ yet');
    expect(out).toContain('<table>');
    expect(out.match(/<td>/g)).toHaveLength(4);
    expect(formulas(out)).toBe(3);
    expect(noTex(out)).toBe(true);
    expect(out).toContain('type="checkbox"');
    expect(out).toContain('<del>not</del>');
  });

  it('keeps hostile input inert', () => {
    const out = html(
      [
        '<script>alert(1)</script> <img src=x onerror=alert(2)>',
        '[click](javascript:alert(3)) [data](data:text/html,<b>x</b>) [home](/admin) [ok](https://example.org/a)',
        '![pixel](https://tracker.example/p.gif)',
        '$\\href{javascript:alert(4)}{x}$ $\\htmlClass{x}{y}$ $\\url{javascript:alert(5)}$',
        'bidi \u202Eevil\u202C and ESC \x1b[31mred',
      ].join('\n\n'),
    );
    expect(out).not.toMatch(/<script|<img|<iframe|<[^>]*\son\w+=|(href|src)="(javascript|data):|href="\/admin/i);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('<a href="https://example.org/a" target="_blank" rel="noopener noreferrer nofollow">ok</a>');
    expect(out).toContain('[image: pixel https://tracker.example/p.gif]');
    expect(out).toContain('⟨U+202E⟩evil');
    expect(out).toContain('␛[31mred');
    // KaTeX without trust: \href, \htmlClass and \url are refused, drawn as red errors, never as links
    expect(out.match(/<a /g)).toHaveLength(1);
    expect(out.match(/<span class="mord" style="color:#cc0000">\\(href|htmlClass|url)<\/span>/g)).toHaveLength(3);
  });

  it('shows LaTeX errors in place instead of throwing', () => {
    const out = html('bad $\\frac{1}{$ and good $x$');
    // the broken one is drawn as KaTeX's error (its source, in red), the good one typeset
    expect(formulas(out)).toBe(1);
    expect(out).toContain('katex-error');
    expect(out).toContain('bad');
  });

  it('flows paragraphs inline for labels and chips', () => {
    const out = html('The time constant is $\\tau = RC$', true);
    expect(out.startsWith('<span class="rich-text rich-text-inline"')).toBe(true);
    expect(out).not.toContain('<p>');
    expect(formulas(out)).toBe(1);
    expect(noTex(out)).toBe(true);
  });

  it('shows a huge text plain', () => {
    const big = `$x$ ${'word '.repeat(13_000)}`;
    const out = html(big);
    expect(out).toContain('data-rich-text="plain"');
    expect(formulas(out)).toBe(0);
    expect(noTex(out)).toBe(true);
  });
});

describe('RichText typeset cache', () => {
  const samples = [
    '**Equilibria.** Setting $\\dot\\theta = 0$ in\n$$\nRC\\,\\dot V + V = V_0\n$$\ngives $\\tau = RC$.',
    'Run `echo $HOME`; it costs $5. PID is $$.\n\n```bash\necho "$f$"\n```',
    '| a | $|v|$ |\n|---|---|\n| 1 | 2 |\n\n- [x] ~~done~~',
    '<script>alert(1)</script> [x](javascript:alert(2)) $\\href{javascript:alert(3)}{x}$ bad $\\frac{1}{$',
  ];

  it('gives the same output from the cache as a fresh typesetting, hostile input still inert', () => {
    for (const text of samples)
      for (const inline of [false, true]) {
        typesetCacheForTests.clear();
        const fresh = html(text, inline);
        expect(html(text, inline)).toBe(fresh); // from the cache
        expect(typesetCacheForTests.state().size).toBe(1);
      }
    typesetCacheForTests.clear();
    html(samples[3]!);
    const cached = html(samples[3]!);
    expect(cached).not.toMatch(/<script|href="javascript:/i);
    expect(cached).toContain('&lt;script&gt;');
  });

  it('never serves the output of one option for another: the same text inline and as a block', () => {
    typesetCacheForTests.clear();
    const text = 'The time constant is $\\tau = RC$';
    const block = html(text);
    const inline = html(text, true);
    expect(block).toContain('<p>');
    expect(inline).not.toContain('<p>');
    expect(html(text)).toBe(block);
    expect(html(text, true)).toBe(inline);
    expect(typesetCacheForTests.state().size).toBe(2);
  });

  it('is bounded: 32 MiB of estimated heap and 5,000 texts (the least recently used dropped first: lib/bounded-cache.test.ts)', () => {
    typesetCacheForTests.clear();
    const { bounds } = typesetCacheForTests.state();
    expect(bounds).toEqual({ maxEntries: 5000, maxWeight: 32 * 2 ** 20 });
    html('prose only, a few words');
    const prose = typesetCacheForTests.state().bytes;
    html(`${'$\\frac{a}{b}$ '.repeat(20)}`);
    const maths = typesetCacheForTests.state().bytes - prose;
    // each entry weighs what it is estimated to hold: maths far more than prose of its length
    expect(prose).toBeGreaterThan(0);
    expect(maths).toBeGreaterThan(20 * 4096);
    expect(typesetCacheForTests.state().size).toBe(2);
  });
});
