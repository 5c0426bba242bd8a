import { describe, expect, it } from 'vitest';
import { admitProgress, attentionOf, earnedOf, formatSeconds, minimumSeconds, withEarned } from './attention';
import { coverageSummary, measureCoverage, type CoverageMeasure } from './coverage';

/* Issue 43 §1: the server checks coverage it can check, against the clock. */

// three steps of 12 s reading each at 230 wpm (46 words), a 900-frame (30 s at 30 fps) video
const measure: CoverageMeasure = {
  totalFrames: 900,
  chapters: [
    { step: 0, fromFrame: 0, toFrame: 300 },
    { step: 1, fromFrame: 300, toFrame: 600 },
    { step: 2, fromFrame: 600, toFrame: 900 },
  ],
  steps: [0, 1, 2],
  reading: [
    [46, 0],
    [46, 0],
    [46, 0],
  ],
};
const report = (ranges: [number, number][], steps: number[]) => ({ ranges, speeds: [1], seeks: 0, transcriptSteps: steps });
const opts = (elapsedSeconds: number, wpm = 230) => ({ wpm, fps: 30, elapsedSeconds, now: '2026-12-07T00:00:00.000Z' });

describe('admitProgress', () => {
  it('keeps what the time since the last save could hold, in transcript order, and drops the rest', () => {
    // 20 s (+5 s slack) hold two steps of 12 s, not three
    const a = admitProgress(null, report([], [2, 0, 1]), measure, opts(20));
    expect(a.run.transcriptSteps).toEqual([0, 1]);
    expect(a.droppedSteps).toBe(1);
    // the next save 10 s later adds the third
    const b = admitProgress(a.run, report([], [0, 1, 2]), measure, opts(10));
    expect(b.run.transcriptSteps).toEqual([0, 1, 2]);
    expect(b.droppedSteps).toBe(0);
    // a slower campaign reading speed needs more time: 46 words at 115 wpm = 24 s
    expect(admitProgress(null, report([], [0]), measure, opts(15, 115)).run.transcriptSteps).toEqual([]);
  });

  it('charges the clock only what a save used, so a step half read when a save left still fits a later one', () => {
    // steps read one after another from the claim: 0 in [0, 12] s, 1 in [12, 24], 2 in [24, 36]
    const at = (s: number) => new Date(Date.UTC(2026, 11, 7) + s * 1000).toISOString();
    const save = (prev: Parameters<typeof admitProgress>[0], steps: number[], nowS: number) =>
      admitProgress(prev, report([], steps), measure, {
        wpm: 230,
        fps: 30,
        elapsedSeconds: nowS - (prev?.savedAt ? (Date.parse(prev.savedAt) - Date.parse(at(0))) / 1000 : 0),
        now: at(nowS),
      });
    const a = save(null, [0], 20);
    expect(a.run.transcriptSteps).toEqual([0]);
    expect(a.run.savedAt).toBe(at(12)); // charged 12 s: the 8 s spent on step 1 are kept
    const b = save(a.run, [0, 1], 34);
    expect(b.run.savedAt).toBe(at(24));
    const c = save(b.run, [0, 1, 2], 40);
    expect(c.run.transcriptSteps).toEqual([0, 1, 2]);
    expect(c.droppedSteps).toBe(0);
    // had the second save charged up to its own time (34 s), 6 s + 5 s slack would not hold step 2's 12 s
    expect(admitProgress(b.run, report([], [0, 1, 2]), measure, opts(6)).droppedSteps).toBe(1);
    // slack is never banked: a save that used more than the time passed is charged up to now, no further
    const d = admitProgress(null, report([], [0]), measure, opts(8));
    expect(d.run.transcriptSteps).toEqual([0]);
    expect(d.run.savedAt).toBe('2026-12-07T00:00:00.000Z');
    // watching is charged too: 600 frames at 2x take 10 s of the 15 s
    expect(admitProgress(null, report([[0, 600]], []), measure, opts(15)).run.savedAt).toBe('2026-12-06T23:59:55.000Z');
  });

  it('keeps new frames only if playing them at 2x fits in the time', () => {
    const fits = admitProgress(null, report([[0, 600]], []), measure, opts(6)); // 600 frames at 60 fps (2x) = 10 s <= 6 + 5
    expect(fits.run.ranges).toEqual([[0, 600]]);
    const tooMany = admitProgress(fits.run, report([[0, 900]], []), measure, opts(0)); // 300 more frames in 0 s (+5 slack = 300 frames) fits exactly
    expect(tooMany.run.ranges).toEqual([[0, 900]]);
    const liar = admitProgress(null, report([[0, 900]], []), measure, opts(1)); // 900 frames in 1 s (+5): 360 allowed
    expect(liar.run.ranges).toEqual([]);
    expect(liar.droppedFrames).toBe(900);
  });

  it('ignores steps the trajectory does not have, and reads malformed stored progress as nothing', () => {
    expect(admitProgress(null, report([], [7]), measure, opts(100)).run.transcriptSteps).toEqual([]);
    expect(earnedOf({ t: 'nonsense' }, 't')).toBeNull();
    expect(earnedOf(null, 't')).toBeNull();
    expect(earnedOf({ t: { ranges: [[0, 5]], transcriptSteps: [1] } }, 't')).toMatchObject({ ranges: [[0, 5]], transcriptSteps: [1] });
  });
});

describe('the submit clock check', () => {
  it('a review that reports everything read 5 s after the claim is too fast; the same after a minute is not', () => {
    const c = measureCoverage(report([], [0, 1, 2]), measure, 'transcript');
    expect(minimumSeconds(c, measure, 230, 30)).toBeCloseTo(36, 5);
    expect(attentionOf([{ coverage: c, measure }], 230, 30, 5)).toEqual({ elapsedSeconds: 5, minimumSeconds: 36, tooFast: true });
    expect(attentionOf([{ coverage: c, measure }], 230, 30, 60).tooFast).toBe(false);
  });

  it('watching counts at 2x; reading and watching may overlap (the longer one is the minimum); a comparison reads both transcripts', () => {
    const watched = measureCoverage(report([[0, 900]], []), measure, 'video');
    expect(minimumSeconds(watched, measure, 230, 30)).toBe(15);
    const both = measureCoverage(report([[0, 900]], [0]), measure, 'either');
    expect(minimumSeconds(both, measure, 230, 30)).toBe(15);
    const read = measureCoverage(report([], [0, 1]), measure, 'transcript');
    expect(
      attentionOf(
        [
          { coverage: read, measure },
          { coverage: read, measure },
        ],
        230,
        30,
        40,
      ).minimumSeconds,
    ).toBe(48);
  });

  it('a submit counts what the server kept before a reload', () => {
    const merged = withEarned(report([[600, 900]], [2]), {
      ranges: [[0, 300]],
      transcriptSteps: [0],
      speeds: [1.5],
      seeks: 2,
      savedAt: null,
    });
    expect(merged.transcriptSteps.sort()).toEqual([0, 2]);
    expect(measureCoverage(merged, measure, 'video').ranges).toEqual([
      [0, 300],
      [600, 900],
    ]);
  });

  it('the lead reads how a review was covered (one run or a comparison)', () => {
    const c = {
      ...measureCoverage(report([[0, 450]], [0, 1]), measure, 'either'),
      attention: { elapsedSeconds: 8, minimumSeconds: 24, tooFast: true },
    };
    expect(coverageSummary(c)).toEqual({ watched: 0.5, read: { steps: 2, of: 3 }, elapsedSeconds: 8, minimumSeconds: 24, tooFast: true });
    expect(coverageSummary({ a: c, b: { ...c, videoShare: 1 }, attention: c.attention })).toMatchObject({
      watched: 0.75,
      read: { steps: 4, of: 6 },
    });
    expect(coverageSummary('garbage')).toEqual({ watched: null, read: null, elapsedSeconds: null, minimumSeconds: null, tooFast: false });
  });
});

describe('formatSeconds', () => {
  it('rounds first: never "1 min 60 s"', () => {
    expect(formatSeconds(41.4)).toBe('41 s');
    expect(formatSeconds(119.6)).toBe('2 min 0 s');
    expect(formatSeconds(125)).toBe('2 min 5 s');
  });
});
