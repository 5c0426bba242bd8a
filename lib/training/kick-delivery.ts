import { trainingDeliverJob } from '../queue/jobs/training-deliver';
import { sendJob } from '../queue/boss';
import { enabledSinkIds } from './queries/training-sinks';

/** Queues a delivery run for one sink now (after an admin retry, enable, or "deliver now"); a no-op while one is queued. */
export async function kickDelivery(databaseUrl: string, sinkId: string): Promise<void> {
  await sendJob(databaseUrl, trainingDeliverJob, { sinkId, reason: 'manual' });
}

/** The schedule's tick: queues one delivery run per enabled sink; returns how many. */
export async function kickEnabledSinks(databaseUrl: string): Promise<number> {
  const ids = await enabledSinkIds();
  for (const id of ids) await sendJob(databaseUrl, trainingDeliverJob, { sinkId: id, reason: 'schedule' });
  return ids.length;
}
