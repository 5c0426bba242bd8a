import { z } from 'zod';
import { defineJob } from '../job-contract';

/** Renders one frame range of a long video; any worker may take any chunk. */
export const videoRenderChunkJob = defineJob({
  name: 'video.render-chunk',
  payload: z.object({ videoId: z.string().min(1), index: z.number().int().nonnegative() }).strict(),
  retry: { limit: 2, delaySeconds: 10, backoff: true, maxDelaySeconds: 300 },
  expireInSeconds: 30 * 60,
  heartbeatSeconds: 15,
  key: (p) => `video.render-chunk:${p.videoId}:${p.index}`,
});
