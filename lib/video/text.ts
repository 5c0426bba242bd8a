import { mathTokens } from '../rich-text/math-spans';
import type { Excerpt, RichText, TextSegment } from './schema';

/**
 * Text helpers for the video: control-sequence stripping, long-text summaries with a
 * "… N more lines" marker, and LaTeX detection for KaTeX. All pure and linear in the input.
 */

// CSI, OSC (BEL or ST terminated), two-byte escapes, other C0 controls but \t \n \r
const CONTROL = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]|\x1b|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/** Removes ANSI escape sequences and control characters; `\r\n` -> `\n`; a carriage return
 * inside a line (progress bars) keeps what was drawn last. */
export function plainText(text: string): string {
  let s = text.replace(CONTROL, '');
  if (s.includes('\r')) {
    s = s.replace(/\r+\n/g, '\n');
    if (s.includes('\r')) s = s.split('\n').map(lastCarriageSegment).join('\n');
  }
  return s;
}

function lastCarriageSegment(line: string): string {
  if (!line.includes('\r')) return line;
  const parts = line.split('\r');
  for (let i = parts.length - 1; i >= 0; i--) if (parts[i] !== '') return parts[i]!;
  return '';
}

/**
 * 12345 -> "12,345", as `n.toLocaleString('en-US')` writes it: the one count format of the video
 * and the studio's pages. Whole numbers are grouped here, not by Intl: a page's first Intl number
 * format loads ICU's locale data, 35-50 ms of the main thread while a long trajectory page
 * hydrates (measured in Chromium's profile of the 1,000-step page). Fractions and unsafe integers
 * (rare) are left to en-US.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function clipLine(line: string, maxChars: number): string {
  if (line.length <= maxChars) return line;
  return `${line.slice(0, Math.max(0, maxChars - 1))}…`;
}

/** Clips text to maxChars on a word boundary when one is near; returns the text and what was left out. */
export function clipChars(text: string, maxChars: number): { text: string; omitted: number } {
  if (text.length <= maxChars) return { text, omitted: 0 };
  let cut = maxChars;
  const space = text.lastIndexOf(' ', maxChars);
  if (space > maxChars * 0.8) cut = space;
  return { text: `${text.slice(0, cut).trimEnd()}…`, omitted: text.length - cut };
}

export interface ExcerptOptions {
  headLines: number;
  tailLines: number;
  maxLineChars: number;
}

/**
 * Summarises a long text: the first `headLines` and last `tailLines` lines, with the count of
 * lines in between. Scans for line breaks without splitting the whole text (a 100k-line
 * observation costs one pass). Control sequences are stripped first.
 */
export function excerpt(raw: string, options: ExcerptOptions): Excerpt {
  const text = plainText(raw).replace(/\n+$/, '');
  if (text === '') return { head: '', omittedLines: 0, tail: '', totalLines: 0 };
  const starts: number[] = [0];
  // first headLines + 1 line starts
  let total = 1;
  let i = text.indexOf('\n');
  while (i !== -1) {
    total++;
    if (starts.length <= options.headLines) starts.push(i + 1);
    i = text.indexOf('\n', i + 1);
  }
  const clip = (block: string) =>
    block
      .split('\n')
      .map((l) => clipLine(l.replace(/\s+$/, ''), options.maxLineChars))
      .join('\n');
  if (total <= options.headLines + options.tailLines + 1) return { head: clip(text), omittedLines: 0, tail: '', totalLines: total };
  const headEnd = starts[options.headLines]! - 1;
  // walk back tailLines line breaks from the end
  let tailStart = text.length;
  for (let k = 0; k < options.tailLines; k++) tailStart = text.lastIndexOf('\n', tailStart - 1);
  const head = text.slice(0, headEnd);
  const tail = options.tailLines > 0 ? text.slice(tailStart + 1) : '';
  return { head: clip(head), omittedLines: total - options.headLines - options.tailLines, tail: clip(tail), totalLines: total };
}

/** Lines an excerpt shows (for timing and layout). */
export function excerptLines(e: Excerpt): number {
  const count = (s: string) => (s === '' ? 0 : s.split('\n').length);
  return count(e.head) + count(e.tail) + (e.omittedLines > 0 ? 1 : 0);
}

/**
 * Splits text into plain and maths segments (the scanner's rules: lib/rich-text/math-spans.ts):
 * `$$…$$` and `\[…\]` display, `$…$` and `\(…\)` inline; prices, shell variables and code stay
 * text; `\$` is a literal dollar. The line breaks around a display block are not text.
 */
export function mathSegments(text: string): RichText {
  const out: TextSegment[] = [];
  let buf = '';
  let afterDisplay = false;
  const flush = () => {
    if (buf) out.push({ k: 'text', text: buf });
    buf = '';
  };
  for (const t of mathTokens(text)) {
    if (t.k === 'math') {
      if (t.display) buf = buf.replace(/[ \t]*\n[ \t]*$/, '');
      flush();
      out.push({ k: 'math', tex: t.tex, display: t.display });
      afterDisplay = t.display;
      continue;
    }
    let s = t.k === 'dollar' ? '$' : t.text;
    if (afterDisplay) s = s.replace(/^[ \t]*\n/, '');
    afterDisplay = false;
    buf += s;
  }
  flush();
  return out;
}

/** Rich text back to plain text (for search, lengths). */
export function richTextLength(rt: RichText): number {
  return rt.reduce((n, s) => n + (s.k === 'text' ? s.text.length : s.tex.length), 0);
}

/**
 * Rich text back to the Markdown-with-maths source the one renderer reads
 * (render/ui/rich-text.tsx): maths as `$…$` / `$$…$$`, a dollar in the text escaped as `\$`
 * outside code spans and fences (so it stays a dollar), everything else as written. Scanning the
 * result again (lib/rich-text/math-spans.ts) finds the same maths, except that the full stop or
 * comma right after a display equation is moved inside it (`$$E = mc^2 .$$`): drawn on a line of
 * its own it read as a stray ".".
 */
export function richTextSource(rt: RichText): string {
  let out = '';
  for (let k = 0; k < rt.length; k++) {
    const s = rt[k]!;
    if (s.k === 'text') out += escapeDollarsOutsideCode(s.text);
    else if (!s.display) out += `$${s.tex}$`;
    else {
      // the full stop or comma that ends the sentence goes inside the display (never a line of its own)
      const next = rt[k + 1];
      const punct = next?.k === 'text' ? /^\s*([.,;:])/.exec(next.text) : null;
      out += `\n$$${s.tex}${punct ? ` ${punct[1]}` : ''}$$\n`;
      if (punct && next?.k === 'text') {
        out += escapeDollarsOutsideCode(next.text.slice(punct[0].length));
        k++;
      }
    }
  }
  return out;
}

function escapeDollarsOutsideCode(text: string): string {
  if (!text.includes('$')) return text;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '`' || (c === '~' && text.startsWith('~~~', i))) {
      let run = 1;
      while (text[i + run] === c) run++;
      const close = text.indexOf(c.repeat(run), i + run);
      const end = close === -1 ? text.length : close + run;
      out += text.slice(i, end);
      i = end;
      continue;
    }
    out += c === '$' ? '\\$' : c;
    i++;
  }
  return out;
}
