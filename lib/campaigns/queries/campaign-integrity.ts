import { db } from '../../db/client';
import { insightDrift } from '../../insight/queries/insight-summary';
import { refreshQueuedInsight } from '../../insight/queries/insight-refresh';

/**
 * The invariants of a campaign's reviews, read straight from the tables (the load test, the
 * soak and operators use it): current reviews, the most any item has (must be <= k, and the
 * item's counters must agree), reviewer/item pairs reviewed twice, reviewers holding more than
 * one live claim, items whose training-stream events disagree with their reviews, and
 * trajectories whose stored insight summary differs from a recount of their current labels
 * (all must be 0).
 */
export async function campaignIntegrity(campaignId: string, now: Date = new Date()) {
  const count = async (query: Promise<{ n: bigint | number }[]>) => Number((await query)[0]?.n ?? 0);
  const [reviews, perItem, duplicatePairs, counterDrift, activeDrift, liveClaimDuplicates, eventDrift, summaryDrift] = await Promise.all([
    db().review.findMany({ where: { isCurrent: true, item: { campaignId } }, select: { id: true } }),
    db().review.groupBy({ by: ['campaignItemId'], where: { isCurrent: true, item: { campaignId } }, _count: { _all: true } }),
    count(db().$queryRaw`
      SELECT count(*) AS n FROM (
        SELECT r."campaignItemId", r."reviewerId" FROM review r JOIN campaign_item i ON i.id = r."campaignItemId"
        WHERE i."campaignId" = ${campaignId} AND r."isCurrent"
        GROUP BY 1, 2 HAVING count(*) > 1) d`),
    count(db().$queryRaw`
      SELECT count(*) AS n FROM campaign_item i
      WHERE i."campaignId" = ${campaignId}
        AND i."reviewCount" <> (SELECT count(*) FROM review r WHERE r."campaignItemId" = i.id AND r."isCurrent")`),
    // a slot is held by each claim (live or lapsed but not yet expired) and each submitted assignment
    count(db().$queryRaw`
      SELECT count(*) AS n FROM campaign_item i
      WHERE i."campaignId" = ${campaignId}
        AND i."activeCount" <> (SELECT count(*) FROM assignment a WHERE a."campaignItemId" = i.id AND a.status IN ('claimed', 'submitted'))`),
    count(db().$queryRaw`
      SELECT count(*) AS n FROM (
        SELECT a."reviewerId" FROM assignment a JOIN campaign_item i ON i.id = a."campaignItemId"
        WHERE i."campaignId" = ${campaignId} AND a.status = 'claimed' AND a."leaseExpiresAt" > ${now}
        GROUP BY 1 HAVING count(*) > 1) d`),
    // every item at k (not gold) has exactly one `finalised` event; none below k has one
    count(db().$queryRaw`
      SELECT count(*) AS n FROM campaign_item i JOIN campaign c ON c.id = i."campaignId"
      WHERE i."campaignId" = ${campaignId} AND NOT i."isGold"
        AND (SELECT count(*) FROM label_event e WHERE e."campaignItemId" = i.id AND e.kind = 'finalised') <> (CASE WHEN i."reviewCount" >= c.overlap THEN 1 ELSE 0 END)`),
    db()
      .campaignItem.findMany({ where: { campaignId }, select: { trajectoryId: true, trajectoryBId: true } })
      // the summaries as a reader sees them: once what the submits queued is refreshed (lib/insight/queries/insight-refresh.ts)
      .then(async (items) => {
        await refreshQueuedInsight();
        return insightDrift(items.flatMap((i) => [i.trajectoryId, i.trajectoryBId ?? i.trajectoryId]));
      }),
  ]);
  return {
    currentReviews: reviews.length,
    reviewIds: new Set(reviews.map((r) => r.id)),
    maxReviewsPerItem: Math.max(0, ...perItem.map((g) => g._count._all)),
    duplicatePairs,
    /** items whose reviewCount disagrees with their current reviews */
    counterDrift,
    /** items whose activeCount disagrees with their claims and submits */
    activeDrift,
    /** reviewers with more than one live claim in the campaign */
    liveClaimDuplicates,
    /** items whose `finalised` events disagree with their review count */
    eventDrift,
    /** trajectories whose stored insight summary differs from a recount of their current labels */
    summaryDrift,
  };
}
