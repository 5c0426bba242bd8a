import { env } from '../../../lib/env';
import { sendJob } from '../../../lib/queue/boss';
import { deliverSink } from '../../../lib/training/deliver-sink';
import { kickEnabledSinks } from '../../../lib/training/kick-delivery';
import type { JobHandler } from '../../job-handler';
import { trainingDeliverJob } from '../../../lib/queue/jobs/training-deliver';

/**
 * Without a sinkId (the cron tick): queues one job per enabled sink. With one: runs the sink's
 * delivery loop until it is caught up, waiting for a retry (then queues itself for that time),
 * dead, or disabled. Idempotent by construction: every step re-reads the Delivery rows.
 */
export const trainingDeliverHandler: JobHandler<typeof trainingDeliverJob> = {
  contract: trainingDeliverJob,
  async handle({ sinkId }, ctx) {
    const databaseUrl = env().DATABASE_URL!;
    if (!sinkId) {
      return { queued: await kickEnabledSinks(databaseUrl) };
    }
    const outcome = await deliverSink(sinkId, { signal: ctx.signal, log: ctx.log, now: ctx.now });
    if (outcome.state === 'waiting' && outcome.retryAt) {
      const seconds = Math.max(1, Math.ceil((outcome.retryAt.getTime() - Date.now()) / 1000));
      await sendJob(databaseUrl, trainingDeliverJob, { sinkId, reason: 'retry' }, { startAfterSeconds: seconds });
    }
    return {
      state: outcome.state,
      delivered: outcome.delivered,
      rows: outcome.rows,
      ...(outcome.lastError ? { lastError: outcome.lastError } : {}),
    };
  },
};
