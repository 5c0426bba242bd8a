import { setTimeout as sleep } from 'node:timers/promises';
import { visibleProjectIds } from '../auth/project-access';
import { writeAudit } from '../auth/queries/audit';
import { parseInput } from '../parse-input';
import { claimQueuedRun } from './queries/training-runs';
import { sweepTrainingLeases } from './sweep-training-leases';
import { claimTrainingRunRequest, type ClaimTrainingRunRequest, type TrainingRunClaimAnswer } from './training-run-schemas';
import { loadRunView, type TrainingCaller } from './training-run-view';

export const CLAIM_POLL_MS = 250;
export const DEFAULT_WAIT_SECONDS = 20;
export const DEFAULT_LEASE_SECONDS = 60;

/**
 * A trainer agent claims the oldest queued run it may serve (of the projects its caller leads,
 * whose routing labels are all among the agent's), with a lease: running, attempt + 1. Long-poll:
 * with none queued it looks again every 250 ms (expired leases swept first each time) until
 * `waitSeconds` pass (default 20, at most 30) or `signal` aborts (the agent hung up), then null
 * (the API answers 204). Audited (`training.run.claim`).
 */
export async function claimTrainingRun(
  caller: TrainingCaller,
  raw: ClaimTrainingRunRequest,
  options: { signal?: AbortSignal; now?: () => Date } = {},
): Promise<TrainingRunClaimAnswer | null> {
  const input = parseInput(claimTrainingRunRequest, raw, 'body');
  const now = options.now ?? (() => new Date());
  const leaseSeconds = input.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  const deadline = Date.now() + (input.waitSeconds ?? DEFAULT_WAIT_SECONDS) * 1000;
  const projectIds = visibleProjectIds(caller.access, 'lead');
  if (projectIds !== null && projectIds.length === 0) return null;
  for (;;) {
    await sweepTrainingLeases(now());
    const claimed = await claimQueuedRun(
      { projectIds, agentLabels: input.labels ?? {}, agent: input.agent, leaseSeconds, now: now() },
      (tx, row) =>
        writeAudit(tx, {
          actorId: caller.id,
          action: 'training.run.claim',
          targetType: 'training_run',
          targetId: row.id,
          projectId: row.projectId,
          data: { agent: input.agent, attempt: row.attempts },
        }),
    );
    if (claimed) {
      const run = await loadRunView(claimed.id, { metrics: false });
      return {
        run,
        lease: { token: claimed.leaseToken, expiresAt: claimed.leaseExpiresAt.toISOString(), seconds: leaseSeconds },
        dataset: { url: `/api/v1/training-runs/${run.id}/dataset`, sha256: run.sha256, rows: run.rows, format: run.recipe },
        evalTasksUrl: `/api/v1/training-runs/${run.id}/eval-tasks`,
      };
    }
    const left = deadline - Date.now();
    if (left <= 0 || options.signal?.aborted) return null;
    try {
      await sleep(Math.min(CLAIM_POLL_MS, left), undefined, { signal: options.signal });
    } catch {
      return null;
    }
  }
}
