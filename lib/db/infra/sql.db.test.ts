import { afterAll, describe, expect, it, vi } from 'vitest';
import { resetDatabase } from '../test/reset';

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
