import { requireProjectRoleFor } from '../auth/require-project-role';
import type { SessionUser } from '../auth/session-user';
import { readCampaignSnapshot } from '../campaigns/read-campaign-snapshot';
import type { DisagreementsSnapshotPayload } from '../campaigns/refresh-campaign-snapshots';
import { adjudicatedInQueue, disagreementPage, snapshotCampaign } from '../campaigns/queries/campaign-snapshots';
import { disagreementsVariant } from '../campaigns/snapshot-variant';
import { AppError } from '../errors';
import type { DashboardOptions } from './dashboard';
import { reopenedItems } from './queries/adjudications';

/** Rows a page of the disagreement queue shows. */
export const DISAGREEMENTS_PER_PAGE = 100;

/**
 * A campaign's disagreement queue for a lead of its project (admins: any): items whose answers
 * split beyond the thresholds, worst first. The queue is computed from every current review (1M
 * at bench scale): this reads one page (`page`, DISAGREEMENTS_PER_PAGE a page) of the stored
 * snapshot's rows (the campaign.snapshot job keeps it), adjudicated as of now, and the items a
 * reviewer's revision reopened. NOT_FOUND outside the caller's projects or when absent, FORBIDDEN
 * for a reviewer there.
 */
export async function viewDisagreementQueue(actor: SessionUser, campaignId: string, options: DashboardOptions, page: number, now: Date) {
  await requireProjectRoleFor(actor, 'campaign', campaignId, 'lead');
  const variant = disagreementsVariant(options);
  const [campaign, view, reopened] = await Promise.all([
    snapshotCampaign(campaignId),
    readCampaignSnapshot<DisagreementsSnapshotPayload>(campaignId, variant, now),
    reopenedItems(campaignId),
  ]);
  if (!campaign) throw new AppError('NOT_FOUND', 'No such campaign');
  const snapshot = view.snapshot;
  const [rows, adjudicated] = snapshot
    ? await Promise.all([
        disagreementPage(snapshot.id, page * DISAGREEMENTS_PER_PAGE, DISAGREEMENTS_PER_PAGE),
        adjudicatedInQueue(snapshot.id),
      ])
    : [[], 0];
  return { campaign, view, variant, reopened, rows, adjudicated };
}
