import { sweepExpiredLeases } from './queries/training-runs';

/**
 * Expired leases (an agent that stopped heartbeating): each such running run goes back to the
 * queue for its next attempt, fails ("the agent stopped heartbeating (lease expired) on attempt
 * N of N") when none is left, or ends cancelled when a cancel was asked for. Called at the top of
 * every claim, heartbeat and agent write, and by list and show; one UPDATE, safe to run anywhere.
 */
export async function sweepTrainingLeases(now: Date = new Date()): Promise<{ id: string; status: string }[]> {
  return sweepExpiredLeases(now);
}
