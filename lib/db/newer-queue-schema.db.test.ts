import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { env } from '../env';
import { findJobs, installQueue, createBoss } from '../queue/boss';
import { defineJob } from '../queue/job-contract';
import { QUEUE_SCHEMA_VERSION } from './newer-queue-schema';

/**
 * A database whose queue schema pg-boss 12 wrote (fixture: test/pgboss-v12-fixture.sql, the shape
 * of pg-boss 12.38.0's schema v46) is moved aside on install, and its unfinished jobs run on
 * pg-boss 10.
 */
const jobA = defineJob({
  name: 'test.a',
  payload: z.object({ n: z.number() }),
  retry: { limit: 3, delaySeconds: 2, backoff: false },
  expireInSeconds: 120,
  key: (p) => `a:${p.n}`,
});
const jobB = defineJob({
  name: 'test.b',
  payload: z.object({ n: z.number() }),
  retry: { limit: 1, delaySeconds: 1, backoff: false },
  expireInSeconds: 60,
  key: (p) => `b:${p.n}`,
});

const fixture = readFileSync(path.join(import.meta.dirname, 'test/pgboss-v12-fixture.sql'), 'utf8');

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: env().DATABASE_URL! });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function dropQueueSchemas(): Promise<void> {
  const schemas = await sql<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'pgboss%'`);
  for (const { nspname } of schemas) await sql(`DROP SCHEMA "${nspname}" CASCADE`);
}

const A1 = '00000000-0000-4000-8000-00000000000a';
const A2 = '00000000-0000-4000-8000-00000000000b';
const A3 = '00000000-0000-4000-8000-00000000000c';
const B1 = '00000000-0000-4000-8000-0000000000b1';
const B2 = '00000000-0000-4000-8000-0000000000b2';
const DONE = '00000000-0000-4000-8000-0000000000d0';
const OLD = '00000000-0000-4000-8000-0000000000e0';

async function writeV12Jobs(): Promise<void> {
  await sql(fixture);
  await sql(`
    INSERT INTO pgboss.job (id, name, data, state, retry_limit, retry_count, retry_delay, retry_backoff, singleton_key, start_after, priority, created_on, policy, heartbeat_seconds) VALUES
      ('${A1}', 'test.a', '{"n":1}', 'created', 3, 0, 2, false, 'a:1', '2030-01-01T00:00:00Z', 5, now() - interval '3 minutes', 'stately', NULL),
      ('${A2}', 'test.a', '{"n":2}', 'retry',   3, 1, 2, false, 'a:2', now() - interval '1 minute', 0, now() - interval '2 minutes', 'stately', NULL),
      ('${A3}', 'test.a', '{"n":1}', 'active',  3, 2, 2, false, 'a:1', now() - interval '1 minute', 0, now() - interval '1 minute', 'stately', 15),
      ('${B1}', 'test.b', '{"n":7}', 'active',  1, 0, 1, false, 'b:7', now() - interval '1 minute', 0, now() - interval '1 minute', 'stately', 15),
      ('${B2}', 'test.b', '{"n":8}', 'failed',  1, 1, 1, false, 'b:8', now() - interval '1 minute', 0, now() - interval '1 minute', 'stately', NULL),
      ('${DONE}', 'test.a', '{"n":9}', 'completed', 3, 0, 2, false, 'a:9', now(), 0, now() - interval '5 minutes', 'stately', NULL),
      ('${OLD}', 'test.retired', '{}', 'created', 0, 0, 0, false, NULL, now(), 0, now(), 'standard', NULL)`);
}

describe('a queue schema written by pg-boss 12', () => {
  beforeEach(async () => {
    await dropQueueSchemas();
    await writeV12Jobs();
  });
  afterAll(async () => {
    await dropQueueSchemas();
    await installQueue(env().DATABASE_URL!, [], () => {});
  });

  it('is moved aside, and its unfinished jobs are queued again on pg-boss 10 with their settings', async () => {
    const lines: string[] = [];
    await installQueue(env().DATABASE_URL!, [jobA, jobB], (line) => lines.push(line));

    const [version] = await sql<{ version: number }>(`SELECT version FROM pgboss.version`);
    expect(version?.version).toBe(QUEUE_SCHEMA_VERSION);
    const aside = await sql<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'pgboss_v46_%'`);
    expect(aside).toHaveLength(1);
    const asideName = aside[0]!.nspname;
    // the old rows are all still there, finished ones included
    expect((await sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${asideName}.job`))[0]?.n).toBe(7);

    const jobs = await sql<{
      id: string;
      name: string;
      state: string;
      data: unknown;
      singleton_key: string;
      retry_limit: number;
      retry_count: number;
      retry_delay: number;
      priority: number;
      start_after: Date;
      policy: string;
      expire: number;
    }>(
      `SELECT id, name, state, data, singleton_key, retry_limit, retry_count, retry_delay, priority, start_after, policy,
              extract(epoch FROM expire_in)::int AS expire
       FROM pgboss.job ORDER BY id`,
    );
    // A1 (created) and A3 (active, same key a:1) are one job: the older one is kept
    expect(jobs.map((j) => j.id)).toEqual([A1, A2, B1]);
    expect(jobs.every((j) => j.state === 'created' && j.policy === 'stately')).toBe(true);
    const [a1, a2, b1] = jobs;
    expect(a1).toMatchObject({
      name: 'test.a',
      data: { n: 1 },
      singleton_key: 'a:1',
      retry_limit: 3,
      retry_count: 0,
      retry_delay: 2,
      priority: 5,
      expire: 120,
    });
    expect(a1!.start_after.toISOString()).toBe('2030-01-01T00:00:00.000Z');
    expect(a2).toMatchObject({ retry_count: 1, singleton_key: 'a:2' });
    expect(b1).toMatchObject({ name: 'test.b', data: { n: 7 }, retry_limit: 1, expire: 60 });

    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`moved it aside to ${asideName}`);
    expect(lines[0]).toMatch(/copied its 3 unfinished jobs.*1 merged.*1 of queues this version does not have/);

    // pg-boss 10 takes the copied jobs: a worker fetches the one of test.b
    const boss = createBoss(env().DATABASE_URL!, 'producer');
    await boss.start();
    try {
      const fetched = await boss.fetch(jobB.name);
      expect(fetched?.map((j) => j.id)).toEqual([B1]);
      await boss.complete(jobB.name, B1, { ok: true });
      expect((await findJobs(boss, jobB.name, { id: B1 }))[0]?.state).toBe('completed');
      // and the stately key still dedupes: a second send for a:2 while it is queued is refused
      expect(await boss.send(jobA.name, { n: 2 }, { singletonKey: 'a:2' })).toBeNull();
    } finally {
      await boss.stop({ graceful: false });
    }

    // a second install finds nothing newer: no second move, no log line
    await installQueue(env().DATABASE_URL!, [jobA, jobB], (line) => lines.push(line));
    expect(lines).toHaveLength(1);
    expect(await sql(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'pgboss_v46_%'`)).toHaveLength(1);
  });

  it('changes nothing when the copy fails: the pg-boss 12 schema stays in place, whole', async () => {
    // a queue setting PostgreSQL refuses (expire_seconds beyond int) fails the install after the rename and the copy began
    const lines: string[] = [];
    const broken = defineJob({ ...jobA, name: 'test.a', expireInSeconds: Number.MAX_SAFE_INTEGER });
    await expect(installQueue(env().DATABASE_URL!, [broken, jobB], (line) => lines.push(line))).rejects.toThrow();
    expect(lines).toEqual([]);
    const [version] = await sql<{ version: number }>(`SELECT version FROM pgboss.version`);
    expect(version?.version).toBe(46);
    expect((await sql<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job`))[0]?.n).toBe(7);
  });
});
