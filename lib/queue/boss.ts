import { PgBoss } from 'pg-boss';
import type { JobContract, JobPayload } from './job-contract';
import { parseInput } from '../parse-input';

/**
 * pg-boss on the same PostgreSQL as the app. Producers (web, CLI) use `queueClient()`, which
 * only sends (no maintenance, no schema migration); the worker process builds its own instance.
 */
export const QUEUE_SCHEMA = 'pgboss';

export function createBoss(databaseUrl: string, role: 'producer' | 'worker' | 'installer'): PgBoss {
  const boss = new PgBoss({
    connectionString: databaseUrl,
    schema: QUEUE_SCHEMA,
    max: role === 'worker' ? 6 : 3,
    migrate: role !== 'producer',
    supervise: role === 'worker',
    schedule: role === 'worker',
    openTelemetry: { enabled: false },
    // how often a worker looks for jobs whose worker died (missed heartbeats) and retries them
    ...(role === 'worker' ? { superviseIntervalSeconds: 10, monitorIntervalSeconds: 10 } : {}),
  } as ConstructorParameters<typeof PgBoss>[0]);
  boss.on('error', (error: Error) => console.error(`[queue] ${error.message}`));
  return boss;
}

/** Installs or upgrades the queue's schema and creates every queue (idempotent; `witness migrate` and start run it). */
export async function installQueue(databaseUrl: string, contracts: readonly JobContract[]): Promise<void> {
  const boss = createBoss(databaseUrl, 'installer');
  await boss.start();
  try {
    for (const contract of contracts) await ensureQueue(boss, contract);
  } finally {
    await boss.stop({ graceful: false });
  }
}

export async function ensureQueue(boss: PgBoss, contract: JobContract): Promise<void> {
  const options = {
    retryLimit: contract.retry.limit,
    retryDelay: contract.retry.delaySeconds,
    retryBackoff: contract.retry.backoff,
    ...(contract.retry.maxDelaySeconds ? { retryDelayMax: contract.retry.maxDelaySeconds } : {}),
    expireInSeconds: contract.expireInSeconds,
    ...(contract.heartbeatSeconds ? { heartbeatSeconds: contract.heartbeatSeconds } : {}),
  };
  const existing = await boss.getQueue(contract.name);
  // 'stately': at most one queued and one active job per key, so deterministic keys dedupe sends
  if (existing) await boss.updateQueue(contract.name, options);
  else await boss.createQueue(contract.name, { ...options, policy: 'stately' });
}

const globalForQueue = globalThis as unknown as { witnessQueue?: { url: string; boss: PgBoss; started: Promise<unknown> } };

function producer(databaseUrl: string): { boss: PgBoss; started: Promise<unknown> } {
  const cached = globalForQueue.witnessQueue;
  if (cached && cached.url === databaseUrl) return cached;
  const boss = createBoss(databaseUrl, 'producer');
  const entry = { url: databaseUrl, boss, started: boss.start() };
  globalForQueue.witnessQueue = entry;
  return entry;
}

/**
 * Sends a job after validating its payload against the contract. The contract's key makes the
 * send idempotent: while a job with that key is queued or active, another send returns null.
 */
export async function sendJob<C extends JobContract>(
  databaseUrl: string,
  contract: C,
  payload: JobPayload<C>,
  options: { startAfterSeconds?: number } = {},
): Promise<string | null> {
  const valid = parseInput(contract.payload, payload, `job ${contract.name} payload`);
  const { boss, started } = producer(databaseUrl);
  await started;
  return boss.send(contract.name, valid as object, {
    singletonKey: contract.key(valid),
    ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
  });
}

export async function stopQueueClient(): Promise<void> {
  const cached = globalForQueue.witnessQueue;
  globalForQueue.witnessQueue = undefined;
  if (cached) {
    await cached.started.catch(() => {});
    await cached.boss.stop({ graceful: false });
  }
}

/** Counts of jobs by state for health and the admin page. */
export async function queueStats(databaseUrl: string): Promise<{ name: string; queued: number; active: number; failed: number }[]> {
  const { boss, started } = producer(databaseUrl);
  await started;
  const queues = await boss.getQueues();
  return queues.map((q) => ({
    name: q.name,
    queued: q.queuedCount ?? 0,
    active: q.activeCount ?? 0,
    failed: q.failedCount ?? 0,
  }));
}
