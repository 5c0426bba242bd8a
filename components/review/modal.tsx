'use client';

import type { FormEvent, ReactNode } from 'react';

/**
 * The review pages' modal: a dimmed backdrop that closes it on a click, and the dialog card
 * (clicks inside stay inside), titled by the element `labelledBy` names. With `onSubmit` the
 * card is the form.
 */
export function Modal({
  labelledBy,
  width,
  onClose,
  onSubmit,
  children,
}: {
  labelledBy: string;
  /** the card's max-width class */
  width: 'max-w-md' | 'max-w-lg';
  onClose: () => void;
  onSubmit?: (e: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  const card = {
    role: 'dialog',
    'aria-modal': true,
    'aria-labelledby': labelledBy,
    className: `w-full ${width} rounded-xl bg-white p-5 shadow-xl`,
    onClick: (e: { stopPropagation: () => void }) => e.stopPropagation(),
  };
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-zinc-900/40 p-4" onClick={onClose}>
      {onSubmit ? (
        <form {...card} onSubmit={onSubmit}>
          {children}
        </form>
      ) : (
        <div {...card}>{children}</div>
      )}
    </div>
  );
}
