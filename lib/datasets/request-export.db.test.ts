import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../db/client';
import { resetDatabase } from '../db/test/reset';
import { seedLabelledProject } from '../db/test/seed-labels';
import { env } from '../env';
import { isAppError } from '../errors';
import { pendingJobLimits } from '../pending-job-limits';
import { installQueue, stopQueueClient } from '../queue/boss';
import { datasetExportJob } from '../queue/jobs/dataset-export';
import { requestExport } from './request-export';

/** Heavy jobs (issue 39 row 7): identical export requests join the queued one; one person's pending exports are capped. */
describe('export requests: joined while queued, limited per person', () => {
  beforeEach(async () => {
    await resetDatabase();
    await installQueue(env().DATABASE_URL!, [datasetExportJob]);
    // the requesters (audit rows name them)
    await db().user.createMany({
      data: ['lead-a', 'lead-b', 'lead-c'].map((id) => ({ id, name: id, email: `${id}@example.test`, role: 'lead' as const })),
    });
  });
  afterAll(stopQueueClient);

  const queuedExportJobs = async () =>
    Number(
      (await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM pgboss.job WHERE name = 'dataset.export' AND state = 'created'`)[0]!
        .n,
    );

  it('30 concurrent identical requests: one export, one queued job, 29 joins; a different definition is its own', async () => {
    const seeded = await seedLabelledProject({ tasks: 2, evalTasks: 1 });
    const url = env().DATABASE_URL!;
    const definition = {
      projectId: seeded.projectId,
      format: 'trl-dpo' as const,
      campaignId: seeded.pairwiseCampaignId,
      split: 'train' as const,
    };
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => requestExport(url, definition, i % 2 ? 'lead-a' : 'lead-b')));
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(results.filter((r) => !r.joined).length).toBe(1);
    expect(await db().export.count()).toBe(1);
    expect(await queuedExportJobs()).toBe(1);
    expect(await db().auditLog.count({ where: { action: 'dataset.export' } })).toBe(1);
    // the same definition with its keys in another order and defaults spelt out: still the same
    const spelt = await requestExport(
      url,
      { split: 'train', campaignId: seeded.pairwiseCampaignId, format: 'trl-dpo', projectId: seeded.projectId, minReviews: 1 },
      'lead-c',
    );
    expect(spelt).toMatchObject({ id: results[0]!.id, joined: true });
    // another threshold is another definition
    const other = await requestExport(url, { ...definition, minAgreement: 0.9 }, 'lead-a');
    expect(other.joined).toBe(false);
    expect(other.id).not.toBe(results[0]!.id);
    // once the queued one has started, an identical request is a new version (the running one may have read its labels)
    await db().export.updateMany({ where: { id: results[0]!.id }, data: { status: 'running' } });
    const after = await requestExport(url, definition, 'lead-b');
    expect(after.joined).toBe(false);
    expect(after.id).not.toBe(results[0]!.id);
  });

  it('one person may have the limit of exports pending: the next is refused with 429 naming it; a join, another person, a finished one free it', async () => {
    const seeded = await seedLabelledProject({ tasks: 2, evalTasks: 1 });
    const url = env().DATABASE_URL!;
    const limit = pendingJobLimits.exports;
    const ask = (minAgreement: number, who: string) =>
      requestExport(url, { projectId: seeded.projectId, format: 'trl-kto', split: 'train', minAgreement }, who);
    // limit + 3 different definitions at once by one person
    const results = await Promise.allSettled(Array.from({ length: limit + 3 }, (_, i) => ask(i / 100, 'lead-a')));
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(ok.length).toBe(limit);
    expect(refused.length).toBe(3);
    for (const error of refused) {
      expect(isAppError(error) && error.code).toBe('RATE_LIMITED');
      expect((error as Error).message).toBe(
        `You have ${limit} exports pending (queued or running), the most one person may have at once is ${limit}: wait for one to finish, then ask again.`,
      );
      expect(isAppError(error) && error.details).toMatchObject({ limit: 'pending-exports', max: limit, pending: limit });
    }
    expect(await db().export.count({ where: { createdById: 'lead-a' } })).toBe(limit);
    const [first] = await db().export.findMany({ where: { createdById: 'lead-a' }, select: { id: true, params: true }, take: 1 });
    // at the limit: an identical request joins, another person is not refused
    const minAgreement = (first!.params as { minAgreement: number }).minAgreement;
    expect(await ask(minAgreement, 'lead-a')).toMatchObject({ id: first!.id, joined: true });
    expect((await ask(0.5, 'lead-b')).joined).toBe(false);
    await expect(ask(0.6, 'lead-a')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    // one finishes: the next is queued
    await db().export.updateMany({ where: { id: first!.id }, data: { status: 'done' } });
    expect((await ask(0.6, 'lead-a')).joined).toBe(false);
  });
});
