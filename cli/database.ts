import { connectDatabase, type DatabaseHandle } from '../lib/db/connect-database';
import { migrateDatabase } from '../lib/migrate-database';
import { dataDir, env, setEnv } from '../lib/env';
import { installQueue } from '../lib/queue/boss';
import { jobContracts } from '../lib/queue/job-list';

/**
 * For commands that need the database: DATABASE_URL, or the embedded one under the data dir:
 * the one a running studio (or another command) already serves there, used and never stopped,
 * else one started here (`existing: 'own'`, the studio: it must run its own, and refuses a data
 * dir another live process serves). Applies migrations (schema and queue) unless told not to,
 * and exports DATABASE_URL to this process and its children.
 */
export async function openDatabase(
  options: { migrate?: boolean; log?: (line: string) => void; existing?: 'share' | 'own' } = {},
): Promise<DatabaseHandle> {
  const e = env();
  const handle = await connectDatabase({
    databaseUrl: e.DATABASE_URL,
    dataDir: dataDir(),
    port: e.WITNESS_DB_PORT,
    log: options.existing === 'own' ? options.log : undefined,
    existing: options.existing ?? 'share',
  });
  setEnv('DATABASE_URL', handle.url);
  if (options.migrate !== false) {
    try {
      const result = await migrateDatabase(handle.url);
      if (result.applied.length > 0) options.log?.(`applied migrations: ${result.applied.join(', ')}`);
      await installQueue(handle.url, jobContracts);
    } catch (error) {
      await handle.stop();
      throw error;
    }
  }
  return handle;
}
