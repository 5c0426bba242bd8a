import { env } from '../env';
import { sendJob } from '../queue/boss';
import { campaignVideoPropsJob } from '../queue/jobs/campaign-video-props';

/** Queues campaign.video-props for a new campaign (one job per campaign at a time). */
export async function requestCampaignVideoProps(campaignId: string): Promise<void> {
  const url = env().DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: the campaign.video-props job cannot be queued');
  await sendJob(url, campaignVideoPropsJob, { campaignId });
}
