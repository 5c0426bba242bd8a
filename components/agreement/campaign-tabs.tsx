import { IntentLink } from '@/components/ui/intent-link';

/** Tabs between a campaign's agreement dashboard and its adjudication queue. */
export function CampaignTabs({
  campaignId,
  current,
  disagreements,
}: {
  campaignId: string;
  current: 'agreement' | 'adjudication';
  disagreements?: number;
}) {
  const tab = (name: 'agreement' | 'adjudication', label: string) => (
    <IntentLink
      href={`/lead/campaigns/${campaignId}/${name}`}
      aria-current={current === name ? 'page' : undefined}
      className={`-mb-px border-b-2 px-3 py-2 text-sm ${current === name ? 'border-indigo-600 font-medium text-indigo-700' : 'border-transparent text-zinc-600 hover:border-zinc-300 hover:text-zinc-900'}`}
    >
      {label}
    </IntentLink>
  );
  return (
    <nav aria-label="Campaign views" className="mb-6 flex gap-1 border-b border-zinc-200">
      {tab('agreement', 'Agreement')}
      {tab('adjudication', disagreements === undefined ? 'Adjudication' : `Adjudication (${disagreements})`)}
    </nav>
  );
}
