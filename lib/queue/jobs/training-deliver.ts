import { z } from 'zod';
import { defineJob } from '../job-contract';

/**
 * Delivers new labels to one training sink (with `sinkId`), or, every minute without one, queues
 * a delivery job for every enabled sink. One job per sink at a time (key per sink, stately queue),
 * so batches of a sink leave in order. Delivery retries (backoff, dead letter) live on the
 * Delivery row, not in pg-boss: a job that must wait for a retry queues its successor with
 * `startAfter` and ends; pg-boss retries only a crashed job (heartbeat lost).
 */
export const trainingDeliverJob = defineJob({
  name: 'training.deliver',
  payload: z
    .object({
      sinkId: z.string().min(1).optional(),
      reason: z.enum(['schedule', 'retry', 'manual']).default('schedule'),
    })
    .strict(),
  retry: { limit: 5, delaySeconds: 1, backoff: true, maxDelaySeconds: 120 },
  expireInSeconds: 30 * 60,
  heartbeatSeconds: 10,
  key: (p) => (p.sinkId ? `training.deliver:${p.sinkId}` : 'training.deliver'),
  cron: '* * * * *',
});
