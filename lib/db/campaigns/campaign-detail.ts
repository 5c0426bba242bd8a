import { z } from 'zod';
import { AppError } from '../../errors';
import { rubricDefinition } from '../../review/rubric';
import { trajectoryFilterSchema } from './campaigns';
import { db } from '../infra/client';

const blindSchema = z.object({ hidePolicy: z.boolean().default(true), hideReward: z.boolean().default(true) });

/** How many items the detail page lists (the counts above it always cover every item). */
export const CAMPAIGN_ITEM_LIMIT = 500;

/**
 * One campaign for its lead: settings, rubric version, progress overall and per reviewer
 * (live claims, submitted, skipped, expired, gold score mean, last activity) and its items with
 * review counts. A fixed number of queries; JSON-safe. For leads only: it names policies and
 * reviewers, so no reviewer route may call it.
 */
export async function getCampaignDetail(campaignId: string, now: Date) {
  const c = await db().campaign.findUnique({
    where: { id: campaignId },
    select: {
      id: true,
      name: true,
      mode: true,
      status: true,
      overlap: true,
      requiredExpertise: true,
      minCoverage: true,
      coverageBasis: true,
      blind: true,
      filter: true,
      leaseSeconds: true,
      createdAt: true,
      closedAt: true,
      createdById: true,
      project: { select: { id: true, slug: true, name: true } },
      rubricVersion: { select: { id: true, version: true, definition: true, rubric: { select: { name: true } } } },
    },
  });
  if (!c) throw new AppError('NOT_FOUND', 'No such campaign');

  const [summary, reviewers, items, creator] = await Promise.all([
    db().$queryRaw<{ items: bigint; gold: bigint; reviews: bigint; complete: bigint; active: bigint }[]>`
      SELECT count(*) AS items,
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
      SELECT a."reviewerId", u.name, u.email,
             count(*) FILTER (WHERE a.status = 'claimed' AND a."leaseExpiresAt" > ${now}) AS claimed,
             count(*) FILTER (WHERE a.status = 'submitted') AS submitted,
             count(*) FILTER (WHERE a.status = 'skipped') AS skipped,
             count(*) FILTER (WHERE a.status = 'expired' OR (a.status = 'claimed' AND a."leaseExpiresAt" <= ${now})) AS expired,
             (SELECT avg(r."goldScore") FROM review r JOIN campaign_item gi ON gi.id = r."campaignItemId"
               WHERE gi."campaignId" = ${campaignId} AND r."reviewerId" = a."reviewerId" AND r."isCurrent" AND r."goldScore" IS NOT NULL) AS "goldMean",
             (SELECT count(*) FROM review r JOIN campaign_item gi ON gi.id = r."campaignItemId"
               WHERE gi."campaignId" = ${campaignId} AND r."reviewerId" = a."reviewerId" AND r."isCurrent" AND r."goldScore" IS NOT NULL) AS "goldCount",
             max(GREATEST(a."claimedAt", coalesce(a."finishedAt", a."claimedAt"))) AS "lastActivity"
      FROM assignment a
      JOIN campaign_item ci ON ci.id = a."campaignItemId"
      JOIN "user" u ON u.id = a."reviewerId"
      WHERE ci."campaignId" = ${campaignId}
      GROUP BY a."reviewerId", u.name, u.email
      ORDER BY count(*) FILTER (WHERE a.status = 'submitted') DESC, u.name ASC`,
    db().campaignItem.findMany({
      where: { campaignId },
      select: {
        id: true,
        isGold: true,
        reviewCount: true,
        activeCount: true,
        trajectory: {
          select: { id: true, verifierReward: true, task: { select: { name: true, split: true } }, policy: { select: { name: true } } },
        },
        trajectoryB: { select: { id: true, verifierReward: true, policy: { select: { name: true } } } },
      },
      orderBy: [{ trajectory: { task: { name: 'asc' } } }, { id: 'asc' }],
      take: CAMPAIGN_ITEM_LIMIT,
    }),
    c.createdById ? db().user.findUnique({ where: { id: c.createdById }, select: { name: true } }) : null,
  ]);
  const s = summary[0]!;
  const itemCount = Number(s.items);
  return {
    id: c.id,
    name: c.name,
    mode: c.mode,
    status: c.status,
    overlap: c.overlap,
    requiredExpertise: c.requiredExpertise,
    minCoverage: c.minCoverage,
    coverageBasis: c.coverageBasis,
    blind: blindSchema.catch({ hidePolicy: true, hideReward: true }).parse(c.blind),
    filter: trajectoryFilterSchema.catch({}).parse(c.filter),
    leaseSeconds: c.leaseSeconds,
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
      reviewCount: i.reviewCount,
      inProgress: Math.max(0, i.activeCount - i.reviewCount),
      task: i.trajectory.task.name,
      split: i.trajectory.task.split,
      a: { trajectoryId: i.trajectory.id, policy: i.trajectory.policy.name, reward: i.trajectory.verifierReward },
      b: i.trajectoryB ? { trajectoryId: i.trajectoryB.id, policy: i.trajectoryB.policy.name, reward: i.trajectoryB.verifierReward } : null,
    })),
    itemsShown: items.length,
  };
}
export type CampaignDetail = Awaited<ReturnType<typeof getCampaignDetail>>;

/** The trajectory ids of one campaign item (B is null in single mode). */
export async function campaignItemTrajectories(campaignItemId: string): Promise<{ a: string; b: string | null }> {
  const item = await db().campaignItem.findUnique({ where: { id: campaignItemId }, select: { trajectoryId: true, trajectoryBId: true } });
  if (!item) throw new AppError('NOT_FOUND', 'No such campaign item');
  return { a: item.trajectoryId, b: item.trajectoryBId };
}
