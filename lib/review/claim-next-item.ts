import { randomInt, randomUUID } from 'node:crypto';
import { requireProjectRole, type ProjectAccess } from '../auth/project-access';
import { inSqlTransaction } from '../db/sql';
import { AppError } from '../errors';
import { readAssignmentViewRow, type PrereadView } from './queries/assignment-view';
import { claimSlot, countClaimableItems, expireLeases, readClaimCampaign } from './queries/assignments';

export interface Claim {
  assignmentId: string;
  campaignItemId: string;
  leaseExpiresAt: Date;
  swapSides: boolean;
  resumed: boolean;
  mode: 'single' | 'pairwise';
  /** with `withView`: the blind view's row, read in the claim's transaction (lib/review/queries/assignment-view.ts) */
  view?: PrereadView;
}

/** Who claims: their id and expertise; with `access` (the API and the studio pass the caller's), the campaign's project must be one they review in. */
export interface Claimant {
  id: string;
  expertise: string[];
  /** the caller's project access (lib/auth/project-access.ts), checked against the campaign's project in the claim's first statement */
  access?: ProjectAccess;
}

/** Tries of a claim (each while a free slot is left), the first SKIPPING_ATTEMPTS passing over locked rows, the others waiting for them. */
const CLAIM_ATTEMPTS = 20;
const SKIPPING_ATTEMPTS = 2;

/**
 * Hands a reviewer their next item in a campaign, or null when none is left for them. It
 * triggers no job: the videos' props are prepared when the campaign opens (and on first sight).
 *
 * Rules, enforced in one transaction: a reviewer never gets an item twice (unique
 * item+reviewer), never an item that already has k live claims or reviews (the item's
 * `activeCount` is raised only by a conditional UPDATE that re-checks `activeCount < k` on the
 * locked row, so two reviewers clicking at once cannot both take the k-th slot), only when
 * their expertise covers the campaign's required tags (else FORBIDDEN), only while the campaign
 * is open (else CONFLICT), only in a project they review in (when `access` is given: a campaign
 * of another project answers NOT_FOUND, as if absent), and expired claims go back to the pool.
 * A reviewer holds at most one live claim per campaign: their claims in one campaign take turns
 * (an advisory lock on reviewer + campaign, taken with the campaign's row), so eight clicks at
 * once get the same claim back, resumed. Only the items the campaign's draw selected are handed
 * out (a random or active campaign keeps the others as the population its estimates cover),
 * fewest reviews first and, within a review count, in the items' random queue rank (drawn once
 * per item) shuffled per reviewer among the next few, so the items reviewed so far are a random
 * part of the selected ones (lib/insight/queries/insight-estimate-rows.ts relies on it) and
 * concurrent reviewers spread over different rows instead of queueing on one
 * (lib/review/queries/assignments.ts CLAIM_STATEMENT).
 *
 * Round trips: BEGIN with the campaign + lock + whether any lease lapsed, the expiry of lapsed
 * leases (only when one did), then one statement that resumes the live claim or picks, leases
 * and records a new one (an index walk of campaign_item's queue index, not a scan of the
 * campaign), then COMMIT; with `withView` (the API, which answers the claim with its blind
 * view) the view's statement goes with the COMMIT, so the claim and its answer take three.
 */
export async function claimNextItem(
  campaignId: string,
  reviewer: Claimant,
  now: Date,
  options: { withView?: boolean } = {},
): Promise<Claim | null> {
  return inSqlTransaction(async (run, commitWith) => {
    const campaign = await readClaimCampaign(run, campaignId, reviewer.id, now);
    if (!campaign) throw new AppError('NOT_FOUND', 'No such campaign');
    if (reviewer.access) requireProjectRole(reviewer.access, campaign.projectId, 'reviewer', 'campaign');
    if (campaign.status !== 'open') throw new AppError('CONFLICT', 'This campaign is not open for reviews');
    const missing = campaign.requiredExpertise.filter((tag) => !reviewer.expertise.includes(tag));
    if (missing.length > 0) throw new AppError('FORBIDDEN', `This campaign needs ${missing.join(', ')} expertise`);

    if (campaign.lapsed) await expireLeases(run, campaignId, now);

    const leaseExpiresAt = new Date(now.getTime() + campaign.leaseSeconds * 1000);
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const row = await claimSlot(
        run,
        {
          campaignId,
          reviewerId: reviewer.id,
          now,
          overlap: campaign.overlap,
          assignmentId: randomUUID(),
          leaseExpiresAt,
          swapSides: campaign.mode === 'pairwise' ? randomInt(2) === 1 : false,
          allowSelfReview: campaign.allowSelfReview,
        },
        // the first tries pass over rows a concurrent claim holds; then wait for them, so that "nothing left" is never said
        // while a slot is only locked (a reviewer told so stops; with eight reviewers on a few items five skipping tries
        // could all meet locked rows: lib/insight/queries/insight-summary.db.test.ts saw a reviewer stop one review short)
        attempt >= SKIPPING_ATTEMPTS,
      );
      if (row)
        return {
          assignmentId: row.id,
          campaignItemId: row.campaignItemId,
          leaseExpiresAt: row.leaseExpiresAt,
          swapSides: row.swapSides,
          resumed: row.resumed,
          mode: campaign.mode,
          ...(options.withView ? { view: await readAssignmentViewRow(commitWith, row.id, true) } : {}),
        };
      // nothing free right now, or a concurrent claim took the last slot: look again while any is left
      const left = await countClaimableItems(run, campaignId, reviewer.id, campaign.overlap, campaign.allowSelfReview);
      if (!left) return null;
    }
    return null;
  });
}
