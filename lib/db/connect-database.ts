import pg from 'pg';
import { AppError } from '../errors';
import { startEmbeddedPostgres, type RunningPostgres } from './embedded-postgres';

export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  /** true when the embedded database was created by this call */
  fresh: boolean;
  stop: () => Promise<void>;
  /** the embedded server when this process started it (the studio supervises it) */
  server?: RunningPostgres;
  /** set when the embedded database was already served by another process (a running studio), which keeps it */
  sharedWith?: RunningPostgres['sharedWith'];
}

/**
 * The database a process should use: DATABASE_URL when set (checked to be reachable, with a
 * one-line error when not), otherwise the embedded PostgreSQL under the data dir.
 */
export async function connectDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  port: number;
  log?: (line: string) => void;
  /** a live server already on the data dir: use it (`share`, every command) or require it be ours (`own`, the studio) */
  existing?: 'share' | 'own';
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    await checkReachable(options.databaseUrl);
    return { url: options.databaseUrl, embedded: false, fresh: false, stop: async () => {} };
  }
  const running: RunningPostgres = await startEmbeddedPostgres({
    dataDir: options.dataDir,
    port: options.port,
    log: options.log,
    existing: options.existing ?? 'share',
  });
  // this machine's processes (web, worker, CLI) reach the embedded database over its Unix socket
  return {
    url: running.socketUrl,
    embedded: true,
    fresh: running.initialised,
    stop: running.stop,
    ...(running.sharedWith ? { sharedWith: running.sharedWith } : { server: running }),
  };
}

export async function checkReachable(url: string, timeoutMs = 5000): Promise<void> {
  let where = 'the database';
  try {
    const u = new URL(url);
    where = `${u.hostname}:${u.port || 5432}/${u.pathname.slice(1)}`;
  } catch {
    throw new AppError('BAD_INPUT', 'DATABASE_URL is not a valid URL: expected postgresql://user:password@host:port/database');
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    const reason = (error as Error).message || (error as { code?: string }).code || 'no answer';
    throw new AppError(
      'UNAVAILABLE',
      `Cannot reach the database at ${where} (DATABASE_URL): ${reason}. Start it or fix DATABASE_URL, or unset DATABASE_URL to use the embedded database.`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}
