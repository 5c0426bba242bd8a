import { db } from '../infra/client';

/**
 * The invariants of a campaign's reviews, read straight from the tables (the load test and
 * operators use it): current reviews, the most any item has (must be <= k, and the item's
 * counter must agree), reviewer/item pairs reviewed twice (must be 0).
 */
export async function campaignIntegrity(campaignId: string) {
  const [reviews, perItem, duplicates, counterDrift] = await Promise.all([
    db().review.findMany({ where: { isCurrent: true, item: { campaignId } }, select: { id: true } }),
    db().review.groupBy({ by: ['campaignItemId'], where: { isCurrent: true, item: { campaignId } }, _count: { _all: true } }),
    db().$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM (
        SELECT r."campaignItemId", r."reviewerId" FROM review r JOIN campaign_item i ON i.id = r."campaignItemId"
        WHERE i."campaignId" = ${campaignId} AND r."isCurrent"
        GROUP BY 1, 2 HAVING count(*) > 1) d`,
    db().$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM campaign_item i
      WHERE i."campaignId" = ${campaignId}
        AND i."reviewCount" <> (SELECT count(*) FROM review r WHERE r."campaignItemId" = i.id AND r."isCurrent")`,
  ]);
  return {
    currentReviews: reviews.length,
    reviewIds: new Set(reviews.map((r) => r.id)),
    maxReviewsPerItem: Math.max(0, ...perItem.map((g) => g._count._all)),
    duplicatePairs: Number(duplicates[0]?.n ?? 0),
    /** items whose reviewCount disagrees with their current reviews */
    counterDrift: Number(counterDrift[0]?.n ?? 0),
  };
}
