import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../db/client';
import { readLabelEvents } from '../read-label-events';
import { recordLabelEvent } from './label-events';
import { prismaRun } from '../../db/sql';
import { resetDatabase } from '../../db/test/reset';
import { seedLabelledProject } from '../../db/test/seed-labels';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('label events', () => {
  beforeEach(resetDatabase);

  it('a submit that brings an item to k reviews records `finalised` exactly once per item (the other submits none)', async () => {
    const seeded = await seedLabelledProject({ tasks: 2, evalTasks: 1 });
    const items = await db().campaignItem.findMany({
      where: { campaign: { projectId: seeded.projectId } },
      select: { id: true, reviewCount: true, labelEvents: { select: { kind: true, projectId: true } } },
    });
    expect(items.length).toBe(9); // 3 pairs + 6 single items, 2 reviews each (overlap 2)
    for (const item of items) {
      expect(item.reviewCount).toBe(2);
      expect(item.labelEvents).toEqual([{ kind: 'finalised', projectId: seeded.projectId }]);
    }
  });

  it('a reader never skips an event whose transaction commits late: it waits for in-flight writers', async () => {
    const seeded = await seedLabelledProject({ tasks: 1, evalTasks: 0 });
    await db().labelEvent.deleteMany();
    const [itemA, itemB] = await db().campaignItem.findMany({ select: { id: true }, orderBy: { id: 'asc' }, take: 2 });
    const releaseA = deferred();
    const aHasSeq = deferred();
    // transaction A draws the smaller seq and stays open
    const txA = db().$transaction(
      async (tx) => {
        const seq = await recordLabelEvent(prismaRun(tx), { projectId: seeded.projectId, campaignItemId: itemA!.id, kind: 'finalised' });
        aHasSeq.resolve();
        await releaseA.promise;
        return seq;
      },
      { timeout: 20_000 },
    );
    await aHasSeq.promise;
    // transaction B draws a larger seq and commits first
    const seqB = await db().$transaction((tx) =>
      recordLabelEvent(prismaRun(tx), { projectId: seeded.projectId, campaignItemId: itemB!.id, kind: 'finalised' }),
    );
    // the hazard: a plain "after my cursor" read right now sees B's event and not A's
    const naive = await db().labelEvent.findMany({
      where: { projectId: seeded.projectId },
      select: { seq: true },
      orderBy: { seq: 'asc' },
    });
    expect(naive.map((e) => e.seq)).toEqual([seqB]);
    // the safe read waits until A has ended...
    let settled = false;
    const read = readLabelEvents(seeded.projectId, null, 100).then((rows) => {
      settled = true;
      return rows;
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(settled).toBe(false);
    releaseA.resolve();
    const seqA = await txA;
    expect(seqA).toBeLessThan(seqB);
    // ...and then sees both, in order: no gap it could step over
    expect((await read).map((e) => e.seq)).toEqual([seqA, seqB]);
    expect((await readLabelEvents(seeded.projectId, seqA, 100)).map((e) => e.seq)).toEqual([seqB]);
  });

  it('a writer stuck longer than the lock timeout makes the read fail as unavailable (retried later), not skip', async () => {
    const seeded = await seedLabelledProject({ tasks: 1, evalTasks: 0 });
    const [item] = await db().campaignItem.findMany({ select: { id: true }, take: 1 });
    const release = deferred();
    const started = deferred();
    const tx = db().$transaction(
      async (t) => {
        await recordLabelEvent(prismaRun(t), { projectId: seeded.projectId, campaignItemId: item!.id, kind: 'adjudicated' });
        started.resolve();
        await release.promise;
      },
      { timeout: 20_000 },
    );
    await started.promise;
    await expect(readLabelEvents(seeded.projectId, null, 100, 200)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    // another project's stream is not held up
    const other = await seedLabelledProject({ tasks: 1, evalTasks: 0 });
    expect((await readLabelEvents(other.projectId, null, 100, 200)).length).toBe(3);
    release.resolve();
    await tx;
    expect((await readLabelEvents(seeded.projectId, null, 100)).map((e) => e.kind).at(-1)).toBe('adjudicated');
  });
});
