/**
 * The one scanner that decides where LaTeX maths is in trajectory text, for the video's
 * segments (lib/video/text.ts mathSegments) and the Markdown renderer (markdown-source.ts).
 *
 * `$$…$$` and `\[…\]` are display maths, `$…$` and `\(…\)` inline. Inline `$` follows Pandoc's
 * rule (no space just inside the dollars, no digit right after the closing one, one line) so
 * prices and shell variables (`$5`, `echo $HOME`) stay text. Backtick code spans and fences, and
 * `~~~` fences, are never maths; `\$` is a literal dollar. A span whose TeX is only an ellipsis
 * (`$...$`, `$$\dots$$`, `\[…\]`) is the notation written out, as in a system prompt that says
 * "write maths as $...$ inline": it is a code span of what was written, never an empty formula
 * (seen on the demo physics runs). Pure and linear in the input.
 */
export type MathToken =
  | { k: 'text'; text: string }
  /** a backtick code span or a fenced block, delimiters included, exactly as written */
  | { k: 'code'; text: string }
  /** `\$` in the source */
  | { k: 'dollar' }
  | { k: 'math'; tex: string; display: boolean };

/** TeX that is only a placeholder ellipsis: the delimiters are being described, not used */
const PLACEHOLDER = /^(?:\.{2,}|…|\\[lcv]?dots)$/;

export function mathTokens(text: string): MathToken[] {
  const out: MathToken[] = [];
  const pushMath = (tex: string, display: boolean, source: string) =>
    out.push(PLACEHOLDER.test(tex) ? { k: 'code', text: `\`${source}\`` } : { k: 'math', tex, display });
  let textStart = 0;
  const flushText = (end: number) => {
    if (end > textStart) out.push({ k: 'text', text: text.slice(textStart, end) });
  };
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i]!;
    if (c === '~' && atLineStart(text, i) && text.startsWith('~~~', i)) {
      let run = 3;
      while (text[i + run] === '~') run++;
      const end = fenceEnd(text, i + run, '~'.repeat(run));
      flushText(i);
      out.push({ k: 'code', text: text.slice(i, end) });
      i = textStart = end;
      continue;
    }
    if (c === '`') {
      let run = 1;
      while (text[i + run] === '`') run++;
      const close = text.indexOf('`'.repeat(run), i + run);
      // an unclosed run: the rest is text, as before (no maths after a stray backtick)
      const end = close === -1 ? n : close + run;
      flushText(i);
      out.push({ k: close === -1 ? 'text' : 'code', text: text.slice(i, end) });
      i = textStart = end;
      if (close === -1) break;
      continue;
    }
    if (c === '\\') {
      const d = text[i + 1];
      if (d === '$') {
        flushText(i);
        out.push({ k: 'dollar' });
        i = textStart = i + 2;
        continue;
      }
      if (d === '[' || d === '(') {
        const close = text.indexOf(d === '[' ? '\\]' : '\\)', i + 2);
        if (close !== -1 && close > i + 2) {
          flushText(i);
          pushMath(text.slice(i + 2, close).trim(), d === '[', text.slice(i, close + 2));
          i = textStart = close + 2;
          continue;
        }
      }
      i++;
      continue;
    }
    if (c === '$') {
      if (text[i + 1] === '$') {
        const close = text.indexOf('$$', i + 2);
        if (close !== -1 && text.slice(i + 2, close).trim() !== '') {
          flushText(i);
          pushMath(text.slice(i + 2, close).trim(), true, text.slice(i, close + 2));
          i = textStart = close + 2;
          continue;
        }
        i += 2;
        continue;
      }
      const close = inlineDollarClose(text, i);
      if (close !== -1) {
        flushText(i);
        pushMath(text.slice(i + 1, close).trim(), false, text.slice(i, close + 1));
        i = textStart = close + 1;
        continue;
      }
      i++;
      continue;
    }
    i++;
  }
  flushText(n);
  return out;
}

function atLineStart(text: string, i: number): boolean {
  let j = i - 1;
  let spaces = 0;
  while (j >= 0 && text[j] === ' ' && spaces < 4) {
    j--;
    spaces++;
  }
  return spaces <= 3 && (j < 0 || text[j] === '\n');
}

/** End of a fenced block opened at `from`: after the closing fence's line, or the end of the text. */
function fenceEnd(text: string, from: number, fence: string): number {
  let lineStart = text.indexOf('\n', from);
  while (lineStart !== -1) {
    const next = text.indexOf('\n', lineStart + 1);
    const line = text.slice(lineStart + 1, next === -1 ? text.length : next);
    if (line.trimStart().startsWith(fence) && line.trim().replace(/~/g, '') === '') return next === -1 ? text.length : next;
    lineStart = next;
  }
  return text.length;
}

function inlineDollarClose(text: string, open: number): number {
  const first = text[open + 1];
  if (first === undefined || /\s/.test(first)) return -1;
  const limit = Math.min(text.length, open + 1 + 1000);
  for (let j = open + 1; j < limit; j++) {
    const ch = text[j]!;
    if (ch === '\n') return -1;
    if (ch === '\\') {
      j++;
      continue;
    }
    if (ch === '$') {
      if (/\s/.test(text[j - 1]!)) return -1;
      const after = text[j + 1];
      if (after !== undefined && /[0-9]/.test(after)) return -1;
      return j;
    }
  }
  return -1;
}
