import { z } from 'zod';
import { pacingSchema } from '../../video/pacing';
import { defineJob } from '../job-contract';

/**
 * Derives and stores a trajectory's video props (the lead's open view, at a pacing) when a page
 * finds them missing or stale: a long run takes seconds to minutes of CPU, which belongs on a
 * worker, not in the web process answering the page.
 */
export const videoPropsJob = defineJob({
  name: 'video.props',
  payload: z.object({ trajectoryId: z.string().min(1), pacing: pacingSchema }).strict(),
  retry: { limit: 2, delaySeconds: 5, backoff: true, maxDelaySeconds: 120 },
  expireInSeconds: 30 * 60,
  key: (p) => `video.props:${p.trajectoryId}:${p.pacing}`,
});
