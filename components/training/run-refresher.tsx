'use client';

import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

const live = (status: string | undefined) => status === undefined || status === 'queued' || status === 'running';

/**
 * While a run is queued or running: reads GET /api/v1/training-runs/ID?metrics=0 every 2 s with
 * the session and re-renders the server page after each read (its curves, downsampled on the
 * server, the log tail and the status); it stops once the run has ended, after one last refresh.
 */
export function RunRefresher({ runId, active }: { runId: string; active: boolean }) {
  const router = useRouter();
  const { data, dataUpdatedAt } = useQuery({
    queryKey: ['training-run', runId],
    enabled: active,
    queryFn: async () => {
      const response = await fetch(`/api/v1/training-runs/${encodeURIComponent(runId)}?metrics=0`, {
        headers: { accept: 'application/json' },
      });
      return response.ok ? ((await response.json()) as { status: string }).status : 'gone';
    },
    refetchInterval: (query) => (active && live(query.state.data) ? 2000 : false),
  });
  useEffect(() => {
    if (dataUpdatedAt > 0) router.refresh();
  }, [dataUpdatedAt, router]);
  return active && live(data) ? (
    <span className="inline-flex items-center gap-1 text-xs text-sky-700" data-testid="run-live">
      <span aria-hidden className="h-2 w-2 animate-pulse rounded-full bg-sky-500" /> live
    </span>
  ) : null;
}
