import type { Step } from '../formats/trajectory';
import type { RichText, TextSegment } from './schema';
import { mathSegments, plainText } from './text';

/**
 * Derivations in the video: a step's message cut into beats (the prose that leads to a display
 * equation, then the equation), and the run's final answer (a boxed expression, an `ANSWER:`
 * line, or the last display equation of the final step). Pure.
 */

export interface Beat {
  /** prose (with inline maths) shown with the equation, or alone */
  prose: RichText;
  /** the display equation this beat builds up to, null for prose only */
  equation: string | null;
}

const proseLength = (rt: RichText) => rt.reduce((n, s) => n + (s.k === 'text' ? s.text.length : s.tex.length + 2), 0);

function trimRich(rt: TextSegment[]): RichText {
  const out = rt.map((s) => ({ ...s }));
  while (out.length && out[0]!.k === 'text' && (out[0] as { text: string }).text.trim() === '') out.shift();
  while (out.length && out[out.length - 1]!.k === 'text' && (out[out.length - 1] as { text: string }).text.trim() === '') out.pop();
  const first = out[0];
  if (first?.k === 'text') first.text = first.text.replace(/^\s+/, '');
  const last = out[out.length - 1];
  if (last?.k === 'text') last.text = last.text.replace(/\s+$/, '');
  return out;
}

/** Splits prose at paragraph breaks into chunks of at most about `max` characters (a longer paragraph stays whole). */
function chunkProse(rt: RichText, max: number): RichText[] {
  const paragraphs: TextSegment[][] = [[]];
  for (const s of rt) {
    if (s.k !== 'text') {
      paragraphs[paragraphs.length - 1]!.push(s);
      continue;
    }
    const parts = s.text.split(/\n{2,}/);
    parts.forEach((p, i) => {
      if (i > 0) paragraphs.push([]);
      if (p !== '') paragraphs[paragraphs.length - 1]!.push({ k: 'text', text: p });
    });
  }
  // a paragraph longer than max is cut after sentences (never inside maths)
  const pieces: TextSegment[][] = [];
  for (const p of paragraphs) {
    if (proseLength(p) <= max) {
      pieces.push(p);
      continue;
    }
    let cur: TextSegment[] = [];
    for (const seg of p) {
      if (seg.k !== 'text') {
        cur.push(seg);
        continue;
      }
      const sentences = seg.text.match(/[^.!?]*[.!?]+(?:\s+|$)|[^.!?]+$/g) ?? [seg.text];
      for (const sentence of sentences) {
        if (cur.length > 0 && proseLength(cur) + sentence.length > max) {
          pieces.push(cur);
          cur = [];
        }
        cur.push({ k: 'text', text: sentence });
      }
    }
    if (cur.length > 0) pieces.push(cur);
  }
  const chunks: TextSegment[][] = [];
  let current: TextSegment[] = [];
  for (const p of pieces) {
    const para = trimRich(p);
    if (para.length === 0) continue;
    if (current.length > 0 && proseLength(current) + proseLength(para) > max) {
      chunks.push(current);
      current = [];
    }
    if (current.length > 0) current.push({ k: 'text', text: '\n\n' });
    current.push(...para);
  }
  if (current.length > 0) chunks.push(current);
  return chunks.map(trimRich);
}

/**
 * The beats of a message: each display equation with the prose written just before it; prose
 * longer than `maxProseChars` gets beats of its own first (cut at paragraph breaks), and prose
 * after the last equation ends the list.
 */
export function derivationBeats(message: RichText, maxProseChars = 560): Beat[] {
  const beats: Beat[] = [];
  let prose: TextSegment[] = [];
  const flushProse = (keepLast: boolean): RichText => {
    const chunks = chunkProse(prose, maxProseChars);
    prose = [];
    const last = keepLast ? (chunks.pop() ?? []) : [];
    for (const c of chunks) beats.push({ prose: c, equation: null });
    return last;
  };
  for (let k = 0; k < message.length; k++) {
    const s = message[k]!;
    if (s.k === 'math' && s.display && isEquation(s.tex)) {
      const lead = flushProse(true);
      // the full stop or comma after the equation ends its sentence: it goes with the equation, never a line of its own
      const next = message[k + 1];
      const punct = next?.k === 'text' ? (/^\s*([.,;:])/.exec(next.text) ?? null) : null;
      beats.push({ prose: lead, equation: punct ? `${s.tex} ${punct[1]}` : s.tex });
      if (punct && next?.k === 'text') {
        const rest = next.text.slice(punct[0].length);
        if (rest.trim() !== '') prose.push({ k: 'text', text: rest });
        k++;
      }
    } else prose.push(s);
  }
  flushProse(false);
  return beats;
}

/** Real maths, not a placeholder such as the `$$...$$` of a prompt that explains the syntax. */
export function isEquation(tex: string): boolean {
  return /[\p{L}\p{N}]/u.test(tex);
}

/** Display equations in rich text, in order. */
export function displayEquations(rt: RichText): string[] {
  return rt.flatMap((s) => (s.k === 'math' && s.display && isEquation(s.tex) ? [s.tex] : []));
}

export interface FinalAnswer {
  /** what the result card shows */
  text: RichText;
  /** the step it was read from */
  step: number;
  source: 'boxed' | 'answer-line' | 'last-equation';
  /** the maths of the answer, in order (what the plot looks for a formula in) */
  maths: string[];
}

/** The argument of each `\boxed{…}` in a TeX string (balanced braces). */
export function boxedContents(tex: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (;;) {
    const at = tex.indexOf('\\boxed', from);
    if (at === -1) return out;
    let i = at + '\\boxed'.length;
    while (tex[i] === ' ') i++;
    if (tex[i] !== '{') {
      from = i;
      continue;
    }
    let depth = 0;
    const start = i + 1;
    for (; i < tex.length; i++) {
      if (tex[i] === '\\') i++;
      else if (tex[i] === '{') depth++;
      else if (tex[i] === '}' && --depth === 0) break;
    }
    out.push(tex.slice(start, i).trim());
    from = i + 1;
  }
}

const mathsOf = (rt: RichText) => rt.flatMap((s) => (s.k === 'math' ? [s.tex] : []));

/**
 * The run's final answer, from the agent's steps (the last one with text first): the last
 * `\boxed{…}`, else the last `ANSWER:` line, else the last display equation of the final step
 * with text. Null when the run states none of these.
 */
export function finalAnswer(steps: readonly Step[]): FinalAnswer | null {
  const agentSteps = steps.filter((s) => s.source === 'agent' && s.text.trim() !== '');
  if (agentSteps.length === 0) return null;
  for (let k = agentSteps.length - 1; k >= 0; k--) {
    const step = agentSteps[k]!;
    const rt = mathSegments(plainText(step.text));
    const boxed = mathsOf(rt).flatMap(boxedContents);
    if (boxed.length > 0) {
      const tex = boxed[boxed.length - 1]!;
      return { text: [{ k: 'math', tex, display: true }], step: step.index, source: 'boxed', maths: [tex] };
    }
  }
  for (let k = agentSteps.length - 1; k >= 0; k--) {
    const step = agentSteps[k]!;
    const lines = plainText(step.text).split('\n');
    for (let l = lines.length - 1; l >= 0; l--) {
      const m = /^\s*(?:\*\*)?(?:final\s+)?answer(?:\*\*)?\s*:\s*(?:\*\*)?\s*(.+)$/i.exec(lines[l]!);
      if (m && m[1]!.trim() !== '') {
        const rt = mathSegments(m[1]!.trim());
        return { text: rt, step: step.index, source: 'answer-line', maths: mathsOf(rt) };
      }
    }
  }
  const last = agentSteps[agentSteps.length - 1]!;
  const equations = displayEquations(mathSegments(plainText(last.text)));
  if (equations.length > 0) {
    const tex = equations[equations.length - 1]!;
    return { text: [{ k: 'math', tex, display: true }], step: last.index, source: 'last-equation', maths: [tex] };
  }
  return null;
}
