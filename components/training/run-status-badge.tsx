import { ValueBadge } from '@/components/ui/badge';

type Status = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

const tones: Record<Status, { tone: string; title?: string }> = {
  queued: { tone: 'bg-zinc-100 text-zinc-700 ring-zinc-200', title: 'waiting for a trainer agent to claim it' },
  running: { tone: 'bg-sky-50 text-sky-800 ring-sky-200', title: 'a trainer agent holds its lease' },
  succeeded: { tone: 'bg-emerald-50 text-emerald-800 ring-emerald-200' },
  failed: { tone: 'bg-rose-50 text-rose-800 ring-rose-200' },
  cancelled: { tone: 'bg-amber-50 text-amber-800 ring-amber-200' },
};

/** A training run's status as a badge (an unknown status reads as queued's tone). */
export function RunStatusBadge({ status }: { status: string }) {
  const value = (status in tones ? status : 'queued') as Status;
  return (
    <span data-testid="run-status" data-status={status}>
      <ValueBadge value={value} tones={tones} />
    </span>
  );
}
