import { describe, expect, it } from 'vitest';
import { isTypingTarget, nextSpeed, preferenceForDigit, resolveShortcut, shortcuts } from './shortcuts';
import { coverageShortfall, WatchTracker } from './watch-tracker';

describe('review shortcuts', () => {
  it('maps keys to actions', () => {
    expect(resolveShortcut({ key: ' ', typing: false })).toEqual({ kind: 'toggle-play' });
    expect(resolveShortcut({ key: ']', typing: false })).toEqual({ kind: 'step', delta: 1 });
    expect(resolveShortcut({ key: '4', typing: false })).toEqual({ kind: 'digit', value: 4 });
    expect(resolveShortcut({ key: 'p', typing: false })).toEqual({ kind: 'verdict', value: 'pass' });
    expect(resolveShortcut({ key: 'n', typing: false })).toEqual({ kind: 'pin-note' });
    expect(resolveShortcut({ key: '?', typing: false })).toEqual({ kind: 'help' });
    expect(resolveShortcut({ key: 'v', typing: false })).toEqual({ kind: 'switch-run' });
    expect(resolveShortcut({ key: 'Enter', ctrlKey: true, typing: false })).toEqual({ kind: 'submit' });
    expect(resolveShortcut({ key: 'x', typing: false })).toBeNull();
  });

  it('never fires while typing, except submit and escape', () => {
    for (const key of [' ', 'k', 'n', 'p', 'f', 'v', '1', 's', '?', 'ArrowDown']) expect(resolveShortcut({ key, typing: true })).toBeNull();
    expect(resolveShortcut({ key: 'Enter', metaKey: true, typing: true })).toEqual({ kind: 'submit' });
    expect(resolveShortcut({ key: 'Escape', typing: true })).toEqual({ kind: 'escape' });
    // browser combinations stay the browser's
    expect(resolveShortcut({ key: 'k', ctrlKey: true, typing: false })).toBeNull();
  });

  it('knows which elements take text', () => {
    expect(isTypingTarget({ tagName: 'TEXTAREA' })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'number' })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'radio' })).toBe(false);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(isTypingTarget({ tagName: 'BUTTON' })).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });

  it('walks the speed ladder and maps preference digits', () => {
    expect(nextSpeed(1, 1)).toBe(1.5);
    expect(nextSpeed(4, 1)).toBe(4);
    expect(nextSpeed(0.5, -1)).toBe(0.5);
    expect([1, 2, 3, 4, 5].map(preferenceForDigit)).toEqual([-2, -1, 0, 1, 2]);
    expect(preferenceForDigit(6)).toBeNull();
  });

  it('lists every resolvable action in the overlay table', () => {
    const kinds = new Set(shortcuts.map((s) => s.action.kind));
    for (const key of [' ', 'j', ']', '-', 'n', '3', 'b', 'v', 'p', 'ArrowDown', 's', '?', 'Escape'])
      expect(kinds.has(resolveShortcut({ key, typing: false })!.kind)).toBe(true);
  });
});

describe('watch tracker', () => {
  it('merges played stretches, counts seeks and speeds, and says how much is missing', () => {
    const t = new WatchTracker(100);
    t.played(0, 10, 1);
    t.played(9, 30, 2);
    t.seeked();
    t.played(50, 60, 2);
    t.played(70, 70, 1);
    expect(t.report()).toEqual({
      ranges: [
        [0, 30],
        [50, 60],
      ],
      speeds: [1, 2],
      seeks: 1,
      // the page adds the steps read in the transcript (transcript-reading.ts)
      transcriptSteps: [],
    });
    expect(t.share()).toBeCloseTo(0.4);
    expect(coverageShortfall(t.share(), 0.5)).toBe(10);
    expect(coverageShortfall(t.share(), 0.4)).toBeNull();
    expect(coverageShortfall(0.999, 1)).toBe(1);
    t.played(90, 500, 1);
    expect(t.share()).toBeCloseTo(0.5);
  });
});
