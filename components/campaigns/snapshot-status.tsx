'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { formatDateTime } from '@/components/ui/format';
import { formatCount } from '@/lib/video/text';

/**
 * What a stored snapshot (lib/campaigns/read-campaign-snapshot.ts) the page shows is as of:
 * "As of N reviews, <time>"; stale: how many label changes came since, while it is refreshed;
 * computing: none yet. Until it is current the page refreshes itself (every 2 s for 20 s, then slower, up to 30 s).
 * A block span, not a p: pages put it inside their header's description (a p in a p is a hydration error, React #418).
 */
export function SnapshotStatus({
  state,
  count,
  noun,
  builtAt,
  newer,
  testId = 'snapshot-status',
}: {
  state: 'computing' | 'current' | 'stale';
  /** what it covers, e.g. 1,000 reviews: the count and its noun, singular and plural */
  count: number | null;
  noun: readonly [string, string];
  builtAt: string | null;
  newer: number;
  testId?: string;
}) {
  const router = useRouter();
  useEffect(() => {
    if (state === 'current') return;
    let delay = 2000;
    let ticks = 0;
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      router.refresh();
      if (++ticks >= 10) delay = Math.min(30_000, delay * 1.5);
      timer = setTimeout(tick, delay);
    };
    timer = setTimeout(tick, delay);
    return () => clearTimeout(timer);
  }, [state, router]);
  if (state === 'computing')
    return (
      <span className="block text-xs text-zinc-500" role="status" data-testid={testId} data-state={state}>
        <span className="mr-1 inline-block size-2 animate-pulse rounded-full bg-indigo-400" aria-hidden />
        Computing… this page fills in when it is ready.
      </span>
    );
  return (
    <span className="block text-xs text-zinc-500" data-testid={testId} data-state={state}>
      As of {count === null ? '' : formatCount(count)} {count === 1 ? noun[0] : noun[1]}, {builtAt ? formatDateTime(builtAt) : ''}
      {state === 'stale' ? (
        <span className="ml-2 rounded-full bg-amber-50 px-2 py-0.5 font-medium text-amber-800 ring-1 ring-inset ring-amber-600/20">
          {formatCount(newer)} newer {newer === 1 ? 'change' : 'changes'}: refreshing
        </span>
      ) : null}
    </span>
  );
}
