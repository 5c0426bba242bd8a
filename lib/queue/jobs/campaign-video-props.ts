import { z } from 'zod';
import { defineJob } from '../job-contract';

/**
 * Derives and stores the blind video props of every selected item of a campaign, under its
 * pacing and blind mask (lib/video/prepare-campaign-video-props.ts), queued when the
 * campaign is created. A claim then reads its item's props from video_props instead of deriving
 * them while the reviewer waits (a claim derives on a miss: before this job has reached the item).
 * Idempotent: props stored and current are skipped.
 */
export const campaignVideoPropsJob = defineJob({
  name: 'campaign.video-props',
  payload: z.object({ campaignId: z.string().min(1) }).strict(),
  retry: { limit: 2, delaySeconds: 30, backoff: true, maxDelaySeconds: 600 },
  // 100k items at ~5 ms each is minutes; a retry resumes where the stored rows stop
  expireInSeconds: 2 * 60 * 60,
  key: (p) => `campaign.video-props:${p.campaignId}`,
});
