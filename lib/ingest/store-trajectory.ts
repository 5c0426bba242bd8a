import type { PreparedTrajectory } from './prepare-trajectory';
import { AppError } from '../errors';
import { toStorable, type BatchOutcome, type StoreOptions, type StoreResult } from './queries/storable-trajectory';
import { storeTrajectoryBatch } from './queries/store-trajectory-batch';

export type { RawSource, StoreOptions, StoreResult } from './queries/storable-trajectory';

/**
 * Stores one trajectory in one transaction: its environment, task and policy (found or created
 * by name), the trajectory, steps, judge scores, terminal recording and raw source. The same
 * content (hash) in the same project creates nothing. A failure rolls everything back and is
 * thrown (an AppError for a refused split, else the database error).
 *
 * It is the batch writer (lib/ingest/queries/store-trajectory-batch.ts) with a batch of one, so both paths store
 * exactly the same rows; imports of many trajectories use the batch writer directly.
 */
export async function storeTrajectory(projectId: string, prepared: PreparedTrajectory, options: StoreOptions): Promise<StoreResult> {
  const [outcome] = await storeTrajectoryBatch(projectId, [await toStorable(prepared, options)]);
  if (!outcome) throw new Error('not stored');
  if (!outcome.ok) throw batchFailure(outcome);
  return { id: outcome.id, created: outcome.created };
}

/** Why a trajectory of a batch was not stored: the refusal (an AppError) or the database's error. */
export function batchFailure(outcome: Extract<BatchOutcome, { ok: false }>): unknown {
  if (!('splitConflict' in outcome)) return outcome.error;
  const { taskName, split } = outcome.splitConflict;
  return new AppError(
    'CONFLICT',
    `task "${taskName}" is already in the ${split} split; moving a task between train and eval is done on the task page, not by import`,
  );
}
