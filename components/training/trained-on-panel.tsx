import type { RunOfReview } from '@/lib/training/list-runs-for-review';
import { IntentLink } from '@/components/ui/intent-link';
import { RunStatusBadge } from './run-status-badge';

/**
 * The training runs that trained on an item's reviews (lineage from the review side): each run,
 * its checkpoint, and whose reviews it took; a review revised after the run froze it is marked stale.
 */
export function TrainedOnPanel({ runs, reviewerNames }: { runs: RunOfReview[]; reviewerNames: Record<string, string> }) {
  return (
    <ul className="space-y-2 text-sm" data-testid="trained-on">
      {runs.map((run) => (
        <li key={run.id} data-testid="trained-on-run">
          <div className="flex flex-wrap items-center gap-2">
            <IntentLink href={`/training/runs/${run.id}`} className="font-medium text-indigo-700 hover:underline">
              {run.checkpointName ?? `run ${run.id.slice(0, 8)}`}
            </IntentLink>
            <RunStatusBadge status={run.status} />
            <span className="font-mono text-xs text-zinc-500">{run.recipe}</span>
            {run.stale ? (
              <span
                className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-inset ring-amber-600/20"
                data-testid="stale-on-run"
                title="revised after this run froze its labels: it trained on the earlier revision"
              >
                {run.stale} stale
              </span>
            ) : null}
          </div>
          <p className="text-xs text-zinc-500">
            from {run.basePolicy} · on{' '}
            {run.reviews.map((r, i) => (
              <span key={r.reviewId} className={r.stale ? 'text-amber-800' : undefined}>
                {i > 0 ? ', ' : ''}
                {reviewerNames[r.reviewerId] ?? 'a reviewer'}
                {r.stale ? ' (revised since)' : ''}
              </span>
            ))}
          </p>
        </li>
      ))}
    </ul>
  );
}
