import { AppError } from '../errors';
import { kickDelivery } from './kick-delivery';
import { findDeliveryStatus, requeueDeadDelivery } from './queries/training-sinks';

/**
 * An admin's retry of a dead delivery: pending again with a fresh attempt budget, same body and
 * key, and with `databaseUrl` its sink's delivery run queued (the sink resumes). NOT_FOUND for no
 * such delivery, CONFLICT for one that is not dead.
 */
export async function retryDeadDelivery(deliveryId: string, options: { databaseUrl?: string } = {}): Promise<{ sinkId: string }> {
  const row = await findDeliveryStatus(deliveryId);
  if (!row) throw new AppError('NOT_FOUND', `No delivery ${deliveryId}`);
  if (row.status !== 'dead')
    throw new AppError('CONFLICT', `Delivery ${deliveryId} is ${row.status}, not dead: only dead deliveries are retried by hand`);
  await requeueDeadDelivery(deliveryId);
  if (options.databaseUrl) await kickDelivery(options.databaseUrl, row.sinkId);
  return { sinkId: row.sinkId };
}
