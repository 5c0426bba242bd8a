import { z } from 'zod';
import { defineJob } from '../job-contract';

/** Joins a video's rendered chunks into the final MP4 once every chunk is done. */
export const videoCombineJob = defineJob({
  name: 'video.combine',
  payload: z.object({ videoId: z.string().min(1) }).strict(),
  retry: { limit: 3, delaySeconds: 10, backoff: true, maxDelaySeconds: 300 },
  expireInSeconds: 15 * 60,
  heartbeatSeconds: 15,
  key: (p) => `video.combine:${p.videoId}`,
});
