import pg from 'pg';
import { env } from '../env';

/**
 * A small node-postgres pool of its own (not Prisma's), for the writes Prisma cannot do well:
 * COPY (infra/copy-from.ts) and large set-based statements (the trajectory batch writer).
 */
const globalForPool = globalThis as unknown as { witnessBatchPool?: { url: string; pool: pg.Pool } };

export function batchPool(): pg.Pool {
  const url = env().DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: start Witness with `witness start`, or set it to an external PostgreSQL.');
  const cached = globalForPool.witnessBatchPool;
  if (cached && cached.url === url) return cached.pool;
  if (cached) void cached.pool.end().catch(() => {});
  // idle connections close soon and never keep the process alive
  const created = new pg.Pool({ connectionString: url, max: 4, idleTimeoutMillis: 5_000, allowExitOnIdle: true });
  created.on('error', (error) => {
    // an idle connection closed by the server (e.g. the embedded database stopping): the pool replaces it
    if ((error as { code?: string }).code !== '57P01') console.error('[db] import connection error:', error.message);
  });
  globalForPool.witnessBatchPool = { url, pool: created };
  return created;
}

/** Closes the import's connections (tests and benchmarks; processes exit without it). */
export async function closeTrajectoryBatchPool(): Promise<void> {
  const cached = globalForPool.witnessBatchPool;
  globalForPool.witnessBatchPool = undefined;
  await cached?.pool.end();
}

/** Runs `fn` in one transaction on a connection of the batch pool (BEGIN, COMMIT; ROLLBACK on a throw). */
export function inPgTransaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return withPoolClient(batchPool(), async (client, broke) => {
    await client.query('BEGIN');
    try {
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(broke);
      throw error;
    }
  });
}

/**
 * A connection of `pool` for `fn`, released after it, or destroyed when it broke: a dropped
 * connection (a checked-out client reports it as an 'error' event, kept here from crashing the
 * process) or what `fn` reports with `broke` (a ROLLBACK that failed). Both pools' transactions
 * run on it (inPgTransaction here, inSqlTransaction in sql.ts).
 */
export async function withPoolClient<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient, broke: (error: Error) => void) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const broke = (error: Error) => void (broken ??= error);
  client.on('error', broke);
  try {
    return await fn(client, broke);
  } finally {
    client.off('error', broke);
    client.release(broken);
  }
}
