import { db } from '../../db/client';

/**
 * The reviewer's home: open campaigns they may work on (their expertise covers the required
 * tags), with how many items are still open to them (not those whose trajectories they uploaded,
 * unless the project allows self-review: the claim's rule) and how many they did today. A fixed
 * number of queries whatever the number of campaigns.
 */
export async function reviewerQueues(reviewer: { id: string; expertise: string[]; projectIds: string[] | null }, now: Date) {
  const open = (
    await db().campaign.findMany({
      // membership (issue 14): only campaigns of the projects the reviewer belongs to (null: an admin, every project)
      where: { status: 'open', ...(reviewer.projectIds === null ? {} : { projectId: { in: reviewer.projectIds } }) },
      select: { id: true, name: true, mode: true, overlap: true, requiredExpertise: true, project: { select: { slug: true, name: true } } },
      orderBy: { createdAt: 'asc' },
    })
  ).filter((c) => c.requiredExpertise.every((tag) => reviewer.expertise.includes(tag)));
  if (open.length === 0) return [];
  const ids = open.map((c) => c.id);
  const startOfDay = new Date(now);
  startOfDay.setUTCHours(0, 0, 0, 0);
  const counts = await db().$queryRaw<{ campaignId: string; available: bigint; total: bigint; doneToday: bigint; doneTotal: bigint }[]>`
    SELECT ci."campaignId",
           count(*) FILTER (WHERE ci.selected AND ci."activeCount" < c.overlap AND a.id IS NULL AND (
             coalesce((p.settings->>'allowSelfReview')::boolean, false)
             OR NOT EXISTS (SELECT 1 FROM trajectory ut WHERE ut.id IN (ci."trajectoryId", ci."trajectoryBId") AND ut."importedById" = ${reviewer.id})
           )) AS available,
           count(*) FILTER (WHERE ci.selected) AS total,
           count(*) FILTER (WHERE a.status = 'submitted' AND a."finishedAt" >= ${startOfDay}) AS "doneToday",
           count(*) FILTER (WHERE a.status = 'submitted') AS "doneTotal"
    FROM campaign_item ci
    JOIN campaign c ON c.id = ci."campaignId"
    JOIN project p ON p.id = c."projectId"
    LEFT JOIN assignment a ON a."campaignItemId" = ci.id AND a."reviewerId" = ${reviewer.id}
    WHERE ci."campaignId" = ANY(${ids})
    GROUP BY ci."campaignId"`;
  const byId = new Map(counts.map((r) => [r.campaignId, r]));
  return open.map((c) => {
    const r = byId.get(c.id);
    return {
      ...c,
      available: Number(r?.available ?? 0),
      doneToday: Number(r?.doneToday ?? 0),
      doneTotal: Number(r?.doneTotal ?? 0),
      totalItems: Number(r?.total ?? 0),
    };
  });
}
