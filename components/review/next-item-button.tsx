'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import type { ActionResult } from '@/lib/action-result';

/** "Next item": claims the reviewer's next item of a campaign and opens it; says so when none is left. */
export function NextItemButton({
  campaignId,
  label = 'Next item',
  claim,
  primary = true,
}: {
  campaignId: string;
  label?: string;
  claim: (input: { campaignId: string }) => Promise<ActionResult<{ href: string; resumed: boolean } | { href: null; message: string }>>;
  primary?: boolean;
}) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <div className="flex flex-col items-end gap-1">
      <button
        type="button"
        disabled={pending}
        onClick={() =>
          start(async () => {
            const result = await claim({ campaignId });
            if (!result.ok) setMessage(result.error.message);
            else if (result.data.href !== null) router.push(result.data.href);
            else setMessage(result.data.message);
          })
        }
        className={
          primary
            ? 'rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 disabled:opacity-60'
            : 'rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-zinc-50 disabled:opacity-60'
        }
      >
        {pending ? 'Taking…' : label}
      </button>
      {message ? (
        <p role="status" className="text-xs text-zinc-600">
          {message}
        </p>
      ) : null}
    </div>
  );
}
