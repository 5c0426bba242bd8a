'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition, type ReactNode } from 'react';
import type { ActionResult } from '@/lib/action-result';
import { FormError } from './label-scope-fields';
import { PendingButton } from '@/components/ui/pending-button';

/**
 * The frame the dataset export and training sink forms share: their fields in a grid, the submit
 * row with its note, what the last request answered, and its refusal; `useLabelScopeAction`
 * runs the form's server action and refreshes the page when it succeeds.
 */
export function useLabelScopeAction<T>(onDone: (data: T) => void) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const run = (call: () => Promise<ActionResult<T>>) => {
    setError(null);
    start(async () => {
      const result = await call();
      if (!result.ok) setError(result.error.message);
      else {
        onDone(result.data);
        router.refresh();
      }
    });
  };
  return { error, pending, run };
}

export function LabelScopeForm({
  label,
  submit,
  fields,
  pending,
  submitLabel,
  pendingLabel,
  note,
  error,
  children,
}: {
  label: string;
  submit: (form: FormData) => void;
  fields: ReactNode;
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  note: string;
  error: string | null;
  /** what the last request answered, above its refusal */
  children?: ReactNode;
}) {
  return (
    <form action={submit} className="rounded-xl border border-zinc-200 bg-white p-5 shadow-sm" aria-label={label}>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">{fields}</div>
      <div className="mt-4 flex items-center gap-3">
        <PendingButton
          pending={pending}
          label={submitLabel}
          pendingLabel={pendingLabel}
          className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 disabled:opacity-60"
        />
        <span className="text-xs text-zinc-500">{note}</span>
      </div>
      {children}
      <FormError error={error} />
    </form>
  );
}
