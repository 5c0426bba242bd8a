import type { TranscriptStep } from '../video/transcript';

/**
 * Transcript reading for watch coverage: a step counts as read once it has been in view in the
 * transcript for as long as reading it takes. Prose at 230 words a minute, code, tool calls and
 * outputs by their lines (at most the first 40 of each), maths by its length (a display equation
 * takes seconds); at least 1.5 s, at most 60 s. The page ticks the tracker with the steps in view;
 * the server counts the steps it reports (lib/review/coverage.ts). Pure.
 */
export const READING_WPM = 230;
const MIN_SECONDS = 1.5;
const MAX_SECONDS = 60;
const SECONDS_PER_CODE_LINE = 0.4;

function words(text: string): number {
  const prose = text.replace(/\$\$[\s\S]*?\$\$|\\\[[\s\S]*?\\\]/g, (m) => ' w'.repeat(Math.ceil(m.length / 8)));
  return prose.split(/\s+/).filter(Boolean).length;
}

function lines(text: string): number {
  return text === '' ? 0 : Math.min(40, text.split('\n').length);
}

/** Seconds a step must stay in view to count as read. */
export function readingSeconds(step: TranscriptStep): number {
  const reasoningHead = step.reasoning ? step.reasoning.split('\n').slice(0, 3).join(' ') : '';
  const prose = words(step.text) + words(reasoningHead);
  const code =
    step.toolCalls.reduce((n, c) => n + 1 + lines(c.arguments) + (c.code ? lines(c.code.text) : 0), 0) +
    step.observations.reduce((n, o) => n + lines(o.content), 0) +
    step.diffs.reduce((n, d) => n + lines(d.text), 0);
  const seconds = (prose / READING_WPM) * 60 + code * SECONDS_PER_CODE_LINE;
  return Math.min(MAX_SECONDS, Math.max(MIN_SECONDS, seconds));
}

export class ReadingTracker {
  private seen = new Map<number, number>();
  private done = new Set<number>();
  private need: Map<number, number>;

  constructor(steps: readonly TranscriptStep[]) {
    this.need = new Map(steps.map((s) => [s.index, readingSeconds(s)]));
  }

  /** `seconds` passed with these steps in view; true when a step became read. */
  tick(inView: Iterable<number>, seconds: number): boolean {
    if (!(seconds > 0)) return false;
    let changed = false;
    for (const step of inView) {
      const need = this.need.get(step);
      if (need === undefined || this.done.has(step)) continue;
      const t = (this.seen.get(step) ?? 0) + seconds;
      this.seen.set(step, t);
      if (t + 1e-9 >= need) {
        this.done.add(step);
        changed = true;
      }
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
