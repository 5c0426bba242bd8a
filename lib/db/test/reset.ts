import { db } from '../client';
import { insightRefreshRunning } from '../../insight/queries/insight-refresh';

/** Empties every table (but the migrations ledger) so each db test file starts clean. */
export async function resetDatabase(): Promise<void> {
  await insightRefreshRunning(); // this process's background summary refresh done before deleting behind its back
  const tables = await db().$queryRaw<{ tablename: string }[]>`
    SELECT tablename::text AS tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`;
  const boss = await db().$queryRaw<{ exists: boolean }[]>`SELECT to_regclass('pgboss.job') IS NOT NULL AS exists`;
  if (boss[0]?.exists) await db().$executeRawUnsafe('DELETE FROM pgboss.job');
  if (tables.length === 0) return;
  const list = tables.map((t) => `"public"."${t.tablename}"`).join(', ');
  await db().$executeRawUnsafe(`TRUNCATE ${list} RESTART IDENTITY CASCADE`);
}
