'use client';

import { useEffect, useRef, useState } from 'react';
import type { EvidenceNote } from '@/lib/review/evidence';
import { frameClock, stepNumber } from '../ui/format';
import { DeferredRichText } from '../ui/deferred-text';

export interface PendingPin {
  frame: number;
  stepIndex: number | null;
  side?: 'a' | 'b';
}

/**
 * Time-anchored evidence: the pinned notes (click one to seek there) and, while pinning, the
 * note editor for the moment that was pinned (Enter saves, Esc cancels).
 */
export function EvidenceNotes({
  notes,
  pending,
  fps,
  sideLabels,
  onSave,
  onCancel,
  onSeek,
  onRemove,
}: {
  notes: EvidenceNote[];
  pending: PendingPin | null;
  fps: number;
  /** pairwise: how the sides are named on screen */
  sideLabels?: { a: string; b: string };
  onSave: (note: EvidenceNote) => void;
  onCancel: () => void;
  onSeek: (note: EvidenceNote) => void;
  onRemove: (index: number) => void;
}) {
  const [text, setText] = useState('');
  const [wrongStep, setWrongStep] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // a new pin starts an empty note (state adjusted while rendering, React's pattern for a prop change)
  const [pinned, setPinned] = useState(pending);
  if (pinned !== pending) {
    setPinned(pending);
    if (pending) {
      setText('');
      setWrongStep(false);
    }
  }
  useEffect(() => {
    if (pending) input.current?.focus();
  }, [pending]);

  const save = () => {
    if (!pending || text.trim() === '') return;
    onSave({
      frame: pending.frame,
      stepIndex: pending.stepIndex,
      note: text.trim(),
      wrongStep,
      ...(pending.side ? { side: pending.side } : {}),
    });
  };

  return (
    <section aria-labelledby="evidence-title" className="rounded-lg border border-zinc-200 bg-white p-3">
      <div className="mb-2 flex items-baseline justify-between">
        <h2 id="evidence-title" className="text-xs font-semibold uppercase tracking-wide text-zinc-500">
          Evidence notes ({notes.length})
        </h2>
        <span className="text-[11px] text-zinc-400">
          press <kbd className="rounded border border-zinc-300 px-1 font-mono">n</kbd> to pin one to this moment
        </span>
      </div>
      {pending ? (
        <div className="mb-2 rounded-md border border-indigo-200 bg-indigo-50 p-2">
          <p className="mb-1 text-xs text-indigo-900">
            Note at {frameClock(pending.frame, fps)}
            {pending.stepIndex !== null ? ` · step #${stepNumber(pending.stepIndex)}` : ''}
            {pending.side && sideLabels ? ` · ${sideLabels[pending.side]}` : ''}
          </p>
          <div className="flex gap-2">
            <input
              ref={input}
              aria-label="Evidence note"
              value={text}
              maxLength={2000}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.ctrlKey && !e.metaKey) {
                  e.preventDefault();
                  save();
                } else if (e.key === 'Escape') {
                  e.preventDefault();
                  e.stopPropagation();
                  onCancel();
                }
              }}
              placeholder="What do you see here?"
              className="min-w-0 flex-1 rounded border border-zinc-300 px-2 py-1 text-sm"
            />
            <button
              type="button"
              onClick={save}
              disabled={text.trim() === ''}
              className="rounded-md bg-indigo-600 px-2 py-1 text-xs font-semibold text-white disabled:opacity-50"
            >
              Pin
            </button>
            <button type="button" onClick={onCancel} className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-xs">
              Cancel
            </button>
          </div>
          <label className="mt-1 flex items-center gap-1 text-xs text-zinc-700">
            <input type="checkbox" checked={wrongStep} onChange={(e) => setWrongStep(e.target.checked)} /> this step is wrong
          </label>
        </div>
      ) : null}
      {notes.length === 0 && !pending ? <p className="text-xs text-zinc-500">No notes yet.</p> : null}
      <ul className="space-y-1" data-testid="evidence-list">
        {notes.map((n, i) => (
          <li key={`${n.frame}-${i}`} className="group flex items-start gap-2 text-sm">
            <button
              type="button"
              onClick={() => onSeek(n)}
              className="flex min-w-0 flex-1 items-baseline gap-2 rounded px-1 py-0.5 text-left hover:bg-zinc-100"
              title="Seek to this moment"
            >
              <span className="font-mono text-xs text-indigo-700">{frameClock(n.frame, fps)}</span>
              {n.stepIndex !== null ? <span className="font-mono text-xs text-zinc-400">#{stepNumber(n.stepIndex)}</span> : null}
              {n.side && sideLabels ? <span className="text-xs text-zinc-500">{sideLabels[n.side]}</span> : null}
              <DeferredRichText text={n.note} inline className="min-w-0 flex-1 break-words text-zinc-800" />
              {n.wrongStep ? <span className="rounded bg-red-50 px-1 text-[10px] font-medium text-red-700">wrong step</span> : null}
            </button>
            <button
              type="button"
              onClick={() => onRemove(i)}
              aria-label={`Remove note ${i + 1}`}
              className="px-1 text-xs text-zinc-400 hover:text-red-700"
            >
              ×
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
