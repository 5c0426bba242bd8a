import { campaignVideoPropsJob } from '../../../lib/queue/jobs/campaign-video-props';
import { prepareCampaignVideoProps } from '../../../lib/video/prepare-campaign-video-props';
import { goneIsPermanent, type JobHandler } from '../../job-handler';

/** Idempotent: the props already stored and current are skipped (a retry resumes). */
export const campaignVideoPropsHandler: JobHandler<typeof campaignVideoPropsJob> = {
  contract: campaignVideoPropsJob,
  async handle({ campaignId }, ctx) {
    return goneIsPermanent(async () => {
      const done = await prepareCampaignVideoProps(campaignId, ctx.signal);
      ctx.log(`campaign ${campaignId}: ${done.derived} trajectories' props derived, ${done.trajectories - done.derived} already stored`);
      return done;
    }, `campaign ${campaignId} does not exist`);
  },
};
