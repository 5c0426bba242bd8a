import { refreshCampaignSnapshots } from '../../../lib/campaigns/refresh-campaign-snapshots';
import { sweepCampaignSnapshots } from '../../../lib/campaigns/sweep-campaign-snapshots';
import { isAppError } from '../../../lib/errors';
import { campaignSnapshotJob } from '../../../lib/queue/jobs/campaign-snapshot';
import { PermanentJobError, type JobHandler } from '../../job-handler';

/**
 * Without a campaign: the sweep (queues the campaigns whose labels moved). With one: builds its
 * snapshots (lib/campaigns/refresh-campaign-snapshots.ts; idempotent, a snapshot already at the
 * label clock is left alone). A campaign that is gone is not retried.
 */
export const campaignSnapshotHandler: JobHandler<typeof campaignSnapshotJob> = {
  contract: campaignSnapshotJob,
  async handle({ campaignId, variant }, ctx) {
    if (!campaignId) {
      const queued = await sweepCampaignSnapshots(ctx.now());
      if (queued.length) ctx.log(`queued ${queued.length} campaign snapshot refreshes`);
      return { queued: queued.length };
    }
    try {
      const t0 = performance.now();
      const result = await refreshCampaignSnapshots(campaignId, variant, ctx.now);
      if (result.written.length) ctx.log(`${campaignId}: ${result.written.join(', ')} in ${Math.round(performance.now() - t0)} ms`);
      return result;
    } catch (error) {
      if (isAppError(error) && error.code === 'NOT_FOUND') throw new PermanentJobError(`campaign ${campaignId} does not exist`);
      throw error;
    }
  },
};
