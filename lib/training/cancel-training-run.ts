import { writeAudit } from '../auth/queries/audit';
import { AppError } from '../errors';
import { cancelRunRow } from './queries/training-runs';
import type { TrainingRunView } from './training-run-schemas';
import { loadRunView, requireRunLead, type TrainingCaller } from './training-run-view';

/**
 * A lead cancels a run: a queued one is cancelled at once; a running one is marked
 * cancelRequested (its agent's next heartbeat says so: it stops the command, runs its
 * --cancel-command and completes the run as cancelled; a lease that expires meanwhile ends it
 * cancelled). Again on a cancelled (or cancelling) run: the run as it is. A finished run: CONFLICT.
 */
export async function cancelTrainingRun(caller: TrainingCaller, runId: string, now: Date = new Date()): Promise<TrainingRunView> {
  await requireRunLead(caller, runId);
  await cancelRunRow(
    runId,
    (status, requested) => {
      if (status === 'queued') return 'cancel';
      if (status === 'running') return requested ? 'none' : 'request';
      if (status === 'cancelled') return 'none';
      throw new AppError('CONFLICT', `training run ${runId} already ${status}: there is nothing to cancel`, { details: { status } });
    },
    now,
    (tx, row) =>
      writeAudit(tx, {
        actorId: caller.id,
        action: 'training.run.cancel',
        targetType: 'training_run',
        targetId: runId,
        projectId: row.projectId,
        data: { at: row.action === 'cancel' ? 'queued' : 'running' },
      }),
  );
  return loadRunView(runId, { metrics: false });
}
