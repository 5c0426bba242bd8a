'use client';

import { useEffect, useLayoutEffect, useRef } from 'react';
import { isTypingTarget, resolveShortcut, type ShortcutAction } from '@/lib/review/shortcuts';

/** The actions each page handles itself; submit, skip, help and Esc work the same on both. */
export type PageShortcut = Exclude<ShortcutAction, { kind: 'submit' | 'skip' | 'help' | 'escape' }>;

export interface ReviewShortcuts {
  /** the skip dialog and the shortcut list are open */
  skipping: boolean;
  help: boolean;
  setSkipping: (open: boolean) => void;
  setHelp: (update: (open: boolean) => boolean) => void;
  submit: () => void;
  /** the page's own actions; returns whether it handled the key */
  handle: (action: PageShortcut) => boolean;
}

/**
 * The one window key listener of the review and compare pages: resolves a key press with
 * lib/review/shortcuts.ts (never while typing, but Esc and Ctrl+Enter), ignores all but Esc while
 * the skip dialog is open, and hands the page's own actions to `handle`. Bound once; it always
 * calls the latest callbacks.
 */
export function useReviewShortcuts(options: ReviewShortcuts): void {
  const latest = useRef(options);
  useLayoutEffect(() => {
    latest.current = options;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const o = latest.current;
      const typing = isTypingTarget(e.target as HTMLElement | null);
      const action = resolveShortcut({ key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, typing });
      if (!action || (o.skipping && action.kind !== 'escape')) return;
      let handled = true;
      switch (action.kind) {
        case 'submit':
          o.submit();
          break;
        case 'skip':
          o.setSkipping(true);
          break;
        case 'help':
          o.setHelp((h) => !h);
          break;
        case 'escape':
          if (o.help) o.setHelp(() => false);
          else if (o.skipping) o.setSkipping(false);
          else if (typing) (e.target as HTMLElement).blur();
          else handled = false;
          break;
        default:
          handled = o.handle(action);
      }
      if (handled) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
