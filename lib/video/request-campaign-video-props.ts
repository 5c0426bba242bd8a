import { env } from '../env';
import { sendJob } from '../queue/boss';
import { campaignVideoPropsJob } from '../queue/jobs/campaign-video-props';

/**
 * Queues campaign.video-props for a campaign just created (one job per campaign at a time). Called
 * after the campaign is committed: a queue that cannot take the job must not answer the lead's
 * create with an error (they would create it again), and claims derive any props not stored, so
 * the failure is logged, with the campaign, and the create answers as it happened.
 */
export async function requestCampaignVideoProps(campaignId: string): Promise<void> {
  try {
    const url = env().DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set');
    await sendJob(url, campaignVideoPropsJob, { campaignId });
  } catch (error) {
    console.error(
      `[campaigns] campaign ${campaignId}: the campaign.video-props job was not queued (claims will derive its videos' props):`,
      error instanceof Error ? error.message : error,
    );
  }
}
