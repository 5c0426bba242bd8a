import { writeAudit } from '../auth/queries/audit';
import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { completeRunRow } from './queries/training-runs';
import { sweepTrainingLeases } from './sweep-training-leases';
import { completeTrainingRunRequest, type TrainingRunView } from './training-run-schemas';
import { leaseHeldBy, loadRunView, requireRunLead, type TrainingCaller } from './training-run-view';

/**
 * The agent completes its run: succeeded (a checkpoint must be registered: BAD_INPUT otherwise),
 * failed (`reason` becomes the failure reason; without one, the exit code) or cancelled. Exactly
 * once: a repeat of the key, or the same lease completing again with the same outcome, answers
 * the run as it is. Any other lease, or a run no longer running: 409 "lease lost". Audited.
 */
export async function completeTrainingRun(
  caller: TrainingCaller,
  runId: string,
  raw: unknown,
  now: Date = new Date(),
): Promise<TrainingRunView> {
  await requireRunLead(caller, runId);
  const input = parseInput(completeTrainingRunRequest, raw, 'body');
  await sweepTrainingLeases(now);
  await completeRunRow(
    runId,
    input.key,
    (run) => {
      if (run && run.status === input.outcome && run.leaseToken === input.leaseToken) return 'repeat';
      leaseHeldBy(runId, input.leaseToken)(run);
      if (input.outcome === 'succeeded' && !run!.checkpointName)
        throw new AppError(
          'BAD_INPUT',
          `outcome: training run ${runId} cannot succeed without a checkpoint: register it first (POST /api/v1/training-runs/${runId}/checkpoint)`,
          { details: { field: 'outcome' } },
        );
      return {
        status: input.outcome,
        ...(input.outcome === 'failed'
          ? {
              failureReason:
                input.reason ??
                (input.exitCode !== undefined ? `the command exited with code ${input.exitCode}` : 'the agent reported a failure'),
            }
          : {}),
        ...(input.evalError !== undefined ? { evalError: input.evalError } : {}),
      };
    },
    now,
    (tx, row) =>
      writeAudit(tx, {
        actorId: caller.id,
        action: 'training.run.complete',
        targetType: 'training_run',
        targetId: runId,
        projectId: row.projectId,
        data: { outcome: row.status, ...(input.exitCode !== undefined ? { exitCode: input.exitCode } : {}) },
      }),
  );
  return loadRunView(runId, { metrics: false });
}
