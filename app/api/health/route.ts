import { databaseHealth, queueHealth } from '@/lib/db/health';
import { pendingSteps } from '@/lib/db/readiness';

export const dynamic = 'force-dynamic';

/**
 * GET /api/health (liveness): 200 when the database answers and the queue is installed, else 503.
 * `workers` counts live workers (0 is reported, not an error: jobs just wait).
 * GET /api/health?ready=1 (readiness): 503 while `witness start` is still starting (migrations,
 * the demo seed, the worker: `pending` says which) or the database is restarting, and otherwise
 * the liveness answer; it turns 200 when start prints "Witness is running at".
 */
export async function GET(request: Request): Promise<Response> {
  const readiness = new URL(request.url).searchParams.get('ready');
  const pending = readiness !== null && readiness !== '0' ? pendingSteps() : [];
  const database = await databaseHealth();
  const queue = database.ok
    ? await queueHealth(new Date())
    : { ok: false, installed: false, workers: 0, queued: 0, failed: 0, error: 'database down' };
  const ok = database.ok && queue.ok && pending.length === 0;
  return Response.json(
    {
      status: ok ? 'ok' : pending.length > 0 ? 'starting' : 'unavailable',
      ...(pending.length > 0 ? { pending } : {}),
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
