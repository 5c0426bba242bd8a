import { z } from 'zod';
import { defineJob } from '../job-contract';

/** Deletes expired sign-in sessions. Runs hourly; the payload names the hour so keys are deterministic. */
export const sessionsPruneJob = defineJob({
  name: 'sessions.prune',
  payload: z.object({ reason: z.enum(['schedule', 'manual']).default('schedule') }).strict(),
  retry: { limit: 3, delaySeconds: 30, backoff: true, maxDelaySeconds: 600 },
  expireInSeconds: 300,
  key: () => 'sessions.prune',
  cron: '17 * * * *',
});
