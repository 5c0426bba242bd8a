import type { Prisma, VideoPacing } from '@prisma/client';
import { db } from '../../db/client';

/** A campaign's pacing, blind setting and the distinct trajectories of its selected items (A and B sides); null when there is no such campaign. */
export async function campaignVideoTargets(
  campaignId: string,
): Promise<{ pacing: VideoPacing; blind: Prisma.JsonValue; trajectoryIds: string[] } | null> {
  const campaign = await db().campaign.findUnique({
    where: { id: campaignId },
    select: {
      pacing: true,
      blind: true,
      items: { where: { selected: true }, select: { trajectoryId: true, trajectoryBId: true }, orderBy: { queueRank: 'asc' } },
    },
  });
  if (!campaign) return null;
  const ids = new Set<string>();
  for (const item of campaign.items) {
    ids.add(item.trajectoryId);
    if (item.trajectoryBId) ids.add(item.trajectoryBId);
  }
  return { pacing: campaign.pacing, blind: campaign.blind, trajectoryIds: [...ids] };
}
