import { db } from './client';

/** Database round trip and the job queue's state, for GET /api/health. */
export async function databaseHealth(): Promise<{ ok: boolean; latencyMs: number; error?: string }> {
  const t0 = performance.now();
  try {
    await db().$queryRaw`SELECT 1`;
    return { ok: true, latencyMs: Math.round(performance.now() - t0) };
  } catch (error) {
    return { ok: false, latencyMs: Math.round(performance.now() - t0), error: (error as Error).message.split('\n')[0] };
  }
}

export async function queueHealth(
  now: Date,
): Promise<{ ok: boolean; installed: boolean; workers: number; queued: number; failed: number; error?: string }> {
  try {
    const installed = await db().$queryRaw<{ ok: boolean }[]>`SELECT to_regclass('pgboss.job') IS NOT NULL AS ok`;
    if (!installed[0]?.ok)
      return { ok: false, installed: false, workers: 0, queued: 0, failed: 0, error: 'queue schema not installed (run witness migrate)' };
    const [counts] = await db().$queryRaw<{ queued: bigint; failed: bigint }[]>`
      SELECT count(*) FILTER (WHERE state IN ('created', 'retry')) AS queued,
             count(*) FILTER (WHERE state = 'failed') AS failed
      FROM pgboss.job`;
    const workers = await db().workerHeartbeat.count({ where: { seenAt: { gte: new Date(now.getTime() - 30_000) } } });
    return { ok: true, installed: true, workers, queued: Number(counts?.queued ?? 0), failed: Number(counts?.failed ?? 0) };
  } catch (error) {
    return { ok: false, installed: false, workers: 0, queued: 0, failed: 0, error: (error as Error).message.split('\n')[0] };
  }
}
