import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type PgBoss from 'pg-boss';
import { removeWorkerHeartbeat, writeWorkerHeartbeat } from '../lib/db/worker-heartbeats';
import { beatJob, createBoss, ensureQueue, type QueueJob } from '../lib/queue/boss';
import { moveNewerQueueSchemaAside } from '../lib/db/newer-queue-schema';
import type { JobContract } from '../lib/queue/job-contract';
import { jobContracts } from '../lib/queue/job-list';
import { PermanentJobError, type JobHandler } from './job-handler';

export interface WorkerOptions {
  databaseUrl: string;
  handlers: readonly JobHandler[];
  log?: (line: string) => void;
  /** seconds between queue polls */
  pollingIntervalSeconds?: number;
  heartbeatMs?: number;
  /** how often a queue waiting for what its handler needs (JobHandler.unmet) is looked at again */
  requirementCheckMs?: number;
  /** graceful shutdown waits this long for running jobs */
  shutdownTimeoutMs?: number;
}

export interface RunningWorker {
  id: string;
  stop: () => Promise<void>;
}

/**
 * Starts a worker: installs/updates the queue schema, registers schedules, works every queue
 * of `handlers`, and beats in worker_heartbeat. Several workers on several machines can run
 * against one database; pg-boss hands each job to one of them.
 */
export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const log = options.log ?? ((line) => console.log(line));
  const id = `${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const boss = createBoss(options.databaseUrl, 'worker');
  const controller = new AbortController();
  // a worker may be the first process to meet a schema a newer pg-boss wrote: every known queue's jobs move over
  const served = options.handlers.map((h) => h.contract);
  await moveNewerQueueSchemaAside(
    options.databaseUrl,
    [...jobContracts.filter((c) => !served.some((s) => s.name === c.name)), ...served],
    log,
  );
  await boss.start();

  const serve = async (handler: JobHandler) => {
    // pg-boss 10 has no localConcurrency: each work() is one fetch loop taking one job at a time
    for (let n = 0; n < (handler.contract.concurrency ?? 1); n++)
      await boss.work(
        handler.contract.name,
        { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1 },
        // batchSize 1: pg-boss completes the job with what this returns, and retries it when it throws
        async (jobs: QueueJob[]) => runOne(boss, handler, jobs[0]!, controller.signal, log),
      );
  };
  // queues whose handler lacks something on this machine (Chromium): their jobs stay queued until it is there
  const waiting = new Map<JobHandler, string>();
  for (const handler of options.handlers) {
    await ensureQueue(boss, handler.contract);
    if (handler.contract.cron) await boss.schedule(handler.contract.name, handler.contract.cron, {}, { tz: 'UTC' });
    const unmet = handler.unmet?.() ?? null;
    if (unmet) waiting.set(handler, unmet);
    else await serve(handler);
  }
  for (const [handler, why] of waiting)
    log(`[worker] not taking ${handler.contract.name} jobs yet: ${why}; they wait in the queue and are taken once it is there`);
  let checking = false;
  const recheck = setInterval(() => {
    if (checking || waiting.size === 0) return;
    checking = true;
    void (async () => {
      for (const handler of [...waiting.keys()]) {
        if (handler.unmet!() !== null) continue;
        waiting.delete(handler);
        await serve(handler);
        log(`[worker] now taking ${handler.contract.name} jobs`);
      }
    })()
      .catch((error: Error) => log(`[worker] could not start serving a queue: ${error.message}`))
      .finally(() => (checking = false));
  }, options.requirementCheckMs ?? 15_000);
  recheck.unref();

  const beat = () =>
    writeWorkerHeartbeat({
      id,
      hostname: os.hostname(),
      pid: process.pid,
      // the queues it takes jobs from now (not those waiting for what their handler needs)
      queues: options.handlers.filter((h) => !waiting.has(h)).map((h) => h.contract.name),
    }).catch((error: Error) => log(`[worker] heartbeat failed: ${error.message}`));
  await beat();
  const timer = setInterval(beat, options.heartbeatMs ?? 10_000);
  timer.unref();
  log(`[worker] ${id} serving ${options.handlers.map((h) => h.contract.name).join(', ')}`);
  // one-time preparation in the background (shared work, e.g. one video bundle, runs once)
  const warmUps = [...new Set(options.handlers.map((h) => h.warmUp).filter((w) => w !== undefined))];
  if (warmUps.length) {
    const t0 = Date.now();
    void Promise.all(warmUps.map((w) => w()))
      .then(() => log(`[worker] ${id} warm in ${((Date.now() - t0) / 1000).toFixed(1)} s`))
      .catch((error: Error) => log(`[worker] warm-up failed (jobs will retry it): ${error.message}`));
  }

  let stopping: Promise<void> | undefined;
  return {
    id,
    stop: () => {
      stopping ??= (async () => {
        clearInterval(timer);
        clearInterval(recheck);
        // graceful: stop fetching, let running jobs finish (up to the timeout), then abort them
        const abortLater = setTimeout(() => controller.abort(), options.shutdownTimeoutMs ?? 25_000);
        await boss.stop({ graceful: true, timeout: options.shutdownTimeoutMs ?? 30_000 });
        clearTimeout(abortLater);
        await removeWorkerHeartbeat(id).catch(() => {});
        log(`[worker] ${id} stopped`);
      })();
      return stopping;
    },
  };
}

async function runOne(
  boss: PgBoss,
  handler: JobHandler,
  job: QueueJob,
  signal: AbortSignal,
  log: (line: string) => void,
): Promise<object | null> {
  const contract: JobContract = handler.contract;
  const parsed = contract.payload.safeParse(job.data ?? {});
  const prefix = `[job ${contract.name} ${job.id}]`;
  if (!parsed.success) {
    // a bad payload never gets better: complete it as rejected instead of retrying
    // eslint-disable-next-line no-restricted-syntax -- the job edge: a bad payload is completed as rejected with the reason, not thrown
    const issue = parsed.error.issues[0]!;
    const reason = `bad payload at ${issue.path.join('.') || '(root)'}: ${issue.message}`;
    log(`${prefix} rejected, ${reason}`);
    return { rejected: true, reason };
  }
  const attempt = job.retryCount;
  // the job's liveness beat, for contracts with heartbeatSeconds (see beatJob)
  const beat = () => beatJob(boss, contract, job.id).catch((error: Error) => log(`${prefix} beat failed: ${error.message}`));
  let beats: NodeJS.Timeout | undefined;
  if (contract.heartbeatSeconds) {
    await beat();
    beats = setInterval(beat, (contract.heartbeatSeconds * 1000) / 3);
  }
  try {
    const output = await handler.handle(parsed.data, {
      jobId: job.id,
      attempt,
      signal,
      log: (m) => log(`${prefix} ${m}`),
      now: () => new Date(),
    });
    return output ?? null;
  } catch (error) {
    if (error instanceof PermanentJobError) {
      log(`${prefix} failed permanently: ${error.message}`);
      return { rejected: true, reason: error.message };
    }
    // let pg-boss retry it with the contract's backoff
    log(`${prefix} attempt ${attempt + 1} failed: ${(error as Error).message}`);
    throw error;
  } finally {
    clearInterval(beats);
  }
}
