import { describe, expect, it } from 'vitest';
import type { TranscriptStep } from '../video/transcript';
import { measureCoverage } from './coverage';
import { ReadingTracker, readingSeconds } from './transcript-reading';

const step = (index: number, text: string, extra: Partial<TranscriptStep> = {}): TranscriptStep => ({
  index,
  source: 'agent',
  actor: 'agent',
  text,
  reasoning: null,
  toolCalls: [],
  observations: [],
  diffs: [],
  timestamp: null,
  ...extra,
});

describe('transcript reading', () => {
  it('asks for the time to read a step: 230 words a minute, maths and output weigh more, with a floor and a cap', () => {
    expect(readingSeconds(step(0, 'ok'))).toBe(1.5);
    // 300 words at 230 wpm = 78 s, capped at 60
    expect(readingSeconds(step(0, 'word '.repeat(300)))).toBe(60);
    expect(readingSeconds(step(0, 'word '.repeat(46)))).toBeCloseTo(12, 5);
    const prose = readingSeconds(step(0, 'so the answer is this one here'));
    const maths = readingSeconds(step(0, 'so $$\\ddot\\theta + \\frac{g}{\\ell}\\sin\\theta = 0$$ here'));
    expect(maths).toBeGreaterThan(prose);
    const output = readingSeconds(step(0, 'ran it', { observations: [{ toolName: 'sh', content: 'line\n'.repeat(20), isError: false }] }));
    expect(output).toBeGreaterThan(8);
  });

  it('counts a step once it has been in view long enough, and only steps of this transcript', () => {
    const t = new ReadingTracker([step(0, 'short'), step(1, 'word '.repeat(46))]);
    expect(t.tick([0, 1, 7], 1)).toBe(false);
    expect(t.tick([0, 1], 0.5)).toBe(true);
    expect(t.read()).toEqual([0]);
    for (let i = 0; i < 21; i++) t.tick([1], 0.5);
    expect(t.read()).toEqual([0, 1]);
    expect(t.share()).toBe(1);
  });
});

describe('coverage bases', () => {
  const measure = {
    totalFrames: 100,
    chapters: [
      { step: 0, fromFrame: 10, toFrame: 50 },
      { step: 1, fromFrame: 50, toFrame: 90 },
    ],
    steps: [0, 1],
  };
  const report = { ranges: [[0, 30]] as [number, number][], speeds: [], seeks: 0, transcriptSteps: [1, 1, 5] };
  it('video counts frames played, transcript the steps read, either their union', () => {
    expect(measureCoverage(report, measure, 'video')).toMatchObject({
      share: 0.3,
      videoShare: 0.3,
      transcriptShare: 0.5,
      transcriptSteps: [1],
    });
    expect(measureCoverage(report, measure, 'transcript').share).toBe(0.5);
    // played [0, 30) plus step 1's moment [50, 90): 70 of 100 frames
    expect(measureCoverage(report, measure, 'either').share).toBe(0.7);
    // a bare frame count measures the video alone: no steps to read
    expect(measureCoverage(report, 100, 'transcript')).toMatchObject({ share: 0, totalSteps: 0, transcriptSteps: [] });
  });
});
