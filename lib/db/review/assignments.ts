import { randomInt, randomUUID } from 'node:crypto';
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
 * A reviewer holds at most one live claim per campaign: their claims in one campaign take turns
 * (an advisory lock on reviewer + campaign, taken with the campaign's row), so eight clicks at
 * once get the same claim back, resumed. Only the items the campaign's draw selected are handed
 * out (a random or active campaign keeps the others as the population its estimates cover), in
 * a random order per reviewer, so the items reviewed so far are a random part of the selected
 * ones (lib/db/insight-estimate-rows.ts relies on it).
 *
 * Round trips: the campaign + lock, the expiry of lapsed leases, then one statement that
 * resumes the live claim or picks, leases and records a new one.
 */
export async function claimNextItem(campaignId: string, reviewer: { id: string; expertise: string[] }, now: Date): Promise<Claim | null> {
  return db().$transaction(async (tx) => {
    const [campaign] = await tx.$queryRaw<
      Array<{ status: string; overlap: number; requiredExpertise: string[]; leaseSeconds: number; mode: 'single' | 'pairwise' }>
    >`
      SELECT c.status::text AS status, c.overlap, c."requiredExpertise", c."leaseSeconds", c.mode::text AS mode,
             pg_advisory_xact_lock(${CLAIM_LOCK_CLASS}::int, hashtext(${reviewer.id} || ':' || c.id))::text AS locked
      FROM campaign c WHERE c.id = ${campaignId}`;
    if (!campaign) throw new AppError('NOT_FOUND', 'No such campaign');
    if (campaign.status !== 'open') throw new AppError('CONFLICT', 'This campaign is not open for reviews');
    const missing = campaign.requiredExpertise.filter((tag) => !reviewer.expertise.includes(tag));
    if (missing.length > 0) throw new AppError('FORBIDDEN', `This campaign needs ${missing.join(', ')} expertise`);

    await expireLeases(tx, campaignId, now);

    const leaseExpiresAt = new Date(now.getTime() + campaign.leaseSeconds * 1000);
    for (let attempt = 0; attempt < 5; attempt++) {
      const swapSides = campaign.mode === 'pairwise' ? randomInt(2) === 1 : false;
      // the reviewer's live claim if any, else the next free slot. The queue: selected items of
      // the campaign below k, that this reviewer never had, fewest reviews first, random order per reviewer.
      const [row] = await tx.$queryRaw<
        Array<{ id: string; campaignItemId: string; leaseExpiresAt: Date; swapSides: boolean; resumed: boolean }>
      >`
        WITH live AS (
          SELECT a.id, a."campaignItemId", a."leaseExpiresAt", a."swapSides"
          FROM assignment a JOIN campaign_item ci ON ci.id = a."campaignItemId"
          WHERE a."reviewerId" = ${reviewer.id} AND a.status = 'claimed' AND a."leaseExpiresAt" > ${now} AND ci."campaignId" = ${campaignId}
          ORDER BY a."claimedAt" LIMIT 1
        ), picked AS (
          UPDATE campaign_item SET "activeCount" = "activeCount" + 1
          WHERE NOT EXISTS (SELECT 1 FROM live)
            AND id = (
              SELECT ci.id FROM campaign_item ci
              WHERE ci."campaignId" = ${campaignId} AND ci.selected
                AND ci."activeCount" < ${campaign.overlap}
                AND NOT EXISTS (SELECT 1 FROM assignment a WHERE a."campaignItemId" = ci.id AND a."reviewerId" = ${reviewer.id})
              ORDER BY ci."reviewCount" ASC, ci."activeCount" ASC, md5(ci.id || ${reviewer.id})
              LIMIT 1
              FOR UPDATE SKIP LOCKED
            )
            AND "activeCount" < ${campaign.overlap}
          RETURNING id
        ), created AS (
          INSERT INTO assignment (id, "campaignItemId", "reviewerId", status, "claimedAt", "leaseExpiresAt", "swapSides")
          SELECT ${randomUUID()}, picked.id, ${reviewer.id}, 'claimed', ${now}, ${leaseExpiresAt}, ${swapSides} FROM picked
          RETURNING id, "campaignItemId", "leaseExpiresAt", "swapSides"
        )
        SELECT id, "campaignItemId", "leaseExpiresAt", "swapSides", true AS resumed FROM live
        UNION ALL
        SELECT id, "campaignItemId", "leaseExpiresAt", "swapSides", false AS resumed FROM created`;
      if (row)
        return {
          assignmentId: row.id,
          campaignItemId: row.campaignItemId,
          leaseExpiresAt: row.leaseExpiresAt,
          swapSides: row.swapSides,
          resumed: row.resumed,
          mode: campaign.mode,
        };
      // nothing free right now, or a concurrent claim took the last slot: look again while any is left
      const [left] = await tx.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM campaign_item ci
        WHERE ci."campaignId" = ${campaignId} AND ci.selected AND ci."activeCount" < ${campaign.overlap}
          AND NOT EXISTS (SELECT 1 FROM assignment a WHERE a."campaignItemId" = ci.id AND a."reviewerId" = ${reviewer.id})`;
      if (!left?.n) return null;
    }
    return null;
  }, CLAIM_TX);
}

/** classid of the claim lock ('WITC'); the objid is hashtext(reviewer id || ':' || campaign id). */
const CLAIM_LOCK_CLASS = 0x57495443;

/** Claims are short, but many reviewers may click at once: wait for a pooled connection rather than fail. */
const CLAIM_TX = { maxWait: 15_000, timeout: 15_000 } as const;

/** Claims past their lease go back to the pool (status expired, slot freed), in one statement. */
async function expireLeases(tx: Tx, campaignId: string, now: Date): Promise<void> {
  await tx.$executeRaw`
    WITH expired AS (
      UPDATE assignment a SET status = 'expired', "finishedAt" = ${now}
      FROM campaign_item ci
      WHERE a."campaignItemId" = ci.id AND ci."campaignId" = ${campaignId}
        AND a.status = 'claimed' AND a."leaseExpiresAt" <= ${now}
      RETURNING a."campaignItemId"
    )
    UPDATE campaign_item ci SET "activeCount" = GREATEST(ci."activeCount" - e.n, 0)
    FROM (SELECT "campaignItemId", count(*)::int AS n FROM expired GROUP BY "campaignItemId") e
    WHERE ci.id = e."campaignItemId"`;
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
