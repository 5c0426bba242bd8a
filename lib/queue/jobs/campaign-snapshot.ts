import { z } from 'zod';
import { defineJob } from '../job-contract';
import { snapshotVariantSchema, variantKey } from '../../campaigns/snapshot-variant';

/**
 * Builds a campaign's stored snapshots (lib/campaigns/refresh-campaign-snapshots.ts): with
 * `campaignId` alone its default ones (agreement dashboard, disagreement queue, review plan),
 * with `variant` that one; without `campaignId` (every minute) it queues a refresh for every
 * campaign whose labels moved past its default snapshots. One job per key at a time (stately
 * queue), so reviews arriving while one is queued add nothing: the refresh is debounced by the
 * queue and throttled by the sender (lib/campaigns/request-campaign-snapshot.ts). Idempotent: a
 * snapshot already at the campaign's label clock is left alone. No heartbeat: the computation is
 * synchronous CPU for minutes at 1M reviews, which would starve one.
 */
export const campaignSnapshotJob = defineJob({
  name: 'campaign.snapshot',
  payload: z
    .object({
      campaignId: z.string().min(1).optional(),
      variant: snapshotVariantSchema.optional(),
    })
    .strict()
    .refine((p) => p.campaignId !== undefined || p.variant === undefined, { message: 'a variant needs its campaignId' }),
  retry: { limit: 2, delaySeconds: 30, backoff: true, maxDelaySeconds: 600 },
  expireInSeconds: 30 * 60,
  key: (p) =>
    p.campaignId
      ? `campaign.snapshot:${p.campaignId}${p.variant ? `:${p.variant.kind}:${variantKey(p.variant)}` : ''}`
      : 'campaign.snapshot',
  cron: '* * * * *',
  // two at once per worker: a page's request need not wait behind one large campaign's minute
  concurrency: 2,
});
