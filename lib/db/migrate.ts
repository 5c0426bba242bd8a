import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

/**
 * Applies prisma/migrations/<name>/migration.sql in order, each in its own transaction,
 * recorded in Prisma's own `_prisma_migrations` table (same columns and checksums, so
 * `prisma migrate status` agrees). Runs without Prisma's schema engine (which would have to be
 * downloaded), and takes an advisory lock so several processes starting at once apply each
 * migration exactly once. Then `derive` (inside the same lock) writes the data the domains derive
 * in TypeScript, which no migration can write: lib/migrate-database.ts hands it the insight backfill.
 */
export interface MigrationResult {
  applied: string[];
  alreadyApplied: number;
  /** what `derive` returned (rows it refreshed), 0 without one */
  derived: number;
}

const LOCK_KEY = 7_202_611; // arbitrary, stable

export function migrationsDir(): string {
  return path.resolve(import.meta.dirname, '..', '..', 'prisma', 'migrations');
}

export async function listMigrations(dir = migrationsDir()): Promise<{ name: string; sql: string; checksum: string }[]> {
  const entries = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const out = [];
  for (const name of entries) {
    const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
    out.push({ name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return out;
}

export async function migrate(
  databaseUrl: string,
  { dir = migrationsDir(), derive }: { dir?: string; derive?: (client: pg.Client) => Promise<number> } = {},
): Promise<MigrationResult> {
  const migrations = await listMigrations(dir);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const done = await client.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const appliedNames = new Map(done.rows.map((r) => [r.migration_name, r.checksum]));
    const applied: string[] = [];
    for (const m of migrations) {
      const previous = appliedNames.get(m.name);
      if (previous !== undefined) {
        if (previous !== m.checksum) {
          throw new Error(
            `Migration ${m.name} was changed after it was applied (checksum differs). Add a new migration instead of editing an applied one.`,
          );
        }
        continue;
      }
      const id = randomUUID();
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query(
          'INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)',
          [id, m.checksum, m.name],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${m.name} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(m.name);
    }
    const derived = derive ? await derive(client) : 0;
    return { applied, alreadyApplied: migrations.length - applied.length, derived };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => {});
    await client.end();
  }
}
