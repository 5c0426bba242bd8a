import type { Prisma } from '@prisma/client';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { env } from '../env';
import { withPoolClient } from './pg-pool';

/**
 * Plain SQL for the hot paths (a claim, a submit, the blind view, an API token: every reviewer
 * request), beside Prisma: the review load test's profile showed Prisma's query compiler and
 * request pipeline at ~28% of the web process's CPU. `SqlRun` is one statement with $n
 * parameters; the same code runs on a Prisma transaction (`prismaRun`), a node-postgres client
 * (`pgRun`) or this module's pool (`sql`, `inSqlTransaction`).
 *
 * Timestamps: the schema's columns are `timestamp(3)` holding UTC; this pool reads them as UTC
 * whatever the process time zone, and writers pass ISO strings (`at(date)`).
 */
export type SqlRun = <T>(text: string, values: unknown[]) => Promise<T[]>;

export const prismaRun =
  (tx: Prisma.TransactionClient): SqlRun =>
  <T>(text: string, values: unknown[]) =>
    tx.$queryRawUnsafe<T[]>(text, ...values);

export const pgRun =
  (client: pg.ClientBase): SqlRun =>
  async <T>(text: string, values: unknown[]) =>
    (await client.query(prepared(text, values))).rows as T[];

/**
 * A statement's text as a named prepared statement: each connection parses and plans it once,
 * then only binds and executes (unnamed, PostgreSQL parses and plans every execution: a third
 * of the database's CPU for the review loop's short statements). The name is a hash of the
 * text, so every copy of this module (Next bundles one per route and action) names a text the
 * same on the one shared pool. Names are given to the first MAX_NAMED distinct texts a copy
 * sees (the hot path's are fixed texts); any beyond run unnamed, so a caller that builds texts
 * on the fly cannot grow every connection's statement cache without bound.
 */
function prepared(text: string, values: unknown[]): pg.QueryConfig {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_NAMED) {
    name = `w_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name === undefined ? { text, values } : { name, text, values };
}
const MAX_NAMED = 256;
const statementNames = new Map<string, string>();

/** A timestamp parameter: ISO text, read by `::timestamp` as the UTC instant it names. */
export const at = (date: Date): string => date.toISOString();

const TIMESTAMP_OID = 1114;
const utcTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMP_OID
      ? (value: string) => new Date(`${value.replace(' ', 'T')}Z`)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** the application_name of this pool's connections */
export const SQL_POOL_APPLICATION = 'witness-sql';

const globalForPool = globalThis as unknown as { witnessSqlPool?: { url: string; pool: pg.Pool } };

function sqlPool(): pg.Pool {
  const url = env().DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: start Witness with `witness start`, or set it to an external PostgreSQL.');
  const cached = globalForPool.witnessSqlPool;
  if (cached && cached.url === url) return cached.pool;
  if (cached) void cached.pool.end().catch(() => {});
  const created = new pg.Pool({
    connectionString: url,
    max: env().WITNESS_SQL_POOL_MAX,
    idleTimeoutMillis: 10_000,
    allowExitOnIdle: true,
    types: utcTypes,
    // named, so pg_stat_activity tells the hot path's connections from Prisma's (the review bench samples them)
    application_name: SQL_POOL_APPLICATION,
    // a statement is written as soon as it is asked for, not after the answer to the one before: a
    // transaction sends its BEGIN with its first statement and its COMMIT with its last (see
    // inSqlTransaction); statements awaited one by one run as before. Nothing on this pool reads
    // through a portal (pg-cursor, `rows`), which pipelining refuses.
    pipeline: true,
  });
  created.on('error', (error) => {
    // an idle connection closed by the server (e.g. the embedded database stopping): the pool replaces it
    if ((error as { code?: string }).code !== '57P01') console.error('[db] connection error:', error.message);
  });
  globalForPool.witnessSqlPool = { url, pool: created };
  return created;
}

/** One statement on the pool. */
export async function sql<T>(text: string, values: unknown[] = []): Promise<T[]> {
  return (await sqlPool().query(prepared(text, values))).rows as T[];
}

/**
 * Runs `fn` in one transaction on a pooled connection: BEGIN, the statements `fn` runs, COMMIT
 * (ROLLBACK on a throw).
 *
 * Round trips: each one costs the web process a wake-up of a database backend and a turn of its
 * event loop to read the answer (issue 17: with one reviewer, a claim in 6 and a submit in 7.3
 * took 6.5 and 5.0 ms at the median; in 4 each, 5.4 and 3.7 ms). So BEGIN is not a round trip of
 * its own (the pipelined connection writes the first statement right behind it), statements that
 * do not depend on each other's answers can be sent together (`Promise.all` of `run`s: written
 * back to back, answered in order), and `commitWith` sends the transaction's last statement with
 * COMMIT behind it, one round trip for both. After `commitWith` the transaction is over: `run`
 * refuses. A last statement that fails makes the COMMIT behind it a rollback (PostgreSQL commits
 * nothing of an aborted transaction), and its error is thrown.
 */
export function inSqlTransaction<T>(fn: (run: SqlRun, commitWith: SqlRun) => Promise<T>): Promise<T> {
  return withPoolClient(sqlPool(), async (client, broke) => {
    let begun: Promise<unknown> | null = client.query('BEGIN');
    // awaited with the first statement (or the COMMIT); until then a failure is held, not unhandled
    begun.catch(() => {});
    let ended = false;
    /** awaits `sent` and, the first time, the BEGIN written before it */
    const answer = async <R>(sent: Promise<R>): Promise<R> => {
      const before = begun;
      begun = null;
      return before ? (await Promise.all([before, sent]))[1] : sent;
    };
    const run: SqlRun = async <R>(text: string, values: unknown[]) => {
      if (ended) throw new Error('inSqlTransaction: a statement after commitWith (the transaction is over)');
      return (await answer(client.query(prepared(text, values)))).rows as R[];
    };
    const commitWith: SqlRun = async <R>(text: string, values: unknown[]) => {
      if (ended) throw new Error('inSqlTransaction: commitWith twice (the transaction is over)');
      ended = true;
      const sent = client.query(prepared(text, values));
      const commit = client.query('COMMIT');
      // the statement's error first (the COMMIT behind a failed statement answers ROLLBACK, not an error)
      const [result] = await answer(Promise.all([sent, commit]));
      return result.rows as R[];
    };
    try {
      const result = await fn(run, commitWith);
      if (!ended) {
        ended = true;
        await answer(client.query('COMMIT'));
      }
      return result;
    } catch (error) {
      if (!ended) await client.query('ROLLBACK').catch(broke);
      // a commitWith that failed: its COMMIT ended the transaction (a rollback), unless the connection is gone
      else if (client.getTransactionStatus() !== 'I') broke(error as Error);
      throw error;
    }
  });
}

/** Closes the pool (tests and benchmarks; processes exit without it). */
export async function closeSqlPool(): Promise<void> {
  const cached = globalForPool.witnessSqlPool;
  globalForPool.witnessSqlPool = undefined;
  await cached?.pool.end();
}

/** True for a unique violation (PostgreSQL 23505) of the named constraint (any when omitted). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' && (!constraint || e.constraint === constraint);
}
