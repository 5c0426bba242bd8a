import { db } from './client';

/**
 * The reviewer's home: open campaigns they may work on (their expertise covers the required
 * tags), with how many items are still open to them and how many they did today.
 */
export async function reviewerQueues(reviewer: { id: string; expertise: string[] }, now: Date) {
  const campaigns = await db().campaign.findMany({
    where: { status: 'open', requiredExpertise: { isEmpty: false } },
    select: { id: true, requiredExpertise: true },
  });
  const excluded = campaigns.filter((c) => !c.requiredExpertise.every((t) => reviewer.expertise.includes(t))).map((c) => c.id);
  const open = await db().campaign.findMany({
    where: { status: 'open', id: { notIn: excluded } },
    select: { id: true, name: true, mode: true, overlap: true, requiredExpertise: true, project: { select: { slug: true, name: true } } },
    orderBy: { createdAt: 'asc' },
  });
  const startOfDay = new Date(now);
  startOfDay.setUTCHours(0, 0, 0, 0);
  const out = [];
  for (const c of open) {
    const [available, doneToday, doneTotal, total] = await Promise.all([
      db().campaignItem.count({
        where: { campaignId: c.id, activeCount: { lt: c.overlap }, assignments: { none: { reviewerId: reviewer.id } } },
      }),
      db().assignment.count({ where: { reviewerId: reviewer.id, status: 'submitted', finishedAt: { gte: startOfDay }, item: { campaignId: c.id } } }),
      db().assignment.count({ where: { reviewerId: reviewer.id, status: 'submitted', item: { campaignId: c.id } } }),
      db().campaignItem.count({ where: { campaignId: c.id } }),
    ]);
    out.push({ ...c, available, doneToday, doneTotal, totalItems: total });
  }
  return out;
}
