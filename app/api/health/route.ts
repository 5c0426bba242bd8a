import { databaseHealth, queueHealth } from '@/lib/db/infra/health';

export const dynamic = 'force-dynamic';

/**
 * GET /api/health: 200 when the database answers and the queue is installed, else 503.
 * `workers` counts live workers (0 is reported, not an error: jobs just wait).
 */
export async function GET(): Promise<Response> {
  const database = await databaseHealth();
  const queue = database.ok
    ? await queueHealth(new Date())
    : { ok: false, installed: false, workers: 0, queued: 0, failed: 0, error: 'database down' };
  const ok = database.ok && queue.ok;
  return Response.json(
    {
      status: ok ? 'ok' : 'unavailable',
      database: { ok: database.ok, latency_ms: database.latencyMs, ...(database.ok ? {} : { error: 'unreachable' }) },
      queue: {
        ok: queue.ok,
        workers: queue.workers,
        queued: queue.queued,
        failed: queue.failed,
        ...(queue.ok ? {} : { error: queue.error ? 'not ready' : 'unreachable' }),
      },
    },
    { status: ok ? 200 : 503, headers: { 'cache-control': 'no-store' } },
  );
}
