import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { portInUse, startEmbeddedPostgres, type RunningPostgres } from '../embedded-postgres';
import { migrateDatabase } from '../../migrate-database';

/**
 * Database tests run against a real embedded PostgreSQL on its own port and data dir
 * (fresh each run, removed after), with the committed migrations applied. DATABASE_URL overrides it.
 */
let running: RunningPostgres | undefined;
let dataDir: string | undefined;

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

export async function setup(project: TestProject): Promise<void> {
  let url = process.env.WITNESS_TEST_DATABASE_URL;
  if (!url) {
    // own data dir and first free port from 54331: two test runs on one machine never collide
    dataDir = path.resolve('.data', 'test-db', String(process.pid));
    await rm(dataDir, { recursive: true, force: true });
    let port = Number(process.env.WITNESS_TEST_DB_PORT ?? 54331);
    while (await portInUse(port)) port++;
    running = await startEmbeddedPostgres({ dataDir, port });
    url = running.url;
  }
  await migrateDatabase(url);
  project.provide('databaseUrl', url);
}

export async function teardown(): Promise<void> {
  await running?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
