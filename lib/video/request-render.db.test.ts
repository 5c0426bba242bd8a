import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTrajectory } from '../formats/build-trajectory';
import { prepareTrajectory } from '../ingest/prepare-trajectory';
import { env } from '../env';
import { db } from '../db/client';
import { resetDatabase } from '../db/test/reset';
import { ensureProject } from '../trajectories/queries/projects';
import { storeTrajectory } from '../ingest/store-trajectory';
import { isAppError } from '../errors';
import { pendingJobLimits } from '../pending-job-limits';
import { installQueue, stopQueueClient } from '../queue/boss';
import { jobContracts } from '../queue/job-list';
import { requestRender } from './request-render';

/** Heavy jobs (issue 39 row 7): one person's render requests are capped while pending; a pending render is joined. */
describe('render requests: joined while pending, limited per person', () => {
  beforeEach(async () => {
    await resetDatabase();
    await installQueue(env().DATABASE_URL!, jobContracts);
  });
  afterAll(stopQueueClient);

  async function trajectories(n: number): Promise<string[]> {
    const project = await ensureProject({ slug: 'renders', name: 'renders' });
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const t = buildTrajectory({ format: 'openai', task: { name: `task-${i}` }, steps: [{ source: 'agent', text: `step ${i}` }] });
      ids.push((await storeTrajectory(project.id, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null })).id);
    }
    return ids;
  }

  const queuedRenderJobs = async () =>
    Number(
      (await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM pgboss.job WHERE name = 'video.render' AND state = 'created'`)[0]!.n,
    );

  it('24 concurrent renders by one person: the limit is queued, the rest answered 429 naming it; joins and others are not refused', async () => {
    const url = env().DATABASE_URL!;
    const ids = await trajectories(24);
    const limit = pendingJobLimits.renders;
    const results = await Promise.allSettled(ids.map((id) => requestRender(url, id, 'skim', 'user-a')));
    const done = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(done.length).toBe(limit);
    expect(refused.length).toBe(24 - limit);
    for (const error of refused) {
      expect(isAppError(error) && error.code).toBe('RATE_LIMITED');
      expect((error as Error).message).toBe(
        `You have ${limit} renders pending (queued or running), the most one person may have at once is ${limit}: wait for one to finish, then ask again.`,
      );
    }
    expect(await db().video.count({ where: { requestedById: 'user-a', status: 'queued' } })).toBe(limit);
    expect(await queuedRenderJobs()).toBe(limit);

    // at the limit, asking again for a render already queued joins it: nothing new, no refusal
    const queuedIds = (await db().video.findMany({ where: { requestedById: 'user-a' }, select: { trajectoryId: true } })).map(
      (v) => v.trajectoryId,
    );
    const again = await requestRender(url, queuedIds[0]!, 'skim', 'user-a');
    expect(again.joined).toBe(true);
    // another person's requests count against their own limit, and join user-a's pending renders
    const other = await requestRender(url, queuedIds[1]!, 'skim', 'user-b');
    expect(other).toMatchObject({ joined: true, status: 'queued' });
    const refusedId = ids.find((id) => !queuedIds.includes(id))!;
    expect(await requestRender(url, refusedId, 'skim', 'user-b')).toMatchObject({ joined: false, status: 'queued' });
    // one of user-a's finishes: the next request is queued
    await db().video.updateMany({ where: { trajectoryId: queuedIds[2]! }, data: { status: 'done' } });
    const next = ids.find((id) => !queuedIds.includes(id) && id !== refusedId)!;
    expect(await requestRender(url, next, 'skim', 'user-a')).toMatchObject({ joined: false, status: 'queued' });
    expect(await queuedRenderJobs()).toBe(limit + 2);
  });
});
