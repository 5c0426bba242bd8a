import { defineConfig } from '@playwright/test';

/**
 * e2e against a production build (`witness start`, which builds when needed) in Debian's
 * Chromium, on its own port and its own embedded database (fresh each run). Specs seed
 * their own data through lib/ (see e2e/fixtures/seed.ts).
 */
const port = Number(process.env.WITNESS_E2E_PORT ?? 3100);
const dbPort = Number(process.env.WITNESS_E2E_DB_PORT ?? 54332);
process.env.WITNESS_E2E_DATABASE_URL = `postgresql://witness:witness@127.0.0.1:${dbPort}/witness`;
process.env.WITNESS_E2E_BASE_URL = `http://localhost:${port}`;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `rm -rf .data/e2e && node --import tsx cli/main.ts start --no-demo`,
    env: {
      PORT: String(port),
      WITNESS_DATA_DIR: '.data/e2e',
      WITNESS_DB_PORT: String(dbPort),
      WITNESS_SECRET: 'e2e-secret-e2e-secret-e2e-secret-0123456789',
      WITNESS_BASE_URL: `http://localhost:${port}`,
      // videos render only when a spec asks (keeps the 2 cores for the browser tests)
      WITNESS_AUTO_RENDER: '0',
      // the sinks spec delivers to the example receiver on this machine
      WITNESS_SINK_ALLOW: '127.0.0.1,localhost',
    },
    url: `http://localhost:${port}/api/health?ready=1`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
  },
});
