'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import type { ActionResult } from '@/lib/action-result';

const button =
  'rounded-md border border-zinc-300 bg-white px-2.5 py-1 text-xs font-medium text-zinc-700 shadow-sm hover:bg-zinc-50 disabled:opacity-60';

function useAction() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const run = (fn: () => Promise<ActionResult<unknown>>) =>
    start(async () => {
      setError(null);
      const result = await fn();
      if (!result.ok) setError(result.error.message);
      else router.refresh();
    });
  return { error, pending, run };
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
  const { error, pending, run } = useAction();
  return (
    <span className="inline-flex items-center gap-2">
      <button type="button" className={button} disabled={pending} onClick={() => run(() => save({ sinkId, enabled: !enabled }))}>
        {enabled ? 'Disable' : 'Enable'}
      </button>
      {error ? (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </span>
  );
}

export function DeliverNowButton({ sinkId, deliver }: { sinkId: string; deliver: (input: unknown) => Promise<ActionResult<unknown>> }) {
  const { error, pending, run } = useAction();
  return (
    <span className="inline-flex items-center gap-2">
      <button type="button" className={button} disabled={pending} onClick={() => run(() => deliver({ sinkId }))}>
        {pending ? 'Queuing…' : 'Deliver now'}
      </button>
      {error ? (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </span>
  );
}

export function RetryDeliveryButton({
  deliveryId,
  retry,
}: {
  deliveryId: string;
  retry: (input: unknown) => Promise<ActionResult<unknown>>;
}) {
  const { error, pending, run } = useAction();
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        className="rounded-md bg-indigo-600 px-2.5 py-1 text-xs font-semibold text-white shadow-sm hover:bg-indigo-500 disabled:opacity-60"
        disabled={pending}
        onClick={() => run(() => retry({ deliveryId }))}
      >
        {pending ? 'Retrying…' : 'Retry'}
      </button>
      {error ? (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </span>
  );
}
