import type pg from 'pg';
import { sql } from '../sql';

/**
 * Round trips on the hot-path pool (lib/db/sql.ts), for tests of what a request path costs
 * in them (issue 17: each one costs the web process a database backend's wake-up and a turn of
 * its event loop). Counted on each checkout's socket: a run of writes with no answer read between
 * them is one round trip. `checkouts()` gives one count per checkout since the last `reset()`,
 * in the order they were taken (a transaction is one checkout; so is each `sql` statement).
 */
export async function watchSqlRoundTrips(): Promise<{ checkouts: () => number[]; reset: () => void; stop: () => void }> {
  await sql('SELECT 1'); // the pool exists from its first statement
  const pool = (globalThis as unknown as { witnessSqlPool?: { pool: pg.Pool } }).witnessSqlPool?.pool;
  if (!pool) throw new Error('watchSqlRoundTrips: no hot-path pool on globalThis.witnessSqlPool');
  let logs: string[][] = [];
  const current = new Map<object, string[]>();
  const hooked = new WeakSet<object>();
  const onAcquire = (client: pg.PoolClient) => {
    const log: string[] = [];
    logs.push(log);
    current.set(client, log);
    const stream = (client as unknown as pg.Client).connection.stream;
    if (hooked.has(stream)) return;
    hooked.add(stream);
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((...args: unknown[]) => {
      const l = current.get(client);
      if (l && l.at(-1) !== 'w') l.push('w');
      return write(...args);
    }) as typeof stream.write;
    // before the client's own listener, which may write the next statement as it reads this answer
    stream.prependListener('data', () => {
      const l = current.get(client);
      if (l && l.at(-1) === 'w') l.push('r');
    });
  };
  const onRelease = (_error: unknown, client: pg.PoolClient) => current.delete(client);
  pool.on('acquire', onAcquire);
  pool.on('release', onRelease);
  return {
    checkouts: () => logs.map((l) => l.filter((x) => x === 'w').length),
    reset: () => {
      logs = [];
    },
    stop: () => {
      pool.off('acquire', onAcquire);
      pool.off('release', onRelease);
      current.clear();
    },
  };
}
