import { parentPort, workerData } from 'node:worker_threads';
import { refreshCampaignSnapshots } from '../../../lib/campaigns/refresh-campaign-snapshots';
import type { SnapshotVariant } from '../../../lib/campaigns/snapshot-variant';
import { isAppError } from '../../../lib/errors';

/**
 * The snapshot computation on its own thread (handler.ts starts it): at 1M reviews it is minutes
 * of synchronous CPU, which on the worker's main thread would stall every other job's heartbeat
 * and poll. Answers { result } or { error, code }; the handler then ends the thread (and its connections).
 */
const { campaignId, variant } = workerData as { campaignId: string; variant?: SnapshotVariant };
try {
  const result = await refreshCampaignSnapshots(campaignId, variant);
  parentPort!.postMessage({ result });
} catch (error) {
  parentPort!.postMessage({ error: (error as Error).message, code: isAppError(error) ? error.code : null });
}
