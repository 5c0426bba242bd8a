'use client';

import { shortcuts } from '@/lib/review/shortcuts';
import { Modal } from './modal';

/** The `?` overlay: every shortcut of this page (the same table the key handler resolves). */
export function ShortcutOverlay({ page, onClose }: { page: 'review' | 'compare'; onClose: () => void }) {
  const list = shortcuts.filter((s) => !s.page || s.page === page);
  return (
    <Modal labelledBy="shortcuts-title" width="max-w-lg" onClose={onClose}>
      <div className="mb-3 flex items-center justify-between">
        <h2 id="shortcuts-title" className="text-base font-semibold">
          Keyboard shortcuts
        </h2>
        <button type="button" onClick={onClose} className="rounded px-2 py-1 text-sm text-zinc-500 hover:bg-zinc-100">
          Close
        </button>
      </div>
      <p className="mb-3 text-xs text-zinc-500">They do nothing while you type in a text field (except Ctrl+Enter and Esc).</p>
      <dl className="grid grid-cols-[9rem_1fr] gap-x-4 gap-y-1.5 text-sm">
        {list.map((s) => (
          <div key={s.label} className="contents">
            <dt className="flex flex-wrap gap-1">
              {s.keys.map((k) => (
                <kbd
                  key={k}
                  className="whitespace-nowrap rounded border border-zinc-300 bg-zinc-50 px-1.5 py-0.5 font-mono text-xs text-zinc-800"
                >
                  {k}
                </kbd>
              ))}
            </dt>
            <dd className="text-zinc-700">{s.label}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}
