import type PgBoss from 'pg-boss';
import type { JobContract } from './job-contract';

/** The PostgreSQL schema pg-boss keeps the queue in. */
export const QUEUE_SCHEMA = 'pgboss';

/**
 * A queue's settings from its contract. 'stately': at most one queued and one active job per
 * key, so deterministic keys dedupe sends (pg-boss 10's updateQueue resets an omitted policy to
 * 'standard', so it is always given).
 */
export function queueOptions(contract: JobContract): PgBoss.Queue & { policy: 'stately' } {
  return {
    name: contract.name,
    policy: 'stately',
    retryLimit: contract.retry.limit,
    retryDelay: contract.retry.delaySeconds,
    retryBackoff: contract.retry.backoff,
    expireInSeconds: contract.expireInSeconds,
  };
}
