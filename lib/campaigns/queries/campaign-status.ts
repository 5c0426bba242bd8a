import { z } from 'zod';
import { AppError } from '../../errors';
import { writeAudit } from '../../auth/queries/audit';
import { db } from '../../db/client';

export const campaignStatusInput = z.object({ status: z.enum(['open', 'closed']) });

/**
 * Opens or closes a campaign. Closing stops claims, submits and revisions (the review
 * functions check the status); reopening lets reviewers continue. The same status twice is a no-op.
 */
export async function setCampaignStatus(campaignId: string, status: 'open' | 'closed', actorId: string | null, now: Date) {
  return db().$transaction(async (tx) => {
    const campaign = await tx.campaign.findUnique({ where: { id: campaignId }, select: { id: true, status: true, projectId: true } });
    if (!campaign) throw new AppError('NOT_FOUND', 'No such campaign');
    if (campaign.status === status) return { id: campaign.id, status, changed: false };
    const updated = await tx.campaign.update({
      where: { id: campaignId },
      data: { status, closedAt: status === 'closed' ? now : null },
      select: { id: true, status: true },
    });
    await writeAudit(tx, {
      actorId,
      action: `campaign.${status === 'open' ? 'open' : 'close'}`,
      targetType: 'campaign',
      targetId: campaignId,
      projectId: campaign.projectId,
    });
    return { id: updated.id, status: updated.status, changed: true };
  });
}
