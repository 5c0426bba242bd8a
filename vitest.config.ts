import { defineConfig } from 'vitest/config';
import path from 'node:path';

const alias = { '@': path.resolve(import.meta.dirname) };
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
