import { READING, countWords, richTextReadingSeconds } from '../video/pacing';
import { mathSegments } from '../video/text';
import type { TranscriptStep } from '../video/transcript';

/**
 * Transcript reading for watch coverage: a step counts as read once the reviewer has spent its
 * reading time on it, in view (lib: the page decides what "in view" means: inside the transcript's
 * scroll box AND the window, the tab visible and focused, the reviewer present). Its reading time
 * is its prose at the campaign's reading speed (230 words a minute by default) plus its maths and
 * code as the video's read pacing counts them (lib/video/pacing.ts: maths by its tokens, a line of
 * code or arguments, a line of output), at least 1.5 s and at most 10 minutes.
 *
 * A reader reads one step at a time: each tick's seconds go to the first unread step in view (in
 * transcript order), and what is left once it is read to the next. So reading steps takes as long
 * as reading them one after another, and three steps sharing a screen are not all read in the time
 * of the longest. The server checks the same sums against the clock (lib/review/attention.ts). Pure.
 */
export const READING_WPM = READING.wordsPerMinute;
const MIN_SECONDS = 1.5;
const MAX_SECONDS = 600;
/** code and output lines counted per block (a 10,000-line log is scanned, not read) */
const MAX_BLOCK_LINES = 80;

/** A step's reading load: its words of prose, and the seconds of its maths, code and output (independent of the reading speed). */
export interface StepReading {
  words: number;
  fixedSeconds: number;
}

function lines(text: string): number {
  return text === '' ? 0 : Math.min(MAX_BLOCK_LINES, text.split('\n').length);
}

export function stepReading(step: TranscriptStep): StepReading {
  const reasoningHead = step.reasoning ? step.reasoning.split('\n').slice(0, 3).join(' ') : '';
  let words = countWords(reasoningHead);
  let fixedSeconds = 0;
  for (const s of mathSegments(step.text)) {
    if (s.k === 'text') words += countWords(s.text);
    else fixedSeconds += richTextReadingSeconds([s]);
  }
  const codeLines =
    step.toolCalls.reduce((n, c) => n + 1 + lines(c.arguments) + (c.code ? lines(c.code.text) : 0), 0) +
    step.diffs.reduce((n, d) => n + lines(d.text), 0);
  const outputLines = step.observations.reduce((n, o) => n + lines(o.content), 0);
  fixedSeconds += codeLines * READING.codeLineSeconds + outputLines * READING.outputLineSeconds;
  return { words, fixedSeconds };
}

/** Seconds of reading a step's load takes at `wpm` words a minute (floor and cap applied). */
export function readingSecondsOf(r: StepReading, wpm: number = READING_WPM): number {
  return Math.min(MAX_SECONDS, Math.max(MIN_SECONDS, (r.words * 60) / wpm + r.fixedSeconds));
}

/** Seconds a step must be read for to count as read. */
export function readingSeconds(step: TranscriptStep, wpm: number = READING_WPM): number {
  return readingSecondsOf(stepReading(step), wpm);
}

export class ReadingTracker {
  private seen = new Map<number, number>();
  private done = new Set<number>();
  private need: Map<number, number>;

  /** `alreadyRead`: steps counted before (kept by the server across a reload) */
  constructor(steps: readonly TranscriptStep[], options: { wpm?: number; alreadyRead?: readonly number[] } = {}) {
    this.need = new Map(steps.map((s) => [s.index, readingSeconds(s, options.wpm)]));
    for (const s of options.alreadyRead ?? []) if (this.need.has(s)) this.done.add(s);
  }

  /** `seconds` spent reading with these steps in view; true when a step became read. */
  tick(inView: Iterable<number>, seconds: number): boolean {
    if (!(seconds > 0)) return false;
    let left = seconds;
    let changed = false;
    const order = [...new Set(inView)].filter((s) => this.need.has(s) && !this.done.has(s)).sort((a, b) => a - b);
    for (const step of order) {
      if (left <= 0) break;
      const need = this.need.get(step)!;
      const had = this.seen.get(step) ?? 0;
      const spend = Math.min(left, need - had);
      left -= spend;
      if (had + spend + 1e-9 >= need) {
        this.seen.delete(step);
        this.done.add(step);
        changed = true;
      } else this.seen.set(step, had + spend);
    }
    return changed;
  }

  isRead(step: number): boolean {
    return this.done.has(step);
  }

  /** steps read, sorted */
  read(): number[] {
    return [...this.done].sort((a, b) => a - b);
  }

  /** 0..1 of the steps read */
  share(): number {
    return this.need.size === 0 ? 0 : this.done.size / this.need.size;
  }
}
