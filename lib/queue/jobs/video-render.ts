import { z } from 'zod';
import { defineJob } from '../job-contract';

/** Renders a trajectory's proof-of-work video (whole, or by fanning out chunks for long ones). */
export const videoRenderJob = defineJob({
  name: 'video.render',
  payload: z.object({ videoId: z.string().min(1) }).strict(),
  retry: { limit: 2, delaySeconds: 10, backoff: true, maxDelaySeconds: 300 },
  expireInSeconds: 60 * 60,
  heartbeatSeconds: 15,
  key: (p) => `video.render:${p.videoId}`,
});
