import { findSnapshot, labelClock, sameClock, type StoredSnapshot } from './queries/campaign-snapshots';
import { refreshCampaignSnapshots } from './refresh-campaign-snapshots';
import { requestCampaignSnapshot } from './request-campaign-snapshot';
import { variantKey, type SnapshotVariant } from './snapshot-variant';

/**
 * What a page shows of a stored snapshot: `computing` (none yet: the job is queued), `current`
 * (built at the campaign's label clock) or `stale` (labels or adjudications moved since: shown
 * with a marker while the job, queued here, refreshes it). `newer`: label rows and adjudications
 * since it was built.
 */
export interface SnapshotView<P> {
  state: 'computing' | 'current' | 'stale';
  snapshot: StoredSnapshot<P> | null;
  newer: number;
}

/**
 * A campaign with at most this many label rows has its snapshot built by the page that finds it
 * missing or stale (the same use-case the job runs: tens of milliseconds), so a small campaign
 * never shows "computing"; a larger one queues the job.
 */
export const BUILD_IN_PAGE_MAX_LABELS = 2000;

export async function readCampaignSnapshot<P>(
  campaignId: string,
  variant: SnapshotVariant,
  now: Date,
  options: { buildInPageMaxLabels?: number } = {},
): Promise<SnapshotView<P>> {
  const key = variantKey(variant);
  const [snapshot, clock] = await Promise.all([findSnapshot<P>(campaignId, variant.kind, key), labelClock(campaignId)]);
  if (snapshot && sameClock(snapshot, clock)) return { state: 'current', snapshot, newer: 0 };
  // the default variants are the ones a sweep also refreshes; any other is refreshed because someone looks at it
  const isDefault = key === '';
  if (clock.labelChanges <= (options.buildInPageMaxLabels ?? BUILD_IN_PAGE_MAX_LABELS)) {
    await refreshCampaignSnapshots(campaignId, isDefault ? undefined : variant);
    const built = await findSnapshot<P>(campaignId, variant.kind, key);
    if (built) return { state: sameClock(built, await labelClock(campaignId)) ? 'current' : 'stale', snapshot: built, newer: 0 };
  }
  await requestCampaignSnapshot(campaignId, isDefault ? undefined : variant, snapshot, now);
  if (!snapshot) return { state: 'computing', snapshot: null, newer: 0 };
  const newer = Math.max(0, clock.labelChanges - snapshot.labelChanges) + Math.max(0, clock.adjudications - snapshot.adjudications);
  return { state: 'stale', snapshot, newer: Math.max(1, newer) };
}
