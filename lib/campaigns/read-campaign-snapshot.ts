import { findSnapshot, labelClock, sameClock, type StoredSnapshot } from '../db/campaigns/campaign-snapshots';
import { requestCampaignSnapshot } from './request-campaign-snapshot';
import { variantKey, type SnapshotVariant } from './snapshot-variant';

/**
 * What a page shows of a stored snapshot: `computing` (none yet: the job is queued), `current`
 * (built at the campaign's label clock) or `stale` (labels or adjudications moved since: shown
 * with a marker while the job, queued here, refreshes it). `newer`: label rows and adjudications
 * since it was built. `isDefault`: the variant the campaign's own reviews refresh (others refresh
 * when viewed).
 */
export interface SnapshotView<P> {
  state: 'computing' | 'current' | 'stale';
  snapshot: StoredSnapshot<P> | null;
  newer: number;
}

export async function readCampaignSnapshot<P>(campaignId: string, variant: SnapshotVariant, now: Date): Promise<SnapshotView<P>> {
  const [snapshot, clock] = await Promise.all([findSnapshot<P>(campaignId, variant.kind, variantKey(variant)), labelClock(campaignId)]);
  if (snapshot && sameClock(snapshot, clock)) return { state: 'current', snapshot, newer: 0 };
  // the default variants are the ones a sweep also refreshes; any other is refreshed because someone looks at it
  const isDefault = variantKey(variant) === '';
  await requestCampaignSnapshot(campaignId, isDefault ? undefined : variant, snapshot, now);
  if (!snapshot) return { state: 'computing', snapshot: null, newer: 0 };
  const newer = Math.max(0, clock.labelChanges - snapshot.labelChanges) + Math.max(0, clock.adjudications - snapshot.adjudications);
  return { state: 'stale', snapshot, newer: Math.max(1, newer) };
}
