'use client';

import type { ComponentProps } from 'react';
import type { TrajectoryPlayer } from '../video/trajectory-player';
import { DeferredPlayer } from '../video/deferred-player';
import { ShortcutOverlay } from './shortcut-overlay';
import { SkipDialog } from './skip-dialog';
import { REVIEW_SPEEDS, type AssignmentFlow } from './use-assignment-flow';

/** Pieces the review and compare pages share (no data fetching). */

/**
 * A run's player on the review pages: its own keys off (the page's one handler has them), it
 * stays on the closing card at the end, compact, at the review speeds, without a chapter list
 * (the transcript beside it lists the steps, each one plays from there). Its code loads once the
 * page is interactive, a poster of its size in its place until then (components/video/deferred-player.tsx).
 */
export function ReviewPlayer(
  props: Omit<ComponentProps<typeof TrajectoryPlayer>, 'keyboard' | 'rewindAtEnd' | 'compact' | 'speeds' | 'chapterList'>,
) {
  return <DeferredPlayer {...props} keyboard={false} rewindAtEnd={false} compact speeds={REVIEW_SPEEDS} chapterList={false} />;
}

/** The `?` button that opens the shortcut list. */
export function ShortcutsButton({ flow }: { flow: AssignmentFlow }) {
  return (
    <button type="button" onClick={() => flow.dialogs.setHelp(true)} className="text-xs text-zinc-500 hover:text-zinc-900">
      <kbd className="rounded border border-zinc-300 px-1 font-mono">?</kbd> shortcuts
    </button>
  );
}

/** The shortcut list and the skip dialog, while open. */
export function WorkspaceDialogs({ flow, page }: { flow: AssignmentFlow; page: 'review' | 'compare' }) {
  const { help, skipping, setHelp, setSkipping } = flow.dialogs;
  return (
    <>
      {help ? <ShortcutOverlay page={page} onClose={() => setHelp(false)} /> : null}
      {skipping ? <SkipDialog pending={flow.pending} error={flow.error} onSkip={flow.skip} onClose={() => setSkipping(false)} /> : null}
    </>
  );
}
