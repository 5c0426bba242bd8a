'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import type { ActionResult } from '@/lib/action-result';

const button =
  'rounded-md border border-zinc-300 bg-white px-2.5 py-1 text-xs font-medium text-zinc-700 shadow-sm hover:bg-zinc-50 disabled:opacity-60';

/** A button that runs a server action, refreshes the page when it succeeds and says why when it fails. */
function ActionButton({
  label,
  pendingLabel = label,
  className = button,
  act,
}: {
  label: string;
  pendingLabel?: string;
  className?: string;
  act: () => Promise<ActionResult<unknown>>;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const run = () =>
    start(async () => {
      setError(null);
      const result = await act();
      if (!result.ok) setError(result.error.message);
      else router.refresh();
    });
  return (
    <span className="inline-flex items-center gap-2">
      <button type="button" className={className} disabled={pending} onClick={run}>
        {pending ? pendingLabel : label}
      </button>
      {error ? (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </span>
  );
}

export function SinkToggle({
  sinkId,
  enabled,
  save,
}: {
  sinkId: string;
  enabled: boolean;
  save: (input: unknown) => Promise<ActionResult<unknown>>;
}) {
  return <ActionButton label={enabled ? 'Disable' : 'Enable'} act={() => save({ sinkId, enabled: !enabled })} />;
}

export function DeliverNowButton({ sinkId, deliver }: { sinkId: string; deliver: (input: unknown) => Promise<ActionResult<unknown>> }) {
  return <ActionButton label="Deliver now" pendingLabel="Queuing…" act={() => deliver({ sinkId })} />;
}

export function RetryDeliveryButton({
  deliveryId,
  retry,
}: {
  deliveryId: string;
  retry: (input: unknown) => Promise<ActionResult<unknown>>;
}) {
  return (
    <ActionButton
      label="Retry"
      pendingLabel="Retrying…"
      className="rounded-md bg-indigo-600 px-2.5 py-1 text-xs font-semibold text-white shadow-sm hover:bg-indigo-500 disabled:opacity-60"
      act={() => retry({ deliveryId })}
    />
  );
}
