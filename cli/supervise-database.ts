import type { ChildProcess } from 'node:child_process';
import { startEmbeddedPostgres, type RunningPostgres } from '../lib/db/embedded-postgres';
import type { DatabaseHandle } from '../lib/db/connect-database';
import { markDone, markPending } from '../lib/db/readiness';

/**
 * `witness start`'s watch over the embedded PostgreSQL it started: when the server exits without
 * being asked (a kill -9 of the postmaster, a crash), it is started again on the same data dir and
 * port (so its socket URL, which the web server, worker and queue use, stays the same and their
 * pools reconnect on their next query), up to `tries` times with a short backoff. When it cannot
 * be restarted (e.g. its port was taken meanwhile), `onFatal` gets the reason: the studio stops and
 * exits non-zero with it. An exit once the studio is stopping (`stopping`) is left alone. The handle's `stop` and `server` follow the restarted server, and a stop
 * during a restart waits for it and stops what it started. Nothing to do for DATABASE_URL or a
 * server another process owns (no `database.server`).
 */
export function superviseDatabase(
  database: DatabaseHandle,
  options: {
    dataDir: string;
    port: number;
    log: (line: string) => void;
    onFatal: (reason: string) => void;
    /** the studio is stopping: an exit now is the shutdown's (a terminal's Ctrl-C reaches the database's process too), not a crash */
    stopping: () => boolean;
    tries?: number;
    backoffMs?: number;
  },
): void {
  const first = database.server;
  if (!first) return;
  const tries = options.tries ?? 5;
  const backoffMs = options.backoffMs ?? 500;
  let current: RunningPostgres = first;
  let stopping = false;
  let restarting: Promise<void> = Promise.resolve();

  const restart = async (reason: string) => {
    options.log(`database stopped unexpectedly (${reason}): restarting it`);
    // GET /api/health?ready=1 says why it is 503 meanwhile (liveness says the database is unreachable)
    markPending('database', `restarting the database (${reason})`);
    let lastError: unknown;
    for (let attempt = 1; attempt <= tries && !stopping; attempt++) {
      // the killed postmaster's backends notice its death and exit within moments; a retry waits for them
      await new Promise((r) => setTimeout(r, backoffMs * 2 ** (attempt - 1)));
      if (stopping) return;
      try {
        const next = await startEmbeddedPostgres({ dataDir: options.dataDir, port: options.port, existing: 'own' });
        current = next;
        database.server = next;
        if (stopping) return void (await next.stop());
        options.log(`database restarted (attempt ${attempt} of ${tries})`);
        markDone('database');
        watch(next);
        return;
      } catch (error) {
        lastError = error;
      }
    }
    if (stopping) return;
    const why = lastError instanceof Error ? lastError.message : String(lastError);
    options.onFatal(`the embedded database stopped unexpectedly (${reason}) and could not be restarted after ${tries} tries: ${why}`);
  };

  const watch = (server: RunningPostgres) =>
    server.onUnexpectedExit((reason) => {
      if (stopping || options.stopping()) return;
      restarting = restart(reason.replace(/^PostgreSQL \(pid (\d+)\) exited on (\w+)$/, 'pid $1, signal $2'));
    });
  watch(first);

  database.stop = async () => {
    stopping = true;
    await restarting.catch(() => {});
    await current.stop();
  };
}

/**
 * Keeps `witness start`'s worker child running: one that exits on its own with a failure (e.g. its
 * database went away under it) is started again after a backoff (1 s, 2 s, 4 s, ...), up to `tries`
 * times in a row (a worker that then ran for a minute resets the count). `start` makes a child (and
 * records it where the studio's shutdown finds it); `stopping` says the studio is stopping.
 * Returns the first child.
 */
export function keepWorkerRunning(
  start: () => ChildProcess,
  options: { log: (line: string) => void; stopping: () => boolean; tries?: number; backoffMs?: number },
): ChildProcess {
  const tries = options.tries ?? 5;
  const backoffMs = options.backoffMs ?? 1000;
  let failures = 0;
  const run = (): ChildProcess => {
    const child = start();
    const startedAt = Date.now();
    child.once('exit', (code, signal) => {
      if (options.stopping() || code === 0 || signal === 'SIGTERM' || signal === 'SIGINT') return;
      if (Date.now() - startedAt > 60_000) failures = 0;
      if (++failures > tries) {
        options.log(`[worker] exited ${failures} times in a row: not restarting it (run \`witness worker\` to start another)`);
        return;
      }
      const wait = backoffMs * 2 ** (failures - 1);
      options.log(`[worker] exited (${code ?? signal}): restarting it in ${wait / 1000} s (${failures} of ${tries})`);
      setTimeout(() => {
        if (!options.stopping()) run();
      }, wait).unref();
    });
    return child;
  };
  return run();
}
