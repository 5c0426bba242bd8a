import { campaignsWithStaleSnapshots } from './queries/campaign-snapshots';
import { requestCampaignSnapshot } from './request-campaign-snapshot';

/**
 * The every-minute sweep: queues a refresh of the default snapshots of every campaign whose
 * labels moved past them (or that has labels and none yet), each throttled by what its stored
 * snapshots cost to build. Answers the campaigns queued.
 */
export async function sweepCampaignSnapshots(now: Date): Promise<string[]> {
  const [agreement, disagreements, plan] = await Promise.all([
    campaignsWithStaleSnapshots('agreement', ['single', 'pairwise']),
    campaignsWithStaleSnapshots('disagreements', ['single', 'pairwise']),
    campaignsWithStaleSnapshots('plan', ['single']),
  ]);
  // per campaign, the costliest stored snapshot sets the pace
  const stale = new Map<string, { builtAt: Date; computeMs: number } | null>();
  for (const s of [...agreement, ...disagreements, ...plan]) {
    const stored = s.builtAt && s.computeMs !== null ? { builtAt: s.builtAt, computeMs: s.computeMs } : null;
    const seen = stale.get(s.campaignId);
    if (seen === undefined || (stored && (!seen || stored.computeMs > seen.computeMs))) stale.set(s.campaignId, stored ?? seen ?? null);
  }
  for (const [campaignId, stored] of stale) await requestCampaignSnapshot(campaignId, undefined, stored, now);
  return [...stale.keys()];
}
