import { Panel } from '@/components/trajectories/panel';
import { Badge } from '@/components/ui/badge';
import { formatDateTime } from '@/components/ui/format';
import { DataTable, right } from '@/components/ui/table';
import type { AgentReviewListItem } from '@/lib/review/list-agent-reviews';

/** The badge every agent review carries wherever reviews are listed: an agent reviewer is never a human one. */
export function AgentBadge() {
  return (
    <Badge
      className="bg-violet-50 text-violet-800 ring-violet-200"
      title="Submitted by an agent reviewer (MCP): never counted as a human review, toward overlap k, agreement or exports"
    >
      agent
    </Badge>
  );
}

/**
 * The campaign page's "Agent reviews" section (lib/review/list-agent-reviews.ts, newest first):
 * model, token, item, when, and what the agent fetched. Nothing here counts as a human review.
 * Not shown while the campaign has none.
 */
export function AgentReviewsPanel({ reviews, more }: { reviews: AgentReviewListItem[]; more: boolean }) {
  if (reviews.length === 0) return null;
  return (
    <Panel title="Agent reviews (not counted as human)" id="agent-reviews">
      <DataTable
        frame="none"
        className="-mx-4 -my-3"
        edges
        label="Agent reviews"
        testId="agent-reviews"
        columns={['Model', 'Token', 'Item', 'Submitted', right('Steps read'), right('Stills fetched')]}
      >
        {reviews.map((r) => (
          <tr key={r.id} data-testid="agent-review-row">
            <td className="px-4 py-1.5">
              <span className="inline-flex items-center gap-2">
                <AgentBadge />
                <span className="font-mono text-xs text-zinc-800">{r.model}</span>
              </span>
            </td>
            <td className="px-3 py-1.5 text-xs text-zinc-700">{r.tokenName ?? <span className="text-zinc-400">session</span>}</td>
            <td className="max-w-xs truncate px-3 py-1.5 text-zinc-900" title={r.itemId}>
              {r.task}
            </td>
            <td className="whitespace-nowrap px-3 py-1.5 text-xs text-zinc-500">{formatDateTime(r.submittedAt)}</td>
            <td className="px-3 py-1.5 text-right font-mono tabular-nums">{r.stepsRead}</td>
            <td className="px-4 py-1.5 text-right font-mono tabular-nums">{r.stillsFetched}</td>
          </tr>
        ))}
      </DataTable>
      {more ? <p className="mt-4 text-xs text-zinc-500">Showing the latest {reviews.length}.</p> : null}
    </Panel>
  );
}
