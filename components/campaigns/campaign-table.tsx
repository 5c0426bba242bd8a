import { IntentLink } from '@/components/ui/intent-link';
import type { CampaignListRow } from '@/lib/campaigns/queries/campaign-list';
import { formatDateTime } from '@/components/ui/format';
import { ModeBadge, ProgressBar, StatusBadge } from './campaign-bits';
import { DataTable, right } from '@/components/ui/table';

/** The lead's campaigns: name (links to the detail page), project, mode, status, items, reviews done of items × k, created. */
export function CampaignTable({ rows }: { rows: CampaignListRow[] }) {
  return (
    <DataTable edges columns={['Campaign', 'Project', 'Mode', 'Status', right('Items'), right('k'), 'Reviews done', 'Created']}>
      {rows.map((c) => (
        <tr key={c.id} className="group hover:bg-indigo-50/40" data-testid="campaign-row">
          <td className="max-w-sm px-4 py-2">
            <IntentLink
              href={`/lead/campaigns/${c.id}`}
              className="block truncate font-medium text-zinc-900 group-hover:text-indigo-700 hover:underline"
              title={c.name}
            >
              {c.name}
            </IntentLink>
            <span className="text-xs text-zinc-500">
              {c.rubric.name} v{c.rubric.version}
              {c.requiredExpertise.length ? ` · needs ${c.requiredExpertise.join(', ')}` : ''}
            </span>
          </td>
          <td className="max-w-48 truncate px-3 py-2 text-zinc-600" title={c.project.name}>
            <span className="font-mono text-xs">{c.project.slug}</span>
          </td>
          <td className="px-3 py-2">
            <ModeBadge mode={c.mode} />
          </td>
          <td className="px-3 py-2">
            <StatusBadge status={c.status} />
          </td>
          <td className="px-3 py-2 text-right font-mono text-xs tabular-nums text-zinc-700">{c.items}</td>
          <td className="px-3 py-2 text-right font-mono text-xs tabular-nums text-zinc-700">{c.overlap}</td>
          <td className="px-3 py-2">
            <ProgressBar
              done={c.reviewsDone}
              target={c.reviewsTarget}
              label={`${c.reviewsDone} of ${c.reviewsTarget} reviews (${c.itemsComplete} of ${c.items} items complete)`}
            />
          </td>
          <td className="whitespace-nowrap px-4 py-2 text-xs text-zinc-500">{formatDateTime(c.createdAt)}</td>
        </tr>
      ))}
    </DataTable>
  );
}
