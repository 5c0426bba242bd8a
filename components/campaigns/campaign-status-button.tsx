'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import type { ActionResult } from '@/lib/action-result';
import { ErrorLine } from '@/components/ui/error-line';

/** Opens or closes a campaign; closing asks first (reviewers can no longer submit or revise). */
export function CampaignStatusButton({
  id,
  status,
  setStatus,
}: {
  id: string;
  status: 'draft' | 'open' | 'closed';
  setStatus: (input: unknown) => Promise<ActionResult<{ status: string }>>;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const next = status === 'open' ? 'closed' : 'open';
  return (
    <div className="flex items-center gap-2">
      <ErrorLine error={error} className="text-xs text-rose-700" />
      <button
        type="button"
        disabled={pending}
        onClick={() => {
          if (
            next === 'closed' &&
            !window.confirm('Close this campaign? Reviewers can no longer claim, submit or revise reviews until you reopen it.')
          )
            return;
          setError(null);
          start(async () => {
            const result = await setStatus({ id, status: next });
            if (!result.ok) setError(result.error.message);
            else router.refresh();
          });
        }}
        className={
          next === 'closed'
            ? 'rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-700 shadow-sm hover:bg-zinc-50 disabled:opacity-50'
            : 'rounded-md bg-emerald-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-emerald-500 disabled:opacity-50'
        }
      >
        {pending ? 'Saving…' : next === 'closed' ? 'Close campaign' : status === 'draft' ? 'Open campaign' : 'Reopen campaign'}
      </button>
    </div>
  );
}
