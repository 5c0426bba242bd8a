import { db } from '../../db/client';

/**
 * What a blind read of one of a campaign's trajectories needs of the campaign: its project,
 * blind settings and pacing, and whether the trajectory is one of its items (either side of a
 * pair). Null when there is no such campaign.
 */
export async function campaignBlindSource(campaignId: string, trajectoryId: string) {
  const campaign = await db().campaign.findUnique({ where: { id: campaignId }, select: { projectId: true, blind: true, pacing: true } });
  if (!campaign) return null;
  const item = await db().campaignItem.findFirst({
    where: { campaignId, OR: [{ trajectoryId }, { trajectoryBId: trajectoryId }] },
    select: { id: true },
  });
  return { ...campaign, isItem: item !== null };
}
