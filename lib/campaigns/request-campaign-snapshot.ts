import { env } from '../env';
import { sendJob } from '../queue/boss';
import { campaignSnapshotJob } from '../queue/jobs/campaign-snapshot';
import type { SnapshotVariant } from './snapshot-variant';

/**
 * A refresh starts no sooner than this many times the stored snapshot's own computation after it
 * was built: at 1M reviews one takes minutes of CPU, so reviews streaming in keep it at most a
 * tenth of a core busy; a small campaign's (milliseconds) refreshes at once.
 */
export const REFRESH_COST_FACTOR = 10;
const MAX_DELAY_S = 15 * 60;

/** Seconds to wait before refreshing a snapshot built at `builtAt` that took `computeMs` (0: none stored). */
export function refreshDelaySeconds(stored: { builtAt: Date; computeMs: number } | null, now: Date): number {
  if (!stored) return 0;
  const due = stored.builtAt.getTime() + REFRESH_COST_FACTOR * stored.computeMs;
  return Math.min(MAX_DELAY_S, Math.max(0, Math.ceil((due - now.getTime()) / 1000)));
}

/**
 * Queues campaign.snapshot for a campaign (its default snapshots, or `variant`), throttled as
 * above. A send while one with the same key is queued is a no-op (stately queue): the debounce.
 */
export async function requestCampaignSnapshot(
  campaignId: string,
  variant: SnapshotVariant | undefined,
  stored: { builtAt: Date; computeMs: number } | null,
  now: Date,
): Promise<void> {
  const url = env().DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: the snapshot job cannot be queued');
  const delay = refreshDelaySeconds(stored, now);
  await sendJob(url, campaignSnapshotJob, { campaignId, ...(variant ? { variant } : {}) }, delay ? { startAfterSeconds: delay } : {});
}
