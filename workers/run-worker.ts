import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Job } from 'pg-boss';
import { removeWorkerHeartbeat, writeWorkerHeartbeat } from '../lib/db/infra/worker-heartbeats';
import { createBoss, ensureQueue } from '../lib/queue/boss';
import type { JobContract } from '../lib/queue/job-contract';
import { PermanentJobError, type JobHandler } from './job-handler';

export interface WorkerOptions {
  databaseUrl: string;
  handlers: readonly JobHandler[];
  log?: (line: string) => void;
  /** seconds between queue polls */
  pollingIntervalSeconds?: number;
  heartbeatMs?: number;
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
  await boss.start();

  for (const handler of options.handlers) {
    await ensureQueue(boss, handler.contract);
    if (handler.contract.cron) await boss.schedule(handler.contract.name, handler.contract.cron, {}, { tz: 'UTC' });
    await boss.work(
      handler.contract.name,
      {
        batchSize: 1,
        localConcurrency: handler.contract.concurrency ?? 1,
        pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1,
      },
      // batchSize 1: pg-boss completes the job with what this returns, and retries it when it throws
      async (jobs: Job<object>[]) => runOne(handler, jobs[0]!, controller.signal, log),
    );
  }

  const beat = () =>
    writeWorkerHeartbeat({ id, hostname: os.hostname(), pid: process.pid, queues: options.handlers.map((h) => h.contract.name) }).catch(
      (error: Error) => log(`[worker] heartbeat failed: ${error.message}`),
    );
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

async function runOne(handler: JobHandler, job: Job<object>, signal: AbortSignal, log: (line: string) => void): Promise<object | null> {
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
  const attempt = (job as unknown as { retryCount?: number }).retryCount ?? 0;
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
  }
}
