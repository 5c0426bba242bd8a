import { IntentLink } from '@/components/ui/intent-link';
import { ValueBadge } from '@/components/ui/badge';

/** Shared pieces of the lead's campaign pages (no data fetching). */

const STATUSES = {
  open: { tone: 'bg-emerald-50 text-emerald-800 ring-emerald-200' },
  closed: { tone: 'bg-zinc-100 text-zinc-600 ring-zinc-200' },
  draft: { tone: 'bg-amber-50 text-amber-800 ring-amber-200' },
};

export function StatusBadge({ status }: { status: 'draft' | 'open' | 'closed' }) {
  return <ValueBadge value={status} tones={STATUSES} />;
}

const MODES = {
  pairwise: { tone: 'bg-violet-50 text-violet-800 ring-violet-200', title: 'Two runs of the same task side by side' },
  single: { tone: 'bg-sky-50 text-sky-800 ring-sky-200', title: 'One run graded with the rubric' },
};

export function ModeBadge({ mode }: { mode: 'single' | 'pairwise' }) {
  return <ValueBadge value={mode} tones={MODES} />;
}

/** done of target as a bar with the numbers beside it. */
export function ProgressBar({ done, target, label }: { done: number; target: number; label?: string }) {
  const share = target > 0 ? Math.min(1, done / target) : 0;
  return (
    <div className="flex min-w-40 items-center gap-2" title={label ?? `${done} of ${target}`}>
      <div
        className="h-1.5 flex-1 overflow-hidden rounded-full bg-zinc-100"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={target}
        aria-valuenow={done}
        aria-label={label}
      >
        <div
          className={`h-full rounded-full ${share >= 1 ? 'bg-emerald-500' : 'bg-indigo-500'}`}
          style={{ width: `${(share * 100).toFixed(1)}%` }}
        />
      </div>
      <span className="whitespace-nowrap font-mono text-xs tabular-nums text-zinc-600">
        {done}/{target}
      </span>
    </div>
  );
}

export function NewCampaignLink() {
  return (
    <IntentLink
      href="/lead/campaigns/new"
      className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500"
    >
      New campaign
    </IntentLink>
  );
}
