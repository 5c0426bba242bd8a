import { AppError } from '../errors';
import { kickDelivery } from './kick-delivery';
import { updateSinkEnabled } from './queries/training-sinks';

/** Turns a sink on or off (NOT_FOUND when there is none); turned on, with `databaseUrl`, its delivery run is queued at once. */
export async function setTrainingSinkEnabled(sinkId: string, enabled: boolean, options: { databaseUrl?: string } = {}): Promise<void> {
  if (!(await updateSinkEnabled(sinkId, enabled))) throw new AppError('NOT_FOUND', `No sink ${sinkId}`);
  if (enabled && options.databaseUrl) await kickDelivery(options.databaseUrl, sinkId);
}
