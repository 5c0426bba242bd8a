import { connectDatabase, type DatabaseHandle } from '../lib/db/infra/connect-database';
import { migrate } from '../lib/db/infra/migrate';
import { dataDir, env, setEnv } from '../lib/env';
import { installQueue } from '../lib/queue/boss';
import { jobContracts } from '../lib/queue/job-list';

/**
 * For commands that need the database: DATABASE_URL, or the embedded one started here.
 * Applies migrations (schema and queue) unless told not to, and exports DATABASE_URL to this
 * process and its children.
 */
export async function openDatabase(options: { migrate?: boolean; log?: (line: string) => void } = {}): Promise<DatabaseHandle> {
  const e = env();
  const handle = await connectDatabase({ databaseUrl: e.DATABASE_URL, dataDir: dataDir(), port: e.WITNESS_DB_PORT, log: undefined });
  setEnv('DATABASE_URL', handle.url);
  if (options.migrate !== false) {
    try {
      const result = await migrate(handle.url);
      if (result.applied.length > 0) options.log?.(`applied migrations: ${result.applied.join(', ')}`);
      await installQueue(handle.url, jobContracts);
    } catch (error) {
      await handle.stop();
      throw error;
    }
  }
  return handle;
}
