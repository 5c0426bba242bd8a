import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type RunningPostgres } from '../embedded-postgres';
import { migrate } from '../migrate';

/**
 * Database tests run against a real embedded PostgreSQL on its own port and data dir
 * (fresh each run), with the committed migrations applied. DATABASE_URL overrides it.
 */
let running: RunningPostgres | undefined;

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

export async function setup(project: TestProject): Promise<void> {
  let url = process.env.WITNESS_TEST_DATABASE_URL;
  if (!url) {
    const dataDir = path.resolve('.data', 'test-db');
    await rm(dataDir, { recursive: true, force: true });
    running = await startEmbeddedPostgres({ dataDir, port: Number(process.env.WITNESS_TEST_DB_PORT ?? 54331) });
    url = running.url;
  }
  await migrate(url);
  project.provide('databaseUrl', url);
}

export async function teardown(): Promise<void> {
  await running?.stop();
}
