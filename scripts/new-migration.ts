/**
 * `npm run db:migration -- NAME`: writes prisma/migrations/<timestamp>_<NAME>/migration.sql with
 * the SQL that takes the schema of the last committed migration to the current schema.prisma.
 * Prisma's diff of two datamodels needs no schema engine download (engine: 'js' in
 * prisma.config.ts); a throwaway embedded PostgreSQL satisfies its driver adapter.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../lib/db/embedded-postgres';

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run db:migration -- snake_case_name');
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, '..');
const lastCommit = execFileSync('git', ['log', '-1', '--format=%H', '--', 'prisma/migrations'], { cwd: root }).toString().trim();
const tmp = mkdtempSync(path.join(os.tmpdir(), 'witness-migration-'));
chmodSync(tmp, 0o755); // the embedded server runs as the postgres user when we are root
const previous = path.join(tmp, 'previous.prisma');
writeFileSync(previous, execFileSync('git', ['show', `${lastCommit}:prisma/schema.prisma`], { cwd: root }));
const pg = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'data'), port: 54398 });
try {
  const sql = execFileSync(
    path.join(root, 'node_modules', '.bin', 'prisma'),
    [
      'migrate',
      'diff',
      '--from-schema-datamodel',
      previous,
      '--to-schema-datamodel',
      path.join(root, 'prisma', 'schema.prisma'),
      '--script',
    ],
    { cwd: root, env: { ...process.env, DATABASE_URL: pg.url } },
  ).toString();
  if (!sql.trim() || sql.includes('-- This is an empty migration.')) {
    console.error('schema.prisma has no changes since the last migration');
    process.exitCode = 1;
  } else {
    const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
    const dir = path.join(root, 'prisma', 'migrations', `${stamp}_${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'migration.sql'), sql);
    console.log(`wrote ${path.relative(root, dir)}/migration.sql`);
  }
} finally {
  await pg.stop();
  rmSync(tmp, { recursive: true, force: true });
}
