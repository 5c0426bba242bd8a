import { writeAudit } from '../auth/queries/audit';
import { env } from '../env';
import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { findTrainingRun, registerCheckpointRow } from './queries/training-runs';
import { requestCanaryCheck } from './request-canary-check';
import { sweepTrainingLeases } from './sweep-training-leases';
import { registerCheckpointRequest } from './training-run-schemas';
import { leaseHeldBy, requireRunLead, type TrainingCaller } from './training-run-view';

/**
 * The agent registers the run's checkpoint (once per key): a policy `name` (default
 * `<base>+<first 8 chars of the run id>`) whose parent is the base policy, with the base's model
 * and the checkpoint URI, produced by this run; then asks for the canary check of it (a blind
 * campaign new vs parent once eval trajectories of both exist). The run stays running (its eval
 * command may follow). A name another run's checkpoint holds (or the base's own): CONFLICT.
 */
export async function registerCheckpoint(
  caller: TrainingCaller,
  runId: string,
  raw: unknown,
  now: Date = new Date(),
): Promise<{ checkpoint: { name: string; uri: string; policyId: string } }> {
  await requireRunLead(caller, runId);
  const input = parseInput(registerCheckpointRequest, raw, 'body');
  await sweepTrainingLeases(now);
  const outcome = await registerCheckpointRow(
    runId,
    input.key,
    leaseHeldBy(runId, input.leaseToken),
    { name: (run) => input.name ?? `${run.basePolicy}+${run.id.slice(0, 8)}`, uri: input.uri },
    (tx, row) =>
      writeAudit(tx, {
        actorId: caller.id,
        action: 'training.run.checkpoint',
        targetType: 'training_run',
        targetId: runId,
        projectId: row.projectId,
        data: { policyId: row.policyId, name: row.name, uri: input.uri },
      }),
  );
  if ('conflict' in outcome) throw new AppError('CONFLICT', outcome.conflict, { details: { field: 'name' } });
  if (!outcome.duplicate) await requestCanaryCheck(env().DATABASE_URL!, outcome.projectId, [outcome.policyId]);
  const run = await findTrainingRun(runId);
  if (!run?.checkpoint) throw new AppError('NOT_FOUND', `training run ${runId} has no checkpoint`);
  return { checkpoint: { name: run.checkpoint.name, uri: run.checkpointUri ?? input.uri, policyId: run.checkpoint.id } };
}
