import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { extendLease, findTrainingRun } from './queries/training-runs';
import { DEFAULT_LEASE_SECONDS } from './claim-training-run';
import { sweepTrainingLeases } from './sweep-training-leases';
import { heartbeatRequest } from './training-run-schemas';
import { leaseHeldBy, requireRunLead, type TrainingCaller } from './training-run-view';

/**
 * The agent's heartbeat: renews its lease (`leaseSeconds`, default 60) and learns whether a lead
 * asked to cancel (`cancelRequested: true`: stop the command, then complete as cancelled). A
 * lease that expired (swept first), was re-claimed or whose run ended: 409 "lease lost".
 */
export async function heartbeatTrainingRun(
  caller: TrainingCaller,
  runId: string,
  raw: unknown,
  now: Date = new Date(),
): Promise<{ status: 'running'; cancelRequested: boolean; leaseExpiresAt: string | null }> {
  await requireRunLead(caller, runId);
  const input = parseInput(heartbeatRequest, raw, 'body');
  await sweepTrainingLeases(now);
  const row = await extendLease(runId, input.leaseToken, input.leaseSeconds ?? DEFAULT_LEASE_SECONDS, now);
  if (!row) {
    const run = await findTrainingRun(runId);
    leaseHeldBy(runId, input.leaseToken)(run);
    throw new AppError('CONFLICT', `lease lost: training run ${runId}`);
  }
  return { status: 'running', cancelRequested: row.cancelRequested, leaseExpiresAt: row.leaseExpiresAt?.toISOString() ?? null };
}
