import { requireProjectRoleFor } from '../auth/require-project-role';
import type { SessionUser } from '../auth/session-user';
import { readCampaignSnapshot } from '../campaigns/read-campaign-snapshot';
import type { AgreementSnapshotPayload } from '../campaigns/refresh-campaign-snapshots';
import { snapshotCampaign } from '../campaigns/queries/campaign-snapshots';
import { agreementVariant } from '../campaigns/snapshot-variant';
import { AppError } from '../errors';
import type { DashboardOptions } from './dashboard';

/**
 * A campaign's agreement dashboard for a lead of its project (admins: any): the campaign's header
 * and the stored snapshot the campaign.snapshot job keeps (the dashboard reads every current
 * review, 1M at bench scale: minutes of CPU), as of its reviews. NOT_FOUND outside the caller's
 * projects or when absent, FORBIDDEN for a reviewer there.
 */
export async function viewAgreementDashboard(actor: SessionUser, campaignId: string, options: DashboardOptions, now: Date) {
  await requireProjectRoleFor(actor, 'campaign', campaignId, 'lead');
  const [campaign, view] = await Promise.all([
    snapshotCampaign(campaignId),
    readCampaignSnapshot<AgreementSnapshotPayload>(campaignId, agreementVariant(options), now),
  ]);
  if (!campaign) throw new AppError('NOT_FOUND', 'No such campaign');
  return { campaign, view };
}
