import type { Prisma } from '@prisma/client';
import { db } from '../../db/client';

/** The campaign's columns that head both its row in the list and its detail (lib/campaigns/queries/campaign-detail.ts). */
export const campaignHeadSelect = {
  id: true,
  name: true,
  mode: true,
  status: true,
  overlap: true,
  requiredExpertise: true,
} as const satisfies Prisma.CampaignSelect;

/** Those columns as the list's row and the detail answer them, in that order. */
export function campaignHead(c: Prisma.CampaignGetPayload<{ select: typeof campaignHeadSelect }>) {
  return { id: c.id, name: c.name, mode: c.mode, status: c.status, overlap: c.overlap, requiredExpertise: c.requiredExpertise };
}

/**
 * Campaigns for the lead's list and GET /api/v1/campaigns, newest first, with their progress:
 * reviews done of items × k. Two queries whatever the number of campaigns; JSON-safe.
 */
export async function listCampaigns(scope: { projectIds: string[] | null; projectId?: string }) {
  const visible = scope.projectIds === null ? {} : { projectId: { in: scope.projectIds } };
  const campaigns = await db().campaign.findMany({
    where: scope.projectId ? { AND: [visible, { projectId: scope.projectId }] } : visible,
    select: {
      ...campaignHeadSelect,
      sampling: true,
      createdAt: true,
      closedAt: true,
      project: { select: { slug: true, name: true } },
      rubricVersion: { select: { version: true, rubric: { select: { name: true } } } },
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
  });
  if (campaigns.length === 0) return [];
  const ids = campaigns.map((c) => c.id);
  const counts = await db().$queryRaw<{ campaignId: string; items: bigint; population: bigint; reviews: bigint; complete: bigint }[]>`
    SELECT ci."campaignId",
           count(*) FILTER (WHERE ci.selected) AS items,
           count(*) AS population,
           coalesce(sum(LEAST(ci."reviewCount", c.overlap)), 0) AS reviews,
           count(*) FILTER (WHERE ci."reviewCount" >= c.overlap) AS complete
    FROM campaign_item ci JOIN campaign c ON c.id = ci."campaignId"
    WHERE ci."campaignId" = ANY(${ids})
    GROUP BY ci."campaignId"`;
  const byId = new Map(counts.map((r) => [r.campaignId, r]));
  return campaigns.map((c) => {
    const r = byId.get(c.id);
    const items = Number(r?.items ?? 0);
    return {
      ...campaignHead(c),
      project: c.project,
      rubric: { name: c.rubricVersion.rubric.name, version: c.rubricVersion.version },
      items,
      /** the items the campaign drew from (= items unless it reviews a random or active sample) */
      population: Number(r?.population ?? 0),
      sampling: c.sampling,
      reviewsDone: Number(r?.reviews ?? 0),
      reviewsTarget: items * c.overlap,
      itemsComplete: Number(r?.complete ?? 0),
      createdAt: c.createdAt.toISOString(),
      closedAt: c.closedAt?.toISOString() ?? null,
    };
  });
}
export type CampaignListRow = Awaited<ReturnType<typeof listCampaigns>>[number];

/** The id of the project's campaign with this name (the newest when several share it), or null. */
export async function findCampaignIdByName(projectId: string, name: string): Promise<string | null> {
  const row = await db().campaign.findFirst({ where: { projectId, name }, select: { id: true }, orderBy: { createdAt: 'desc' } });
  return row?.id ?? null;
}
