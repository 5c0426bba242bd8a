import { AppError } from '../errors';
import { labelEventsAfter, type LabelEventRow } from './queries/label-events';

/**
 * The training stream's events of a project after `afterSeq` (exclusive), in seq order, at most
 * `limit`: a gap-free prefix (lib/review/queries/label-events.ts). UNAVAILABLE when writers held
 * the stream longer than `lockTimeoutMs` (the caller tries again later).
 */
export async function readLabelEvents(
  projectId: string,
  afterSeq: bigint | null,
  limit: number,
  lockTimeoutMs = 5000,
): Promise<LabelEventRow[]> {
  const events = await labelEventsAfter(projectId, afterSeq, limit, lockTimeoutMs);
  if (events === null)
    throw new AppError('UNAVAILABLE', `Label events of project ${projectId} are being written by a long transaction; try again shortly`);
  return events;
}
