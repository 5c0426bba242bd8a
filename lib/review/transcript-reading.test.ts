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
    // 300 words at 230 wpm = 78 s (issue 43 §1: no 60 s cap that let a long step count before it could be read)
    expect(readingSeconds(step(0, 'word '.repeat(300)))).toBeCloseTo(78.26, 2);
    expect(readingSeconds(step(0, 'word '.repeat(5000)))).toBe(600);
    expect(readingSeconds(step(0, 'word '.repeat(46)))).toBeCloseTo(12, 5);
    // the campaign's reading speed
    expect(readingSeconds(step(0, 'word '.repeat(46)), 115)).toBeCloseTo(24, 5);
    const prose = readingSeconds(step(0, 'so the answer is this one here'));
    const maths = readingSeconds(step(0, 'so $$\\ddot\\theta + \\frac{g}{\\ell}\\sin\\theta = 0$$ here'));
    expect(maths).toBeGreaterThan(prose);
    const output = readingSeconds(step(0, 'ran it', { observations: [{ toolName: 'sh', content: 'line\n'.repeat(20), isError: false }] }));
    expect(output).toBeGreaterThan(7); // 20 lines of output at the video's 0.35 s a line
  });

  it('counts a step once it has been read long enough, and only steps of this transcript', () => {
    const t = new ReadingTracker([step(0, 'short'), step(1, 'word '.repeat(46))]);
    expect(t.tick([0, 1, 7], 1)).toBe(false);
    expect(t.tick([0, 1], 0.5)).toBe(true);
    expect(t.read()).toEqual([0]);
    for (let i = 0; i < 23; i++) t.tick([1], 0.5);
    expect(t.read()).toEqual([0]);
    t.tick([1], 0.5);
    expect(t.read()).toEqual([0, 1]);
    expect(t.share()).toBe(1);
  });

  it('reads one step at a time (issue 43 §1): steps sharing the screen take the sum of their reading times, not the longest', () => {
    const steps = [step(0, 'word '.repeat(46)), step(1, 'word '.repeat(46)), step(2, 'word '.repeat(46))];
    const t = new ReadingTracker(steps);
    // 30 s with all three in view: before, all three counted read (12 s each, in parallel)
    for (let i = 0; i < 60; i++) t.tick([0, 1, 2], 0.5);
    expect(t.read()).toEqual([0, 1]);
    for (let i = 0; i < 12; i++) t.tick([0, 1, 2], 0.5);
    expect(t.read()).toEqual([0, 1, 2]);
    // time left over when a step is read goes on to the next one in view
    const u = new ReadingTracker(steps);
    u.tick([2, 1], 13);
    expect(u.read()).toEqual([1]);
    u.tick([2], 11);
    expect(u.read()).toEqual([1, 2]);
  });

  it('keeps the steps read before a reload', () => {
    const t = new ReadingTracker([step(0, 'a'), step(1, 'b')], { alreadyRead: [1, 9] });
    expect(t.read()).toEqual([1]);
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
