import { type z } from 'zod';

/**
 * A job's contract: what the app (producer) and the worker (consumer) agree on. Lives in
 * lib/queue/jobs/<job>.ts (listed once in lib/queue/jobs/index.ts) and is importable by the app;
 * the handler (workers/jobs/<job>/handler.ts) is worker-only.
 * Payloads carry ids, never rows: the handler re-reads current state.
 */
export interface RetryPolicy {
  /** retries after the first attempt */
  limit: number;
  /** seconds before the first retry; doubles each time with jitter when backoff */
  delaySeconds: number;
  backoff: boolean;
  /**
   * cap for backoff delays. pg-boss 10 has no cap of its own: its backoff waits at most
   * delaySeconds * 2^limit, and defineJob refuses a contract where that exceeds this cap.
   */
  maxDelaySeconds?: number;
}

export interface JobContract<S extends z.ZodType = z.ZodType> {
  name: string;
  payload: S;
  retry: RetryPolicy;
  /** seconds a running attempt may take before it is considered lost and retried */
  expireInSeconds: number;
  /** deterministic key: a second send with the same key while one is queued/active is a no-op */
  key: (payload: z.infer<S>) => string;
  /** optional cron schedule (the worker registers it) */
  cron?: string;
  /** jobs a worker takes at once (per process) */
  concurrency?: number;
  /**
   * seconds (>= 10) between liveness beats a running job must send; a job whose worker died
   * (kill -9, lost machine) is failed and retried after this long instead of after expireInSeconds
   */
  heartbeatSeconds?: number;
}

export function defineJob<S extends z.ZodType>(contract: JobContract<S>): JobContract<S> {
  if (!/^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/.test(contract.name)) {
    throw new Error(`Job name ${contract.name} must be dotted lowercase, e.g. video.render`);
  }
  const { limit, delaySeconds, backoff, maxDelaySeconds } = contract.retry;
  if (backoff && maxDelaySeconds !== undefined && longestRetryDelaySeconds(contract.retry) > maxDelaySeconds) {
    throw new Error(
      `Job ${contract.name}: retry.maxDelaySeconds ${maxDelaySeconds} is below the longest backoff pg-boss 10 waits (${delaySeconds} * 2^${limit} = ${longestRetryDelaySeconds(contract.retry)} s), which it cannot cap: lower retry.limit or retry.delaySeconds`,
    );
  }
  return contract;
}

/** The longest wait before a retry under pg-boss 10's backoff (delay * 2^(attempt) with jitter, attempt <= limit). */
export function longestRetryDelaySeconds(retry: RetryPolicy): number {
  return retry.backoff ? retry.delaySeconds * 2 ** Math.min(16, retry.limit) : retry.delaySeconds;
}

export type JobPayload<C extends JobContract> = z.infer<C['payload']>;
