import { tmpdir } from 'node:os';
import { afterAll, inject } from 'vitest';

// Runs in each db test worker before its tests: point lib/env at the test database.
process.env.DATABASE_URL = inject('databaseUrl');
process.env.WITNESS_SECRET ??= 'test-secret-test-secret-test-secret-0123456789';
process.env.WITNESS_DEMO = '0';
// tests deliver to receivers on loopback and to folders under the system temp dir
process.env.WITNESS_SINK_ALLOW = '127.0.0.1,localhost,::1';
process.env.WITNESS_SINK_DIR_ROOT = tmpdir();

// a submit's background summary refresh (lib/insight/queries/insight-refresh.ts) ends with its file, not inside the next file's reset
afterAll(async () => {
  const { insightRefreshRunning } = await import('../../insight/queries/insight-refresh');
  await insightRefreshRunning();
});
