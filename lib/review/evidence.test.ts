import { describe, expect, it } from 'vitest';
import { checkEvidence, evidenceNote, hasVisibleText } from './evidence';

const note = (e: Partial<{ frame: number; stepIndex: number | null; note: string; side: 'a' | 'b' }> = {}) => ({
  frame: 0,
  stepIndex: 0,
  note: 'here',
  wrongStep: false,
  ...e,
});

describe('evidence notes', () => {
  it('has visible text only when something is left without white space and format characters (Unicode Cf)', () => {
    for (const blank of ['', ' \n\t', '\u200b', '\u200c\u200d\u2060\ufeff', '\u200e\u200f\u202a\u202c', '\u00ad\u061c'])
      expect(hasVisibleText(blank)).toBe(false);
    for (const text of ['a', '\u200bx', '∑', '😀', '\u200d1']) expect(hasVisibleText(text)).toBe(true);
    expect(evidenceNote.safeParse(note({ note: '\u200b\u200b' })).success).toBe(false);
    expect(evidenceNote.safeParse(note({ note: ' ok ' })).data?.note).toBe('ok');
  });

  it('passes notes inside the video and the trajectory, the last frame and the last step included', () => {
    expect(() => checkEvidence([note({ frame: 99, stepIndex: 2 }), note({ stepIndex: null })], [{ frames: 100, steps: 3 }])).not.toThrow();
    expect(() =>
      checkEvidence(
        [note({ frame: 39, side: 'b' }), note({ frame: 99, side: 'a' })],
        [
          { frames: 100, steps: 3 },
          { frames: 40, steps: 1 },
        ],
      ),
    ).not.toThrow();
  });

  it('names the first note out of bounds and what is wrong with it', () => {
    const one = [{ frames: 4320, steps: 12 }] as const;
    expect(() => checkEvidence([note(), note(), note({ frame: 1e15 })], one)).toThrow(
      "evidence.2.frame: 1,000,000,000,000,000 is past the video's last frame 4,319",
    );
    expect(() => checkEvidence([note({ stepIndex: 12 })], one)).toThrow(
      'evidence.0.stepIndex: 12 is past the last step: the trajectory has 12 (indexes 0 to 11)',
    );
    expect(() => checkEvidence([note({ side: 'a' })], one)).toThrow(
      'evidence.0.side: "a": a single-item review has one video; side is only for comparisons',
    );
    expect(() => checkEvidence([note({ frame: 5 })], [{ frames: 0, steps: 1 }])).toThrow('evidence.0.frame: 5: the video has no frames');
    const two = [
      { frames: 100, steps: 3 },
      { frames: 40, steps: 5 },
    ] as const;
    expect(() => checkEvidence([note({ frame: 60 })], two)).toThrow("evidence.0.frame: 60 is past the right video's last frame 39");
    expect(() => checkEvidence([note({ stepIndex: 4, side: 'a' })], two)).toThrow(
      'evidence.0.stepIndex: 4 is past the last step: the left run has 3 (indexes 0 to 2)',
    );
  });
});
