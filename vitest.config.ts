import { defineConfig } from 'vitest/config';
import path from 'node:path';

// 'server-only' marks modules Next must keep out of client bundles; outside Next it throws on import, so tests that
// call a route.ts handler (app/_server/fast-lane.db.test.ts) load its empty build, as Next's server bundles do
const alias = {
  '@': path.resolve(import.meta.dirname),
  'server-only': path.resolve(import.meta.dirname, 'node_modules/server-only/empty.js'),
};
const exclude = ['node_modules/**', 'e2e/**', '.next/**', '.data/**'];

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['**/*.test.ts'],
          exclude: [...exclude, '**/*.db.test.ts'],
          environment: 'node',
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'db',
          include: ['**/*.db.test.ts'],
          exclude,
          environment: 'node',
          globalSetup: ['./lib/db/test/global-setup.ts'],
          setupFiles: ['./lib/db/test/setup-env.ts'],
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
