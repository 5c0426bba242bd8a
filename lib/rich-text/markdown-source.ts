import { mathTokens } from './math-spans';

/**
 * Rewrites trajectory text so that remark-math (with `singleDollarTextMath: false`) finds
 * exactly the maths the scanner found (math-spans.ts: Pandoc's dollar rule, code never maths,
 * `\(…\)` and `\[…\]` too), and nothing else:
 * - inline maths becomes `$$ tex $$`, display maths `$$$ tex $$$` (both text maths, so a display
 *   block inside a list item or a paragraph keeps the Markdown around it; the renderer shows
 *   three-dollar maths as display, see RichText);
 * - line breaks inside maths become spaces (a `#` or `-` starting a line of a matrix must not
 *   start a heading or a list), and an unescaped `|` becomes `\vert ` (it would split a GFM
 *   table cell; KaTeX draws both the same);
 * - a `$$` the scanner left as text (shell `echo $$`, an unclosed `$$`) is escaped, so it is
 *   shown, never paired into maths; code spans and fences are kept byte for byte;
 * - a Python dunder name outside code (`__pycache__`, `tests/__init__.py`, `__name__`) keeps its
 *   underscores: Markdown would make it bold, and in trajectory text it is a name far more often
 *   than emphasis (agents write bold as `**…**`).
 * Pure and linear in the input.
 */
export function markdownWithMath(text: string): string {
  return markdownWithMathCounted(text).markdown;
}

/** markdownWithMath's output, with the number of formulas in it and the characters of their TeX. */
export function markdownWithMathCounted(text: string): { markdown: string; formulas: number; texChars: number } {
  let out = '';
  let formulas = 0;
  let texChars = 0;
  // the full stop or comma right after a display equation ends its sentence: it goes inside the
  // display, never on a line of its own (a stray "." under the equation)
  let punct = '';
  const tokens = mathTokens(text);
  for (const [i, t] of tokens.entries()) {
    const moved = punct;
    punct = '';
    if (t.k === 'code') out += t.text;
    else if (t.k === 'dollar') out += '\\$';
    else if (t.k === 'text') {
      const rest = moved ? t.text.replace(/^\s*[.,;:]/, '') : t.text;
      out += literalDunders(rest.replace(/\$\$+/g, (run) => '\\$'.repeat(run.length)));
    } else {
      const next = tokens[i + 1];
      const after = t.display && next?.k === 'text' ? /^\s*([.,;:])(?![\p{L}\p{N}])/u.exec(next.text) : null;
      punct = after ? after[1]! : '';
      const tex = t.tex.replace(/\s*\n\s*/g, ' ').replace(/(?<!\\)\|/g, '\\vert ') + (punct ? ` ${punct}` : '');
      const fence = t.display ? '$$$' : '$$';
      out += `${fence} ${tex} ${fence}`;
      formulas++;
      texChars += tex.length;
    }
  }
  return { markdown: out, formulas, texChars };
}

/** `__name__` outside a URL, not inside a word: its underscores escaped (shown as written, never strong emphasis). */
function literalDunders(text: string): string {
  if (!text.includes('__')) return text;
  return text.replace(
    /(https?:\/\/\S+)|(?<![\p{L}\p{N}_\\])__([\p{L}\p{N}](?:[\p{L}\p{N}_]*[\p{L}\p{N}])?)__(?![\p{L}\p{N}_])/gu,
    (whole, url: string | undefined, name: string) => (url ? url : `\\_\\_${name}\\_\\_`),
  );
}

/** Delimiter length of a text-maths node in markdownWithMath's output: 3 = display. */
export const DISPLAY_FENCE = '$$$';

/**
 * A one-line label that was clipped (chapters: "agent · So $\ddot\theta + …") may end inside maths
 * whose closing delimiter was cut off, which would show as raw TeX. Cuts the label before such an
 * unclosed opening (a `$`, `\(` or `\[` followed by TeX: a backslash, `^`, `_` or a brace) and
 * ends it with "…"; prices and shell variables (`$5`, `$HOME`) are left as they are.
 */
export function trimUnclosedMath(label: string): string {
  let out = '';
  const tokens = [...mathTokens(label)];
  // a clipped label's tail may hold an opening whose TeX was cut before any backslash ("so $t…")
  const clipped = /(…|\.\.\.)\s*$/.test(label);
  for (const [i, t] of tokens.entries()) {
    if (t.k === 'code') out += t.text;
    else if (t.k === 'dollar') out += '\\$';
    else if (t.k === 'math') out += t.display ? `\\[${t.tex}\\]` : `\\(${t.tex}\\)`;
    else {
      const open = /\$(?=[^\s\d])|\\[([]/.exec(t.text);
      if (open && /[\\^_{}]/.test(t.text.slice(open.index + 1))) return `${out}${t.text.slice(0, open.index).trimEnd()}…`;
      // the clipped tail: its last opening, when what follows reads as maths (no words, or an operator)
      if (clipped && i === tokens.length - 1) {
        const last = [...t.text.matchAll(/\$(?=[^\s\d])/g)].at(-1);
        const rest = last ? t.text.slice(last.index + 1).replace(/(…|\.\.\.)\s*$/, '') : '';
        if (last && (!/\s/.test(rest.trim()) || /[=+<>]/.test(rest))) return `${out}${t.text.slice(0, last.index).trimEnd()}…`;
      }
      out += t.text;
    }
  }
  return out;
}

/** A Markdown code span holding `text` as it is: its fence one backtick longer than any run inside. */
export function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^`|`$/.test(text) || /^ .* $/.test(text) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}
