import { db } from './client';

export async function writeWorkerHeartbeat(input: { id: string; hostname: string; pid: number; queues: string[] }): Promise<void> {
  const now = new Date();
  await db().workerHeartbeat.upsert({
    where: { id: input.id },
    create: { ...input, startedAt: now, seenAt: now },
    update: { seenAt: now },
    select: { id: true },
  });
}

export async function removeWorkerHeartbeat(id: string): Promise<void> {
  await db().workerHeartbeat.deleteMany({ where: { id } });
}

/** Workers seen within `withinMs`. */
export async function liveWorkers(now: Date, withinMs = 30_000) {
  return db().workerHeartbeat.findMany({
    where: { seenAt: { gte: new Date(now.getTime() - withinMs) } },
    select: { id: true, hostname: true, pid: true, seenAt: true, queues: true },
    orderBy: { startedAt: 'asc' },
  });
}
