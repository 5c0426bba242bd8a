import { z } from 'zod';
import { writeAudit } from '../auth/queries/audit';
import { AppError } from '../errors';
import { updateCampaignStatus } from './queries/campaign-status';

export const campaignStatusInput = z.object({ status: z.enum(['open', 'closed']) });

/**
 * Opens or closes a campaign (audited: `campaign.open` / `campaign.close`). Closing stops claims,
 * submits and revisions (the review functions check the status); reopening lets reviewers
 * continue. The same status twice is a no-op.
 */
export async function setCampaignStatus(campaignId: string, status: 'open' | 'closed', actorId: string | null, now: Date) {
  const result = await updateCampaignStatus(campaignId, status, now, (tx, campaign) =>
    writeAudit(tx, {
      actorId,
      action: `campaign.${status === 'open' ? 'open' : 'close'}`,
      targetType: 'campaign',
      targetId: campaignId,
      projectId: campaign.projectId,
    }),
  );
  if (!result) throw new AppError('NOT_FOUND', 'No such campaign');
  return result;
}
