import { trainingDeliverJob } from '../queue/jobs/training-deliver';
import { sendJob } from '../queue/boss';

/** Queues a delivery run for one sink now (after an admin retry, enable, or "deliver now"); a no-op while one is queued. */
export async function kickDelivery(databaseUrl: string, sinkId: string): Promise<void> {
  await sendJob(databaseUrl, trainingDeliverJob, { sinkId, reason: 'manual' });
}
