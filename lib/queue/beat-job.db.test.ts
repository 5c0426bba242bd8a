import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { env } from '../env';
import { resetDatabase } from '../db/test/reset';
import { beatJob, createBoss, findJobs, installQueue, stopQueueClient } from './boss';
import { defineJob } from './job-contract';

/**
 * pg-boss 10 has no job heartbeats: beatJob makes its maintenance fail (and retry) an active job
 * heartbeatSeconds after the job's last beat, instead of after the contract's expireInSeconds.
 */
const beatingJob = defineJob({
  name: 'test.beating',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 1, backoff: false },
  expireInSeconds: 3600,
  heartbeatSeconds: 10,
  key: () => 'beating',
});

describe('a job heartbeat on pg-boss 10', () => {
  const boss = createBoss(env().DATABASE_URL!, 'installer');
  beforeEach(async () => {
    await resetDatabase();
    await installQueue(env().DATABASE_URL!, [beatingJob], () => {});
    await boss.start();
  });
  afterEach(async () => {
    await boss.stop({ graceful: false });
    await stopQueueClient();
  });

  async function deadlineSeconds(id: string): Promise<number> {
    const { rows } = await boss
      .getDb()
      .executeSql(`SELECT extract(epoch FROM started_on + expire_in - now())::float AS left FROM pgboss.job WHERE id = $1`, [id]);
    return (rows[0] as { left: number }).left;
  }

  it('retries a job whose beats stopped, heartbeatSeconds after the last one', { timeout: 30_000 }, async () => {
    const id = (await boss.send(beatingJob.name, {}, { singletonKey: 'beating' }))!;
    const [job] = (await boss.fetch(beatingJob.name))!;
    expect(job?.id).toBe(id);
    // taken, not yet beating: pg-boss would wait the whole hour
    expect(await deadlineSeconds(id)).toBeGreaterThan(3590);
    await beatJob(boss, beatingJob, id);
    const left = await deadlineSeconds(id);
    expect(left).toBeGreaterThan(8);
    expect(left).toBeLessThanOrEqual(10);
    // its worker "dies": no more beats. Maintenance before the deadline leaves it running...
    await boss.expire();
    expect((await findJobs(boss, beatingJob.name, { id }))[0]?.state).toBe('active');
    // ...and after it fails the attempt and queues the retry
    await new Promise((r) => setTimeout(r, (left + 0.5) * 1000));
    await boss.expire();
    const [after] = await findJobs(boss, beatingJob.name, { id });
    expect(after?.state).toBe('retry');
    // the retry keeps the contract's expiry (the worker's own timeout for the next attempt)
    const { rows } = await boss.getDb().executeSql(`SELECT extract(epoch FROM expire_in)::int AS s FROM pgboss.job WHERE id = $1`, [id]);
    expect((rows[0] as { s: number }).s).toBe(3600);
  });
});
