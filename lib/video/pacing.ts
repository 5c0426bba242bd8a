import { z } from 'zod';
import type { RichText } from './schema';

/**
 * How long the video holds what it shows. Two pacings, chosen per campaign:
 *
 * - `read`: every card stays on screen long enough to read what changed in it at 1x. Prose at
 *   230 words a minute; maths by its tokens (a symbol or operator weighs more than a word, 0.35 s
 *   against 0.26 s; an inline formula adds 0.3 s, a display equation 2 s: it is parsed, not
 *   skimmed); an equation that follows from the last one by what changed in it (its carried terms
 *   were read on the line before; they move to their new places, `EQUATION_MOTION_SECONDS`); code
 *   and tool output by lines; each card gets a second to orient and never less than 3 s. No scene
 *   holds still longer than `STILL_MAX_SECONDS` (12 s): the title card, a page of prose, a beat of a
 *   derivation, the result card (the transcript beside the player holds the full text; the player
 *   plays at 0.5x for a slow reader). No overall length target: a long run makes a long video.
 * - `skim`: today's ~90 s overview (about 350 characters a second, at most 6 s a card, the whole
 *   video shrunk towards 90 s), for leads browsing many runs.
 *
 * Pure functions of the text; the figures are exported so tests and docs quote the same numbers.
 */

export const PACINGS = ['read', 'skim'] as const;
export const pacingSchema = z.enum(PACINGS);
export type Pacing = z.infer<typeof pacingSchema>;

/**
 * Read pacing: the longest a scene (a card, a page, a beat of a derivation) holds still. The
 * rotating-hoop derivation held 16-17 s on one equation and 48 s on one paragraph (3:10 for a
 * message a physicist reads in a minute); capped it is 1:45 (lib/video/props.test.ts).
 */
export const STILL_MAX_SECONDS = 12;
/** a derivation beat: the carried terms of the last equation move to their places in the next one */
export const EQUATION_MOTION_SECONDS = 1;
/** skim: the least an equation of a derivation stays on screen (1-2 s a step could not be followed) */
export const SKIM_EQUATION_SECONDS = 3;
/** skim: the least a prose beat of a derivation stays on screen */
export const SKIM_PROSE_BEAT_SECONDS = 1.5;

/** The pacing a campaign gets when its lead does not choose: read when it asks for an expertise. */
export function defaultPacing(requiredExpertise: readonly string[]): Pacing {
  return requiredExpertise.length > 0 ? 'read' : 'skim';
}

export const READING = {
  wordsPerMinute: 230,
  /** one maths token (a symbol, number, operator or command) */
  mathTokenSeconds: 0.35,
  /** on top of its tokens, each inline formula (finding it in the sentence, switching to maths) */
  inlineMathSeconds: 0.3,
  /** on top of its tokens, each display equation */
  displayEquationSeconds: 2,
  /** a display equation never holds longer than this (a page of matrix is skimmed) */
  displayEquationMaxSeconds: 16,
  /** a line of a command or of tool-call arguments */
  codeLineSeconds: 0.8,
  /** a line of tool output (scanned, not read word by word) */
  outputLineSeconds: 0.35,
  /** to see who acts and what kind of card it is */
  orientSeconds: 1,
  cardMinSeconds: 3,
  /** one card (a page of a long message) at most; longer text is split into pages first */
  cardMaxSeconds: 120,
} as const;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Words of prose: runs of letters/digits (a hyphenated word or a number is one). */
export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}]+(?:[-'’.][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}

// spacing, sizing and grouping commands carry nothing to read
const SILENT_COMMANDS = new Set([
  'left',
  'right',
  'big',
  'Big',
  'bigg',
  'Bigg',
  'quad',
  'qquad',
  'displaystyle',
  'textstyle',
  'scriptstyle',
  'mathrm',
  'mathbf',
  'mathit',
  'mathcal',
  'mathsf',
  'mathbb',
  'operatorname',
  'text',
  'mathop',
  'limits',
  'nolimits',
  'begin',
  'end',
  'tfrac',
  'dfrac',
  'boxed',
]);

/**
 * Tokens a reader parses in a LaTeX formula: each command that stands for a symbol or an
 * operation (`\frac`, `\Omega`, `\sqrt`), each letter, each number, each operator or relation.
 * Braces, `^`/`_`, spacing and font commands are structure, not tokens.
 */
export function countMathTokens(tex: string): number {
  let n = 0;
  const re = /\\([a-zA-Z]+)|\\.|(\d+(?:\.\d+)?)|([a-zA-Z])|([+\-=<>*/|!,;:'])|([()[\]])/g;
  for (const m of tex.matchAll(re)) {
    if (m[1] !== undefined) {
      if (!SILENT_COMMANDS.has(m[1])) n++;
    } else if (m[0].startsWith('\\')) {
      // \, \; \! \\ spacing and line breaks; \{ \} \| are delimiters a reader sees
      if (/^\\[{}|]$/.test(m[0])) n++;
    } else if (m[5] === undefined) n++;
  }
  return n;
}

/** Seconds to read one display equation. */
export function displayEquationSeconds(tex: string): number {
  return Math.min(READING.displayEquationMaxSeconds, READING.displayEquationSeconds + countMathTokens(tex) * READING.mathTokenSeconds);
}

/** A piece of a diffed equation (lib/video/equation-diff.ts DiffedPiece), structurally. */
interface ChangedPiece {
  tex: string;
  kind: string;
  state: 'same' | 'changed';
  parts?: readonly ChangedPiece[];
}

/**
 * Seconds to read an equation that follows from the previous one: only its changed terms are
 * new to the reader (the carried ones were read on the line before and move into place), plus
 * the display equation's own second or two. An equation with nothing carried reads whole.
 */
export function changedEquationSeconds(pieces: readonly ChangedPiece[]): number {
  const changed = (list: readonly ChangedPiece[]): number =>
    list.reduce((n, p) => n + (p.parts ? changed(p.parts) : p.state === 'changed' && p.kind !== 'space' ? countMathTokens(p.tex) : 0), 0);
  return Math.min(READING.displayEquationMaxSeconds, READING.displayEquationSeconds + changed(pieces) * READING.mathTokenSeconds);
}

/** Seconds to read rich text at 1x: prose words, inline maths tokens, display equations. */
export function richTextReadingSeconds(text: RichText): number {
  let seconds = 0;
  for (const s of text) {
    if (s.k === 'text') seconds += (countWords(s.text) * 60) / READING.wordsPerMinute;
    else if (s.display) seconds += displayEquationSeconds(s.tex);
    else seconds += READING.inlineMathSeconds + countMathTokens(s.tex) * READING.mathTokenSeconds;
  }
  return seconds;
}

export interface CardContent {
  text: RichText;
  /** plain prose beside the text (the reasoning summary) */
  extraProse?: string;
  codeLines?: number;
  outputLines?: number;
}

/** How long a card holds under `read` pacing (seconds, floor and cap applied). */
export function readCardSeconds(c: CardContent): number {
  const reading =
    richTextReadingSeconds(c.text) +
    (c.extraProse ? (countWords(c.extraProse) * 60) / READING.wordsPerMinute : 0) +
    (c.codeLines ?? 0) * READING.codeLineSeconds +
    (c.outputLines ?? 0) * READING.outputLineSeconds;
  return clamp(READING.orientSeconds + reading, READING.cardMinSeconds, READING.cardMaxSeconds);
}

/**
 * The longest video of each pacing (seconds). A run that fits is shown whole, exactly as before
 * these bounds; a longer one (thousands of steps) shows a bounded selection of its steps, aimed
 * at `VIDEO_SELECTION_SECONDS` (the first and last steps, the answer, steps with an error, and
 * others evenly spaced), and its props list the rest as `omittedSteps` ranges: read them in the
 * transcript. A 100,000-step run made a 13.9 h skim video before (lib/video/props.ts).
 */
export const VIDEO_MAX_SECONDS: Record<Pacing, number> = { skim: 100, read: 20 * 60 };
export const VIDEO_SELECTION_SECONDS: Record<Pacing, number> = { skim: 90, read: 20 * 60 };
/** The least a step takes in each pacing once shrunk (a small skim card 0.5 s, a read card 3 s): a run of more steps than fit at this never fits. */
export const STEP_FLOOR_SECONDS: Record<Pacing, number> = { skim: 0.5, read: 3 };
