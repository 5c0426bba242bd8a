import { afterAll, describe, expect, it, vi } from 'vitest';
import { resetDatabase } from './test/reset';
import { watchSqlRoundTrips } from './test/round-trips';

/**
 * The hot-path pool names its statements (prepared once per connection). Next bundles a copy of
 * this module per route and server action, all on the one pool kept on globalThis: two copies
 * must never give one name to two texts (a counter per copy did: "Prepared statements must be
 * unique - 'w0' was used for a different statement", found by e2e/review-journey.spec.ts).
 */
describe('named statements on the shared pool', () => {
  afterAll(async () => {
    const { closeSqlPool } = await import('./sql');
    await closeSqlPool();
  });

  it('two copies of the module run different texts on one connection, in either order, many times', async () => {
    await resetDatabase();
    const first = await import('./sql');
    vi.resetModules();
    const second = await import('./sql');
    expect(second).not.toBe(first);
    for (let i = 0; i < 5; i++) {
      expect(await first.sql<{ n: number }>('SELECT $1::int + 1 AS n', [i])).toEqual([{ n: i + 1 }]);
      expect(await second.sql<{ s: string }>("SELECT $1::text || '!' AS s", [`x${i}`])).toEqual([{ s: `x${i}!` }]);
      // the same text from both copies: one prepared statement, same answers
      expect(await second.sql<{ n: number }>('SELECT $1::int + 1 AS n', [i])).toEqual([{ n: i + 1 }]);
      expect(await first.inSqlTransaction((run) => run<{ s: string }>("SELECT $1::text || '!' AS s", [`y${i}`]))).toEqual([
        { s: `y${i}!` },
      ]);
    }
  });
});

/**
 * inSqlTransaction pipelines (issue 17: every round trip costs the web process a backend's
 * wake-up and a turn of its event loop): BEGIN goes with the first statement, statements asked
 * for together go without waiting, `commitWith` sends the last statement with COMMIT. Round trips
 * are counted on the connection's socket: a run of writes with no read between is one.
 */
describe('inSqlTransaction round trips', () => {
  const table = `sql_pipeline_probe_${process.pid}`;
  afterAll(async () => {
    const { sql, closeSqlPool } = await import('./sql');
    await sql(`DROP TABLE IF EXISTS ${table}`);
    await closeSqlPool();
  });

  /** this module with an empty probe table */
  async function probe() {
    const mod = await import('./sql');
    await mod.sql(`CREATE TABLE IF NOT EXISTS ${table} (n int PRIMARY KEY)`);
    await mod.sql(`TRUNCATE ${table}`);
    return mod;
  }

  it('BEGIN with the first statement, statements sent together, the last one with COMMIT: three round trips, one transaction', async () => {
    const { inSqlTransaction, sql } = await probe();
    const trips = await watchSqlRoundTrips();
    const out = await inSqlTransaction(async (run, commitWith) => {
      await run(`INSERT INTO ${table} (n) VALUES ($1)`, [1]);
      const [a, b] = await Promise.all([
        run<{ n: number }>(`INSERT INTO ${table} (n) VALUES ($1) RETURNING n`, [2]),
        run<{ c: number }>(`SELECT count(*)::int AS c FROM ${table}`, []),
      ]);
      const last = await commitWith<{ c: number }>(`SELECT count(*)::int AS c FROM ${table}`, []);
      return { a: a[0]!.n, seen: b[0]!.c, last: last[0]!.c };
    });
    // the count sent behind the insert sees it: in order, in the one transaction
    expect(out).toEqual({ a: 2, seen: 2, last: 2 });
    expect(trips.checkouts()).toEqual([3]);
    trips.stop();
    expect((await sql<{ c: number }>(`SELECT count(*)::int AS c FROM ${table}`))[0]!.c).toBe(2);
  });

  it('a failing last statement rolls the whole transaction back and throws its own error; the connection stays usable', async () => {
    const { inSqlTransaction, sql } = await probe();
    await expect(
      inSqlTransaction(async (run, commitWith) => {
        await run(`INSERT INTO ${table} (n) VALUES ($1)`, [10]);
        return commitWith(`INSERT INTO ${table} (n) VALUES ($1)`, [10]); // duplicate key
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect((await sql<{ c: number }>(`SELECT count(*)::int AS c FROM ${table} WHERE n = 10`))[0]!.c).toBe(0);
    // nothing may run after the COMMIT went: the transaction is over
    await expect(
      inSqlTransaction(async (run, commitWith) => {
        await commitWith(`INSERT INTO ${table} (n) VALUES ($1)`, [11]);
        await run(`INSERT INTO ${table} (n) VALUES ($1)`, [12]);
      }),
    ).rejects.toThrow(/after commitWith/);
    expect((await sql<{ n: number }>(`SELECT n FROM ${table} WHERE n > 10 ORDER BY n`)).map((r) => r.n)).toEqual([11]);
    // every connection of the pool is back idle, outside any transaction
    for (let i = 0; i < 12; i++) expect(await inSqlTransaction((run) => run<{ s: string }>(`SELECT 'ok' AS s`, []))).toEqual([{ s: 'ok' }]);
  });

  it('a throw after the first statement (sent with BEGIN) rolls it back', async () => {
    const { inSqlTransaction, sql } = await probe();
    await expect(
      inSqlTransaction(async (run) => {
        await run(`INSERT INTO ${table} (n) VALUES ($1)`, [20]);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await sql<{ c: number }>(`SELECT count(*)::int AS c FROM ${table} WHERE n = 20`))[0]!.c).toBe(0);
  });
});
