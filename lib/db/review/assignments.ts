import { randomInt } from 'node:crypto';
import type { Prisma } from '@prisma/client';
import { AppError } from '../../errors';
import { db } from '../infra/client';

type Tx = Prisma.TransactionClient;

export interface Claim {
  assignmentId: string;
  campaignItemId: string;
  leaseExpiresAt: Date;
  swapSides: boolean;
  resumed: boolean;
  mode: 'single' | 'pairwise';
}

/**
 * Hands a reviewer their next item in a campaign, or null when none is left for them.
 *
 * Rules, enforced in one transaction: a reviewer never gets an item twice (unique
 * item+reviewer), never an item that already has k live claims or reviews (the item's
 * `activeCount` is raised only by a conditional UPDATE that re-checks `activeCount < k` on the
 * locked row, so two reviewers clicking at once cannot both take the k-th slot), only when
 * their expertise covers the campaign's required tags, and expired claims go back to the pool.
 * A reviewer with a live claim gets it back (resumed) instead of a new one.
 */
export async function claimNextItem(campaignId: string, reviewer: { id: string; expertise: string[] }, now: Date): Promise<Claim | null> {
  return db().$transaction(async (tx) => {
    const campaign = await tx.campaign.findUnique({
      where: { id: campaignId },
      select: { status: true, overlap: true, requiredExpertise: true, leaseSeconds: true, mode: true },
    });
    if (!campaign) throw new AppError('NOT_FOUND', 'No such campaign');
    if (campaign.status !== 'open') throw new AppError('CONFLICT', 'This campaign is not open for reviews');
    const missing = campaign.requiredExpertise.filter((tag) => !reviewer.expertise.includes(tag));
    if (missing.length > 0) throw new AppError('FORBIDDEN', `This campaign needs ${missing.join(', ')} expertise`);

    const live = await tx.assignment.findFirst({
      where: { reviewerId: reviewer.id, status: 'claimed', leaseExpiresAt: { gt: now }, item: { campaignId } },
      select: { id: true, campaignItemId: true, leaseExpiresAt: true, swapSides: true },
      orderBy: { claimedAt: 'asc' },
    });
    if (live)
      return {
        assignmentId: live.id,
        campaignItemId: live.campaignItemId,
        leaseExpiresAt: live.leaseExpiresAt,
        swapSides: live.swapSides,
        resumed: true,
        mode: campaign.mode,
      };

    await expireLeases(tx, campaignId, now);

    for (let attempt = 0; attempt < 5; attempt++) {
      const picked = await tx.$queryRaw<{ id: string }[]>`
        UPDATE campaign_item SET "activeCount" = "activeCount" + 1
        WHERE id = (
          SELECT ci.id FROM campaign_item ci
          WHERE ci."campaignId" = ${campaignId}
            AND ci."activeCount" < ${campaign.overlap}
            AND NOT EXISTS (SELECT 1 FROM assignment a WHERE a."campaignItemId" = ci.id AND a."reviewerId" = ${reviewer.id})
          ORDER BY ci."reviewCount" ASC, ci."activeCount" ASC, md5(ci.id || ${reviewer.id})
          LIMIT 1
          FOR UPDATE SKIP LOCKED
        ) AND "activeCount" < ${campaign.overlap}
        RETURNING id`;
      const itemId = picked[0]?.id;
      if (!itemId) {
        // nothing free right now, or a concurrent claim took the last slot: look again once
        const anyLeft = await tx.$queryRaw<{ n: bigint }[]>`
          SELECT count(*) AS n FROM campaign_item ci
          WHERE ci."campaignId" = ${campaignId} AND ci."activeCount" < ${campaign.overlap}
            AND NOT EXISTS (SELECT 1 FROM assignment a WHERE a."campaignItemId" = ci.id AND a."reviewerId" = ${reviewer.id})`;
        if (Number(anyLeft[0]?.n ?? 0) === 0) return null;
        continue;
      }
      const leaseExpiresAt = new Date(now.getTime() + campaign.leaseSeconds * 1000);
      const assignment = await tx.assignment.create({
        data: {
          campaignItemId: itemId,
          reviewerId: reviewer.id,
          leaseExpiresAt,
          claimedAt: now,
          swapSides: campaign.mode === 'pairwise' ? randomInt(2) === 1 : false,
        },
        select: { id: true, swapSides: true },
      });
      return {
        assignmentId: assignment.id,
        campaignItemId: itemId,
        leaseExpiresAt,
        swapSides: assignment.swapSides,
        resumed: false,
        mode: campaign.mode,
      };
    }
    return null;
  }, CLAIM_TX);
}

/** Claims are short, but many reviewers may click at once: wait for a pooled connection rather than fail. */
const CLAIM_TX = { maxWait: 15_000, timeout: 15_000 } as const;

/** Claims past their lease go back to the pool: status expired, slot freed. */
async function expireLeases(tx: Tx, campaignId: string, now: Date): Promise<void> {
  const expired = await tx.$queryRaw<{ campaignItemId: string }[]>`
    UPDATE assignment a SET status = 'expired', "finishedAt" = ${now}
    FROM campaign_item ci
    WHERE a."campaignItemId" = ci.id AND ci."campaignId" = ${campaignId}
      AND a.status = 'claimed' AND a."leaseExpiresAt" <= ${now}
    RETURNING a."campaignItemId"`;
  for (const row of expired) {
    await tx.$executeRaw`UPDATE campaign_item SET "activeCount" = GREATEST("activeCount" - 1, 0) WHERE id = ${row.campaignItemId}`;
  }
}

/** The reviewer gives an item back with a reason; they will not get it again, and the slot is freed. */
export async function skipAssignment(assignmentId: string, reviewerId: string, reason: string, now: Date): Promise<void> {
  await db().$transaction(async (tx) => {
    const updated = await tx.assignment.updateMany({
      where: { id: assignmentId, reviewerId, status: 'claimed' },
      data: { status: 'skipped', skipReason: reason.slice(0, 500), finishedAt: now },
    });
    if (updated.count !== 1) throw new AppError('NOT_FOUND', 'No open claim to skip');
    const a = await tx.assignment.findUniqueOrThrow({ where: { id: assignmentId }, select: { campaignItemId: true } });
    await tx.$executeRaw`UPDATE campaign_item SET "activeCount" = GREATEST("activeCount" - 1, 0) WHERE id = ${a.campaignItemId}`;
  }, CLAIM_TX);
}

/**
 * Turns a claim into a submitted slot inside the caller's transaction (used by review and
 * comparison submit). A claim whose lease expired is honoured when a slot is still free.
 * Answers whether this is the first submit of the assignment (then reviewCount goes up).
 */
export async function settleClaim(
  tx: Tx,
  assignmentId: string,
  reviewerId: string,
  overlap: number,
  now: Date,
): Promise<{ first: boolean; campaignItemId: string }> {
  // serialise submits of one assignment (a double submit with two keys becomes a revision)
  await tx.$queryRaw`SELECT id FROM assignment WHERE id = ${assignmentId} FOR UPDATE`;
  const a = await tx.assignment.findUnique({
    where: { id: assignmentId },
    select: { reviewerId: true, status: true, campaignItemId: true },
  });
  if (!a || a.reviewerId !== reviewerId) throw new AppError('NOT_FOUND', 'No such assignment');
  if (a.status === 'submitted') return { first: false, campaignItemId: a.campaignItemId };
  if (a.status === 'skipped') throw new AppError('CONFLICT', 'You skipped this item');
  if (a.status === 'expired') {
    const retaken =
      await tx.$executeRaw`UPDATE campaign_item SET "activeCount" = "activeCount" + 1 WHERE id = ${a.campaignItemId} AND "activeCount" < ${overlap}`;
    if (retaken !== 1) throw new AppError('CONFLICT', 'Your claim on this item expired and it went to other reviewers');
  }
  await tx.assignment.update({ where: { id: assignmentId }, data: { status: 'submitted', finishedAt: now }, select: { id: true } });
  await tx.$executeRaw`UPDATE campaign_item SET "reviewCount" = "reviewCount" + 1 WHERE id = ${a.campaignItemId}`;
  return { first: true, campaignItemId: a.campaignItemId };
}
