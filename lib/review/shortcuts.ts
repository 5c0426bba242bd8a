/**
 * Keyboard shortcuts of the review and compare pages, as data: the pages resolve a key press
 * to an action here, and the `?` overlay lists the same table, so the two never disagree.
 */
export type ShortcutAction =
  | { kind: 'toggle-play' }
  | { kind: 'seek-seconds'; seconds: number }
  | { kind: 'step'; delta: 1 | -1 }
  | { kind: 'speed'; delta: 1 | -1 }
  /** `right`: on the compare page, the run not in the player (Shift+N) */
  | { kind: 'pin-note'; right?: boolean }
  | { kind: 'digit'; value: number }
  | { kind: 'verdict'; value: 'pass' | 'fail' }
  | { kind: 'question'; delta: 1 | -1 }
  | { kind: 'both-bad' }
  | { kind: 'switch-run' }
  | { kind: 'submit' }
  | { kind: 'skip' }
  | { kind: 'help' }
  | { kind: 'escape' };

export interface Shortcut {
  keys: string[];
  label: string;
  action: ShortcutAction;
  /** only on this page */
  page?: 'review' | 'compare';
}

export const shortcuts: Shortcut[] = [
  { keys: ['Space', 'k'], label: 'Play / pause', action: { kind: 'toggle-play' } },
  { keys: ['j'], label: 'Back 5 seconds', action: { kind: 'seek-seconds', seconds: -5 } },
  { keys: ['l'], label: 'Forward 5 seconds', action: { kind: 'seek-seconds', seconds: 5 } },
  { keys: ['['], label: 'Previous step', action: { kind: 'step', delta: -1 } },
  { keys: [']'], label: 'Next step', action: { kind: 'step', delta: 1 } },
  { keys: ['-'], label: 'Slower', action: { kind: 'speed', delta: -1 } },
  { keys: ['='], label: 'Faster', action: { kind: 'speed', delta: 1 } },
  { keys: ['n'], label: 'Pin a note to this moment', action: { kind: 'pin-note' }, page: 'review' },
  { keys: ['n'], label: 'Pin a note to this moment of the run in the player', action: { kind: 'pin-note' }, page: 'compare' },
  { keys: ['Shift+N'], label: 'Pin a note to this moment of the other run', action: { kind: 'pin-note', right: true }, page: 'compare' },
  { keys: ['1-9'], label: 'Answer the focused question (scale point, option)', action: { kind: 'digit', value: 0 }, page: 'review' },
  { keys: ['1-5'], label: 'Preference: left much better … right much better', action: { kind: 'digit', value: 0 }, page: 'compare' },
  { keys: ['b'], label: 'Both bad', action: { kind: 'both-bad' }, page: 'compare' },
  { keys: ['v'], label: 'Show the other run in the player (each keeps its place)', action: { kind: 'switch-run' }, page: 'compare' },
  { keys: ['p'], label: 'Pass the focused criterion', action: { kind: 'verdict', value: 'pass' } },
  { keys: ['f'], label: 'Fail the focused criterion', action: { kind: 'verdict', value: 'fail' } },
  { keys: ['↓'], label: 'Next question', action: { kind: 'question', delta: 1 } },
  { keys: ['↑'], label: 'Previous question', action: { kind: 'question', delta: -1 } },
  { keys: ['Ctrl+Enter'], label: 'Submit', action: { kind: 'submit' } },
  { keys: ['s'], label: 'Skip this item (asks why)', action: { kind: 'skip' } },
  { keys: ['?'], label: 'Show / hide this list', action: { kind: 'help' } },
  { keys: ['Esc'], label: 'Close, or leave a text field', action: { kind: 'escape' } },
];

export interface KeyPress {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  /** the focus is in a text field (input, textarea, select, contenteditable) */
  typing: boolean;
}

/** Is this element one where keys are text (shortcuts must not fire there)? */
export function isTypingTarget(el: { tagName?: string; isContentEditable?: boolean; type?: string } | null): boolean {
  if (!el?.tagName) return false;
  const tag = el.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable) return true;
  if (tag !== 'INPUT') return false;
  return !['checkbox', 'radio', 'button', 'submit', 'range', 'reset'].includes((el.type ?? 'text').toLowerCase());
}

/**
 * The action for a key press, or null. While typing only Ctrl/Cmd+Enter (submit) and Escape
 * (leave the field) act; every other key is text. Other modifier combinations belong to the
 * browser.
 */
export function resolveShortcut(press: KeyPress): ShortcutAction | null {
  const mod = Boolean(press.ctrlKey || press.metaKey);
  if (mod && press.key === 'Enter') return { kind: 'submit' };
  if (press.key === 'Escape') return { kind: 'escape' };
  if (press.typing || mod || press.altKey) return null;
  switch (press.key) {
    case ' ':
    case 'k':
      return { kind: 'toggle-play' };
    case 'j':
      return { kind: 'seek-seconds', seconds: -5 };
    case 'l':
      return { kind: 'seek-seconds', seconds: 5 };
    case '[':
      return { kind: 'step', delta: -1 };
    case ']':
      return { kind: 'step', delta: 1 };
    case '-':
    case '_':
      return { kind: 'speed', delta: -1 };
    case '=':
    case '+':
      return { kind: 'speed', delta: 1 };
    case 'n':
      return { kind: 'pin-note' };
    case 'N':
      return { kind: 'pin-note', right: true };
    case 'p':
      return { kind: 'verdict', value: 'pass' };
    case 'f':
      return { kind: 'verdict', value: 'fail' };
    case 'b':
      return { kind: 'both-bad' };
    case 'v':
      return { kind: 'switch-run' };
    case 'ArrowDown':
      return { kind: 'question', delta: 1 };
    case 'ArrowUp':
      return { kind: 'question', delta: -1 };
    case 's':
      return { kind: 'skip' };
    case '?':
      return { kind: 'help' };
    default:
      return /^[1-9]$/.test(press.key) ? { kind: 'digit', value: Number(press.key) } : null;
  }
}

export const PLAYBACK_SPEEDS = [0.5, 1, 1.5, 2, 3, 4] as const;

/** The next playback speed up or down the ladder (stays at the ends). */
export function nextSpeed(current: number, delta: 1 | -1): number {
  const i = PLAYBACK_SPEEDS.findIndex((s) => s >= current);
  const at = i === -1 ? PLAYBACK_SPEEDS.length - 1 : i;
  return PLAYBACK_SPEEDS[Math.max(0, Math.min(PLAYBACK_SPEEDS.length - 1, at + delta))]!;
}

/** Compare page: key 1..5 -> preference -2..2 (screen terms: 1 = left much better). */
export function preferenceForDigit(digit: number): number | null {
  return digit >= 1 && digit <= 5 ? digit - 3 : null;
}
