import { createRequire } from 'node:module';
import PgBoss from 'pg-boss';
import pg from 'pg';
import type { JobContract } from '../queue/job-contract';
import { QUEUE_SCHEMA, queueOptions } from '../queue/queue-schema';

/**
 * A queue schema written by a newer pg-boss than ours (Witness ran pg-boss 12, schema version 46,
 * before it moved to pg-boss 10 for Node 20; 10 would neither migrate nor read it). On start, in
 * one transaction: the old schema is renamed aside (`pgboss_v46_20261206`, kept for inspection
 * and its finished jobs), pg-boss 10 installs its own schema and our queues, and every job not
 * yet finished (created, retry, active) is copied in as created, with its id, data, key, start
 * time, priority, retry settings and retry count. Job handlers are idempotent, so running an
 * interrupted active job again is safe. A second unfinished job with the same key (one queued and
 * one active) is the same work under a 'stately' queue and is merged; jobs of queues this version
 * does not have stay in the aside schema. Either all of it happens or none of it.
 */

const require = createRequire(import.meta.url);
/** The schema version this pg-boss writes (24 for pg-boss 10.x). */
export const QUEUE_SCHEMA_VERSION: number = (require('pg-boss/version.json') as { schema: number }).schema;

export interface MovedAside {
  fromVersion: number;
  asideSchema: string;
  copied: number;
  merged: number;
  leftBehind: number;
}

/** The installed queue schema's version; null when there is none. */
async function installedVersion(client: pg.Client): Promise<number | null> {
  const { rows } = await client.query<{ table: string | null }>(`SELECT to_regclass($1) AS table`, [`${QUEUE_SCHEMA}.version`]);
  if (!rows[0]?.table) return null;
  const version = await client.query<{ version: string | number }>(`SELECT version FROM ${QUEUE_SCHEMA}.version`);
  return version.rows.length ? Number(version.rows[0]!.version) : null;
}

/** pg-boss's own construction SQL without its BEGIN/COMMIT, to run inside our transaction. */
function constructionSql(): string {
  const sql = PgBoss.getConstructionPlans(QUEUE_SCHEMA).trim();
  const match = /^BEGIN;([\s\S]*);\s*COMMIT;?$/.exec(sql);
  if (!match)
    throw new Error(
      `pg-boss ${QUEUE_SCHEMA_VERSION}'s construction plan no longer reads BEGIN; ...; COMMIT;: update lib/db/newer-queue-schema.ts`,
    );
  return match[1]!;
}

export function asideSchemaName(version: number, now: Date): string {
  return `${QUEUE_SCHEMA}_v${version}_${now.toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/**
 * Moves a newer pg-boss's schema aside and copies its unfinished jobs into a fresh one (see the
 * top of this file); does nothing (null) when the installed schema is absent or not newer. Safe
 * to run from several processes at once: the second waits for the first and then finds nothing to do.
 */
export async function moveNewerQueueSchemaAside(
  databaseUrl: string,
  contracts: readonly JobContract[],
  log: (line: string) => void,
  now: Date = new Date(),
): Promise<MovedAside | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // cheap check first, without a transaction
    const seen = await installedVersion(client);
    if (seen === null || seen <= QUEUE_SCHEMA_VERSION) return null;
    await client.query('BEGIN');
    try {
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('witness.queue-schema-aside'))`);
      const fromVersion = await installedVersion(client);
      if (fromVersion === null || fromVersion <= QUEUE_SCHEMA_VERSION) {
        await client.query('ROLLBACK');
        return null;
      }
      let asideSchema = asideSchemaName(fromVersion, now);
      for (let n = 2; (await client.query(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [asideSchema])).rowCount; n++)
        asideSchema = `${asideSchemaName(fromVersion, now)}_${n}`;
      await client.query(`ALTER SCHEMA ${QUEUE_SCHEMA} RENAME TO ${asideSchema}`);
      await client.query(constructionSql());
      // the queues with their contracts' settings, as ensureQueue creates them
      for (const contract of contracts)
        await client.query(`SELECT ${QUEUE_SCHEMA}.create_queue($1, $2::json)`, [contract.name, JSON.stringify(queueOptions(contract))]);
      const names = contracts.map((c) => c.name);
      const unfinished = await client.query<{ total: string; known: string }>(
        `SELECT count(*) AS total, count(*) FILTER (WHERE name = ANY($1::text[])) AS known
         FROM ${asideSchema}.job WHERE state IN ('created', 'retry', 'active')`,
        [names],
      );
      const copied = await client.query(
        `INSERT INTO ${QUEUE_SCHEMA}.job (id, name, priority, data, state, retry_limit, retry_count, retry_delay, retry_backoff,
                                          start_after, singleton_key, singleton_on, expire_in, created_on, keep_until, policy)
         SELECT j.id, j.name, j.priority, j.data, 'created', j.retry_limit, j.retry_count, j.retry_delay, j.retry_backoff,
                j.start_after, j.singleton_key, j.singleton_on, make_interval(secs => q.expire_seconds), j.created_on,
                greatest(j.keep_until, now() + interval '14 days'), q.policy
         FROM ${asideSchema}.job j JOIN ${QUEUE_SCHEMA}.queue q ON q.name = j.name
         WHERE j.state IN ('created', 'retry', 'active')
         ORDER BY j.created_on, j.id
         ON CONFLICT DO NOTHING`,
      );
      await client.query(`COMMENT ON SCHEMA ${asideSchema} IS $$${asideComment(fromVersion, now)}$$`);
      await client.query('COMMIT');
      const known = Number(unfinished.rows[0]!.known);
      const result: MovedAside = {
        fromVersion,
        asideSchema,
        copied: copied.rowCount ?? 0,
        merged: known - (copied.rowCount ?? 0),
        leftBehind: Number(unfinished.rows[0]!.total) - known,
      };
      log(
        `[queue] the queue schema was written by a newer pg-boss (schema v${fromVersion}, this one writes v${QUEUE_SCHEMA_VERSION}): ` +
          `moved it aside to ${asideSchema} and copied its ${result.copied} unfinished jobs into a new one` +
          (result.merged ? `, ${result.merged} merged into a job with the same key` : '') +
          (result.leftBehind ? `, ${result.leftBehind} of queues this version does not have left there` : ''),
      );
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  } finally {
    await client.end();
  }
}

function asideComment(version: number, now: Date): string {
  return `Witness: the pg-boss schema v${version} moved aside on ${now.toISOString()}; its unfinished jobs were copied into ${QUEUE_SCHEMA}.`;
}
