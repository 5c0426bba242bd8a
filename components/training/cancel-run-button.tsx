'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import type { ActionResult } from '@/lib/action-result';
import { PendingButton } from '@/components/ui/pending-button';

/** Cancels a queued run at once, or asks a running run's agent to stop (it is told on its next heartbeat). */
export function CancelRunButton({
  runId,
  cancel,
}: {
  runId: string;
  cancel: (input: unknown) => Promise<ActionResult<{ status: string; cancelRequested: boolean }>>;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, begin] = useTransition();
  return (
    <form
      action={() =>
        begin(async () => {
          setError(null);
          const result = await cancel({ runId });
          if (!result.ok) setError(result.error.message);
          else router.refresh();
        })
      }
      className="flex items-center gap-2"
    >
      <PendingButton
        pending={pending}
        label="Cancel run"
        pendingLabel="Cancelling…"
        className="rounded-md border border-rose-300 bg-white px-3 py-1.5 text-sm font-medium text-rose-700 hover:bg-rose-50 disabled:opacity-60"
      />
      {error ? (
        <span role="alert" className="text-xs text-rose-700">
          {error}
        </span>
      ) : null}
    </form>
  );
}
