import { labelClock } from './queries/campaign-snapshots';

/** How many label rows a campaign's reviews and comparisons have moved (its label clock): the snapshot job sizes its work by it. */
export async function countCampaignLabels(campaignId: string): Promise<number> {
  return (await labelClock(campaignId)).labelChanges;
}
