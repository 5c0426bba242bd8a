import { rubricDefinition } from '../../review/rubric';
import { trajectoryFilterSchema } from '../campaign-settings';
import { blindSettings } from '../../review/blind-settings';
import { coverageSummary } from '../../review/coverage';
import { db } from '../../db/client';
import { sql } from '../../db/sql';
import { campaignHead, campaignHeadSelect } from './campaign-list';

/** How many items a page of the detail lists (the counts above it always cover every item; `page` picks which). */
export const CAMPAIGN_ITEMS_PER_PAGE = 100;
/** How many of the latest reviews the detail lists with their coverage. */
const RECENT_REVIEWS = 50;

/**
 * One campaign for its lead: settings, rubric version, progress overall and per reviewer
 * (live claims, submitted, skipped, expired, gold score mean, last activity: the last claim,
 * submit or skip) and a page of its items with review counts. A fixed number of queries; JSON-safe. For leads only: it names policies and
 * reviewers, so no reviewer route may call it (lib/campaigns/view-campaign-detail.ts checks the caller). Null when there is no such campaign.
 */
export async function getCampaignDetail(campaignId: string, now: Date, options: { page?: number } = {}) {
  const page = Math.max(0, Math.floor(options.page ?? 0));
  const c = await db().campaign.findUnique({
    where: { id: campaignId },
    select: {
      ...campaignHeadSelect,
      minCoverage: true,
      coverageBasis: true,
      readingWpm: true,
      tooFast: true,
      blind: true,
      pacing: true,
      filter: true,
      leaseSeconds: true,
      sampling: true,
      budget: true,
      createdAt: true,
      closedAt: true,
      createdById: true,
      project: { select: { id: true, slug: true, name: true } },
      rubricVersion: { select: { id: true, version: true, definition: true, rubric: { select: { name: true } } } },
    },
  });
  if (!c) return null;

  const [summary, reviewers, items, creator, recent] = await Promise.all([
    db().$queryRaw<{ items: bigint; population: bigint; gold: bigint; reviews: bigint; complete: bigint; active: bigint }[]>`
      SELECT count(*) FILTER (WHERE selected) AS items,
             count(*) AS population,
             count(*) FILTER (WHERE "isGold") AS gold,
             coalesce(sum(LEAST("reviewCount", ${c.overlap})), 0) AS reviews,
             count(*) FILTER (WHERE "reviewCount" >= ${c.overlap}) AS complete,
             coalesce(sum(GREATEST("activeCount" - "reviewCount", 0)), 0) AS active
      FROM campaign_item WHERE "campaignId" = ${campaignId}`,
    db().$queryRaw<
      {
        reviewerId: string;
        name: string;
        email: string;
        claimed: bigint;
        submitted: bigint;
        skipped: bigint;
        expired: bigint;
        goldMean: number | null;
        goldCount: bigint;
        lastActivity: Date | null;
      }[]
    >`
      WITH gold AS (
        -- a gold score is only ever given on a gold item (lib/review/submit-review.ts) and an item's
        -- isGold never changes: reading the gold items' reviews alone is exact, and at 1M reviews it
        -- is milliseconds where a per-reviewer scan of every review took seconds
        SELECT r."reviewerId", avg(r."goldScore") AS "goldMean", count(*) AS "goldCount"
        FROM campaign_item gi
        JOIN review r ON r."campaignItemId" = gi.id AND r."isCurrent" AND r."goldScore" IS NOT NULL
        WHERE gi."campaignId" = ${campaignId} AND gi."isGold"
        GROUP BY r."reviewerId"
      ), claims AS (
        -- the claims not yet settled (assignment's status index: a few per reviewer and campaign,
        -- whatever the reviews): live while the lease runs, lapsed after (expired, not yet swept)
        SELECT a."reviewerId",
               count(*) FILTER (WHERE a."leaseExpiresAt" > ${now}) AS live,
               count(*) FILTER (WHERE a."leaseExpiresAt" <= ${now}) AS lapsed,
               count(*) AS open
        FROM assignment a JOIN campaign_item ci ON ci.id = a."campaignItemId"
        WHERE a.status = 'claimed' AND ci."campaignId" = ${campaignId}
        GROUP BY a."reviewerId"
      )
      -- the counts of every assignment come from campaign_reviewer_stat (kept by triggers in each
      -- write's transaction, see schema.prisma): one row per reviewer instead of 1M assignments
      SELECT s."reviewerId", u.name, u.email, coalesce(c.live, 0) AS claimed, s.submitted, s.skipped,
             s.assigned - s.submitted - s.skipped - coalesce(c.open, 0) + coalesce(c.lapsed, 0) AS expired,
             g."goldMean", coalesce(g."goldCount", 0) AS "goldCount", s."lastActivity"
      FROM campaign_reviewer_stat s
      JOIN "user" u ON u.id = s."reviewerId"
      LEFT JOIN claims c ON c."reviewerId" = s."reviewerId"
      LEFT JOIN gold g ON g."reviewerId" = s."reviewerId"
      WHERE s."campaignId" = ${campaignId} AND s.assigned > 0
      ORDER BY s.submitted DESC, u.name ASC`,
    // one page of the items, in task order: plain SQL on the pool, joined and cut in the statement
    // (Prisma's relation order-by over 100k items took seconds at bench scale)
    sql<{
      id: string;
      isGold: boolean;
      probability: number;
      reviewCount: number;
      activeCount: number;
      aId: string;
      aReward: number | null;
      aPolicy: string;
      task: string;
      split: 'train' | 'eval';
      bId: string | null;
      bReward: number | null;
      bPolicy: string | null;
    }>(
      `SELECT ci.id, ci."isGold", ci.probability, ci."reviewCount", ci."activeCount",
              ta.id AS "aId", ta."verifierReward" AS "aReward", pa.name AS "aPolicy", k.name AS task, k.split::text AS split,
              tb.id AS "bId", tb."verifierReward" AS "bReward", pb.name AS "bPolicy"
       FROM campaign_item ci
       JOIN trajectory ta ON ta.id = ci."trajectoryId"
       JOIN task k ON k.id = ta."taskId"
       JOIN policy pa ON pa.id = ta."policyId"
       LEFT JOIN trajectory tb ON tb.id = ci."trajectoryBId"
       LEFT JOIN policy pb ON pb.id = tb."policyId"
       WHERE ci."campaignId" = $1 AND ci.selected
       ORDER BY k.name, ci.id
       LIMIT $2 OFFSET $3`,
      [campaignId, CAMPAIGN_ITEMS_PER_PAGE, page * CAMPAIGN_ITEMS_PER_PAGE],
    ),
    c.createdById ? db().user.findUnique({ where: { id: c.createdById }, select: { name: true } }) : null,
    // the latest current labels and how each was covered (issue 43 §1: the lead sees it per review)
    sql<{ id: string; reviewer: string; task: string; submittedAt: Date; coverage: unknown; revision: number }>(
      `SELECT x.id, u.name AS reviewer, k.name AS task, x."submittedAt", x.coverage, x.revision
       FROM (SELECT r.id, r."reviewerId", r."campaignItemId", r."submittedAt", r.coverage, r.revision
             FROM review r JOIN campaign_item ci ON ci.id = r."campaignItemId"
             WHERE ci."campaignId" = $1 AND r."isCurrent"
             UNION ALL
             SELECT p.id, p."reviewerId", p."campaignItemId", p."submittedAt", p.coverage, p.revision
             FROM pairwise_comparison p JOIN campaign_item ci ON ci.id = p."campaignItemId"
             WHERE ci."campaignId" = $1 AND p."isCurrent") x
       JOIN "user" u ON u.id = x."reviewerId"
       JOIN campaign_item ci ON ci.id = x."campaignItemId"
       JOIN trajectory t ON t.id = ci."trajectoryId"
       JOIN task k ON k.id = t."taskId"
       ORDER BY x."submittedAt" DESC, x.id
       LIMIT $2`,
      [campaignId, RECENT_REVIEWS],
    ),
  ]);
  const s = summary[0]!;
  const itemCount = Number(s.items);
  return {
    ...campaignHead(c),
    minCoverage: c.minCoverage,
    coverageBasis: c.coverageBasis,
    readingWpm: c.readingWpm,
    tooFast: c.tooFast === 'refuse' ? ('refuse' as const) : ('flag' as const),
    blind: blindSettings.parse(c.blind),
    pacing: c.pacing,
    filter: trajectoryFilterSchema.catch({}).parse(c.filter),
    leaseSeconds: c.leaseSeconds,
    sampling: c.sampling,
    budget: c.budget as Record<string, unknown> | null,
    createdAt: c.createdAt.toISOString(),
    closedAt: c.closedAt?.toISOString() ?? null,
    createdBy: creator?.name ?? null,
    project: c.project,
    rubric: {
      versionId: c.rubricVersion.id,
      name: c.rubricVersion.rubric.name,
      version: c.rubricVersion.version,
      definition: rubricDefinition.parse(c.rubricVersion.definition),
    },
    progress: {
      items: itemCount,
      population: Number(s.population),
      goldItems: Number(s.gold),
      reviewsDone: Number(s.reviews),
      reviewsTarget: itemCount * c.overlap,
      itemsComplete: Number(s.complete),
      inProgress: Number(s.active),
    },
    reviewers: reviewers.map((r) => ({
      reviewerId: r.reviewerId,
      name: r.name,
      email: r.email,
      claimed: Number(r.claimed),
      submitted: Number(r.submitted),
      skipped: Number(r.skipped),
      expired: Number(r.expired),
      goldMean: r.goldMean === null ? null : Number(r.goldMean),
      goldCount: Number(r.goldCount),
      lastActivity: r.lastActivity?.toISOString() ?? null,
    })),
    items: items.map((i) => ({
      id: i.id,
      isGold: i.isGold,
      probability: i.probability,
      reviewCount: i.reviewCount,
      inProgress: Math.max(0, i.activeCount - i.reviewCount),
      task: i.task,
      split: i.split,
      a: { trajectoryId: i.aId, policy: i.aPolicy, reward: i.aReward },
      b: i.bId ? { trajectoryId: i.bId, policy: i.bPolicy!, reward: i.bReward } : null,
    })),
    itemsShown: items.length,
    recentReviews: recent.map((r) => ({
      id: r.id,
      reviewer: r.reviewer,
      task: r.task,
      revision: r.revision,
      submittedAt: r.submittedAt.toISOString(),
      coverage: coverageSummary(r.coverage),
    })),
    /** the items listed are the `itemsFrom`-th (0-based) onward, of progress.items, CAMPAIGN_ITEMS_PER_PAGE a page */
    itemsPage: page,
    itemsFrom: page * CAMPAIGN_ITEMS_PER_PAGE,
    itemsPerPage: CAMPAIGN_ITEMS_PER_PAGE,
  };
}
export type CampaignDetail = NonNullable<Awaited<ReturnType<typeof getCampaignDetail>>>;

/** The trajectory ids of one campaign item (B is null in single mode); null when there is no such item. */
export async function campaignItemTrajectories(campaignItemId: string): Promise<{ a: string; b: string | null } | null> {
  const item = await db().campaignItem.findUnique({ where: { id: campaignItemId }, select: { trajectoryId: true, trajectoryBId: true } });
  return item ? { a: item.trajectoryId, b: item.trajectoryBId } : null;
}
