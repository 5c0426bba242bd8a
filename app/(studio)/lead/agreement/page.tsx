import { IntentLink } from '@/components/ui/intent-link';
import { inert } from '@/lib/rich-text/inert-text';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { viewAgreementCampaigns } from '@/lib/agreement/view-agreement-campaigns';
import { requirePageUser } from '../../../_server/current-user';
import { DataTable, right } from '@/components/ui/table';

export const metadata = { title: 'Agreement' };

/** Pick a campaign to see its agreement, audit and disagreement queue. */
export default async function AgreementPicker() {
  const user = await requirePageUser('lead');
  const campaigns = await viewAgreementCampaigns(user);
  return (
    <>
      <PageHeader
        title="Agreement"
        description="How far the labels can be trusted: pick a campaign to see agreement with intervals, the measurement audit and the disagreements to settle."
      />
      {campaigns.length === 0 ? (
        <EmptyState title="No campaigns yet">
          Create a review campaign with an overlap of two or more reviewers per item; its agreement shows here once reviews come in.
        </EmptyState>
      ) : (
        <DataTable
          testId="agreement-campaigns"
          edges
          columns={['Campaign', 'Project', 'Mode', 'Status', right('Reviewed'), right('Adjudicated'), '']}
        >
          {campaigns.map((c) => (
            <tr key={c.id} className="group hover:bg-indigo-50/40">
              <td className="px-4 py-2">
                <IntentLink
                  href={`/lead/campaigns/${c.id}/agreement`}
                  className="font-medium text-zinc-900 group-hover:text-indigo-700 hover:underline"
                >
                  {inert(c.name)}
                </IntentLink>
              </td>
              <td className="px-3 py-2 text-zinc-600">{inert(c.projectName)}</td>
              <td className="px-3 py-2 text-zinc-600">{c.mode}</td>
              <td className="px-3 py-2 text-zinc-600">{c.status}</td>
              <td className="px-3 py-2 text-right tabular-nums">
                {c.reviewed} / {c.items}
              </td>
              <td className="px-3 py-2 text-right tabular-nums">{c.adjudicated}</td>
              <td className="px-4 py-2 text-right text-xs">
                <IntentLink href={`/lead/campaigns/${c.id}/adjudication`} className="text-indigo-700 hover:underline">
                  Disagreements
                </IntentLink>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}
