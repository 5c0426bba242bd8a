import type { CampaignAgreementData } from '../../agreement/campaign-data';
import { rubricDefinition } from '../../review/rubric';
import { AppError } from '../../errors';
import { db } from '../infra/client';

function coverageShareOf(coverage: unknown): number | null {
  const share = (coverage as { share?: unknown } | null)?.share;
  return typeof share === 'number' && Number.isFinite(share) ? share : null;
}

/**
 * Everything the agreement dashboard computes from, for one campaign, in a fixed number of
 * queries whatever its size: the campaign with its rubric, its items (task, rewards, judge
 * scores, whether adjudicated), and the current revision of every review or comparison.
 */
export async function loadAgreementData(campaignId: string): Promise<CampaignAgreementData> {
  const [campaign, items, reviews, comparisons] = await Promise.all([
    db().campaign.findUnique({
      where: { id: campaignId },
      select: { id: true, name: true, mode: true, overlap: true, rubricVersion: { select: { definition: true } } },
    }),
    db().campaignItem.findMany({
      where: { campaignId },
      orderBy: { id: 'asc' },
      select: {
        id: true,
        trajectoryId: true,
        trajectoryBId: true,
        isGold: true,
        trajectory: {
          select: {
            verifierReward: true,
            task: { select: { name: true } },
            judgeScores: { select: { judge: true, score: true, label: true } },
          },
        },
        trajectoryB: { select: { verifierReward: true } },
        adjudications: { where: { isCurrent: true }, select: { id: true } },
      },
    }),
    db().review.findMany({
      where: { isCurrent: true, item: { campaignId } },
      orderBy: [{ submittedAt: 'asc' }, { id: 'asc' }],
      select: {
        campaignItemId: true,
        reviewerId: true,
        reviewer: { select: { name: true } },
        answers: true,
        coverage: true,
        durationSec: true,
        goldScore: true,
        submittedAt: true,
      },
    }),
    db().pairwiseComparison.findMany({
      where: { isCurrent: true, item: { campaignId } },
      orderBy: [{ submittedAt: 'asc' }, { id: 'asc' }],
      select: {
        campaignItemId: true,
        reviewerId: true,
        assignment: { select: { reviewer: { select: { name: true } } } },
        preference: true,
        bothBad: true,
        criteria: true,
        submittedAt: true,
      },
    }),
  ]);
  if (!campaign) throw new AppError('NOT_FOUND', 'No such campaign');
  return {
    id: campaign.id,
    name: campaign.name,
    mode: campaign.mode,
    overlap: campaign.overlap,
    rubric: rubricDefinition.parse(campaign.rubricVersion.definition),
    items: items.map((i) => ({
      id: i.id,
      trajectoryId: i.trajectoryId,
      trajectoryBId: i.trajectoryBId,
      taskName: i.trajectory.task.name,
      isGold: i.isGold,
      reward: i.trajectory.verifierReward,
      rewardB: i.trajectoryB?.verifierReward ?? null,
      judges: i.trajectory.judgeScores,
      adjudicated: i.adjudications.length > 0,
    })),
    reviews: reviews.map((r) => ({
      itemId: r.campaignItemId,
      reviewerId: r.reviewerId,
      reviewerName: r.reviewer.name,
      answers: (r.answers ?? {}) as Record<string, unknown>,
      coverage: coverageShareOf(r.coverage),
      durationSec: r.durationSec,
      goldScore: r.goldScore,
      submittedAt: r.submittedAt,
    })),
    comparisons: comparisons.map((c) => {
      const criteria = (c.criteria ?? {}) as { a?: Record<string, string>; b?: Record<string, string> };
      return {
        itemId: c.campaignItemId,
        reviewerId: c.reviewerId,
        reviewerName: c.assignment.reviewer.name,
        preference: c.preference,
        bothBad: c.bothBad,
        criteria: { a: criteria.a ?? {}, b: criteria.b ?? {} },
        submittedAt: c.submittedAt,
      };
    }),
  };
}

export interface AgreementCampaignSummary {
  id: string;
  name: string;
  mode: 'single' | 'pairwise';
  status: string;
  projectName: string;
  items: number;
  reviewed: number;
  adjudicated: number;
  createdAt: Date;
}

/** The campaigns a lead can open the agreement dashboard of (newest first), with their counts. */
export async function listAgreementCampaigns(projectIds: string[] | null): Promise<AgreementCampaignSummary[]> {
  const rows = await db().campaign.findMany({
    where: projectIds === null ? {} : { projectId: { in: projectIds } },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: 500,
    select: {
      id: true,
      name: true,
      mode: true,
      status: true,
      createdAt: true,
      project: { select: { name: true } },
      _count: { select: { items: true } },
    },
  });
  const ids = rows.map((r) => r.id);
  const [reviewed, adjudicated] = await Promise.all([
    db().campaignItem.groupBy({ by: ['campaignId'], where: { campaignId: { in: ids }, reviewCount: { gt: 0 } }, _count: { _all: true } }),
    db().campaignItem.groupBy({
      by: ['campaignId'],
      where: { campaignId: { in: ids }, adjudications: { some: { isCurrent: true } } },
      _count: { _all: true },
    }),
  ]);
  const count = (list: { campaignId: string; _count: { _all: number } }[], id: string) =>
    list.find((x) => x.campaignId === id)?._count._all ?? 0;
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    mode: r.mode,
    status: r.status,
    projectName: r.project.name,
    items: r._count.items,
    reviewed: count(reviewed, r.id),
    adjudicated: count(adjudicated, r.id),
    createdAt: r.createdAt,
  }));
}
