import PgBoss from 'pg-boss';
import type { JobContract, JobPayload } from './job-contract';
import { moveNewerQueueSchemaAside } from '../db/newer-queue-schema';
import { QUEUE_SCHEMA, queueOptions } from './queue-schema';
import { parseInput } from '../parse-input';

/**
 * pg-boss 10 (the newest that supports Node 20) on the same PostgreSQL as the app. Producers
 * (web, CLI) use `sendJob()`, which only sends (no maintenance, no schema migration); the worker
 * process builds its own instance.
 */
export { QUEUE_SCHEMA, queueOptions };

/** A job as a handler receives it (fetched with its metadata: retryCount, startedOn). */
export type QueueJob<T = object> = PgBoss.JobWithMetadata<T>;

export function createBoss(databaseUrl: string, role: 'producer' | 'worker' | 'installer'): PgBoss {
  const boss = new PgBoss({
    connectionString: databaseUrl,
    schema: QUEUE_SCHEMA,
    max: role === 'worker' ? 6 : 3,
    migrate: role !== 'producer',
    supervise: role === 'worker',
    schedule: role === 'worker',
    // how often a worker looks for jobs whose worker died (missed heartbeats, see beatJob) and retries them
    ...(role === 'worker' ? { maintenanceIntervalSeconds: 10 } : {}),
  });
  boss.on('error', (error: Error) => console.error(`[queue] ${error.message}`));
  return boss;
}

/**
 * Installs or upgrades the queue's schema and creates every queue (idempotent; `witness migrate`
 * and start run it). A schema a newer pg-boss wrote is first moved aside, its unfinished jobs
 * copied over (lib/db/newer-queue-schema.ts).
 */
export async function installQueue(
  databaseUrl: string,
  contracts: readonly JobContract[],
  log: (line: string) => void = (line) => console.log(line),
): Promise<void> {
  await moveNewerQueueSchemaAside(databaseUrl, contracts, log);
  const boss = createBoss(databaseUrl, 'installer');
  await boss.start();
  try {
    for (const contract of contracts) await ensureQueue(boss, contract);
  } finally {
    await boss.stop({ graceful: false });
  }
}

export async function ensureQueue(boss: PgBoss, contract: JobContract): Promise<void> {
  const options = queueOptions(contract);
  const existing = await boss.getQueue(contract.name);
  if (existing) await boss.updateQueue(contract.name, options);
  else await boss.createQueue(contract.name, options);
}

/**
 * A running job's liveness beat (pg-boss 10 has no job heartbeats; 12 had). pg-boss's
 * maintenance fails an active job once `started_on + expire_in` is past and retries it; a beat
 * moves `started_on` so that this happens `heartbeatSeconds` after the last beat, while
 * `expire_in` stays the contract's (it is what the worker's own timeout and a retry use) and the
 * attempt is still ended at expireInSeconds by that timeout. A worker killed mid-job stops
 * beating, so its job is retried within heartbeatSeconds plus one maintenance interval.
 */
export async function beatJob(boss: PgBoss, contract: JobContract, jobId: string): Promise<void> {
  if (!contract.heartbeatSeconds) return;
  await boss
    .getDb()
    .executeSql(
      `UPDATE ${QUEUE_SCHEMA}.job SET started_on = now() + make_interval(secs => $3) - expire_in WHERE name = $1 AND id = $2 AND state = 'active'`,
      [contract.name, jobId, contract.heartbeatSeconds],
    );
}

/** Jobs of a queue (one by id), with the fields tests and tools read. */
export async function findJobs(
  boss: PgBoss,
  name: string,
  where: { id?: string } = {},
): Promise<{ id: string; state: string; retryCount: number; output: unknown }[]> {
  const { rows } = await boss
    .getDb()
    .executeSql(
      `SELECT id, state, retry_count AS "retryCount", output FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND ($2::uuid IS NULL OR id = $2::uuid) ORDER BY created_on`,
      [name, where.id ?? null],
    );
  return rows as { id: string; state: string; retryCount: number; output: unknown }[];
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

/** Counts of jobs by state, per queue (every queue, also those with no jobs). */
export async function queueStats(databaseUrl: string): Promise<{ name: string; queued: number; active: number; failed: number }[]> {
  const { boss, started } = producer(databaseUrl);
  await started;
  const { rows } = await boss.getDb().executeSql(
    `SELECT q.name,
            count(j.id) FILTER (WHERE j.state IN ('created', 'retry'))::int AS queued,
            count(j.id) FILTER (WHERE j.state = 'active')::int AS active,
            count(j.id) FILTER (WHERE j.state = 'failed')::int AS failed
     FROM ${QUEUE_SCHEMA}.queue q LEFT JOIN ${QUEUE_SCHEMA}.job j ON j.name = q.name
     GROUP BY q.name ORDER BY q.name`,
    [],
  );
  return rows as { name: string; queued: number; active: number; failed: number }[];
}
