import type { TranscriptStep } from './transcript';

/*
 * The compare page's divergence mark, in a file of its own: the browser imports it, and
 * lib/video/transcript.ts (which builds transcripts on the server) brings the props derivation
 * with it (the LaTeX engine and the headless terminal: 400 KB of the compare page's script).
 */

/**
 * The position (0-based, in step order) of the first step where two transcripts differ in what
 * was said, called or returned (whitespace aside); a longer run differs at the first step the
 * shorter lacks; null when they are the same.
 */
export function firstDivergentStep(a: readonly TranscriptStep[], b: readonly TranscriptStep[]): number | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (stepKey(a[i]!) !== stepKey(b[i]!)) return i;
  return a.length === b.length ? null : n;
}

function stepKey(s: TranscriptStep): string {
  const norm = (t: string) => t.replace(/\s+/g, ' ').trim();
  return JSON.stringify([
    s.source,
    norm(s.text),
    s.toolCalls.map((c) => [c.name, norm(c.arguments)]),
    s.observations.map((o) => [norm(o.content), o.isError]),
  ]);
}
