import { db } from '../../db/client';
import type { AuditStep } from '../../auth/queries/audit';

/**
 * Sets a campaign's status (closed: stamped `closedAt`; open: cleared) in one transaction, where
 * `audit` runs once the status changed (the use-case's audit row). Null when there is no such
 * campaign; the same status twice changes nothing (`changed: false`).
 */
export async function updateCampaignStatus(
  campaignId: string,
  status: 'open' | 'closed',
  now: Date,
  audit: AuditStep<{ projectId: string }>,
) {
  return db().$transaction(async (tx) => {
    const campaign = await tx.campaign.findUnique({ where: { id: campaignId }, select: { id: true, status: true, projectId: true } });
    if (!campaign) return null;
    if (campaign.status === status) return { id: campaign.id, status, changed: false };
    const updated = await tx.campaign.update({
      where: { id: campaignId },
      data: { status, closedAt: status === 'closed' ? now : null },
      select: { id: true, status: true },
    });
    await audit(tx, { projectId: campaign.projectId });
    return { id: updated.id, status: updated.status, changed: true };
  });
}
