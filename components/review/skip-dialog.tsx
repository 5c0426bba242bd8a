'use client';

import { useState } from 'react';
import { ErrorLine } from '../ui/error-line';
import { Modal } from './modal';
import { PendingButton } from '@/components/ui/pending-button';

/** Asks why the reviewer skips (the reason is kept with the assignment); Enter skips, Shift+Enter starts a new line. */
export function SkipDialog({
  pending,
  error,
  onSkip,
  onClose,
}: {
  pending: boolean;
  error: string | null;
  onSkip: (reason: string) => void;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  return (
    <Modal
      labelledBy="skip-title"
      width="max-w-md"
      onClose={onClose}
      onSubmit={(e) => {
        e.preventDefault();
        onSkip(reason);
      }}
    >
      <h2 id="skip-title" className="mb-2 text-base font-semibold">
        Skip this item
      </h2>
      <label className="block text-sm text-zinc-700">
        Why?
        <textarea
          autoFocus
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          rows={3}
          maxLength={500}
          placeholder="e.g. outside my expertise, the video is broken"
          className="mt-1 w-full rounded border border-zinc-300 px-2 py-1 text-sm"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              onClose();
            }
            // Enter skips (as the button would: only with a reason); Shift+Enter is a new line; IME composition is left alone
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              e.stopPropagation();
              if (!pending && reason.trim().length >= 3) e.currentTarget.form?.requestSubmit();
            }
          }}
        />
      </label>
      <p className="mt-1 text-xs text-zinc-500">Enter skips · Shift+Enter for a new line</p>
      <ErrorLine error={error} className="mt-1 text-sm text-red-700" />
      <div className="mt-3 flex justify-end gap-2">
        <button type="button" onClick={onClose} className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm">
          Cancel
        </button>
        <PendingButton
          pending={pending}
          disabled={pending || reason.trim().length < 3}
          label="Skip item"
          pendingLabel="Skipping…"
          className="rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-semibold text-white disabled:opacity-50"
        />
      </div>
    </Modal>
  );
}
