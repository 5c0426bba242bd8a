import type { Prisma } from '@prisma/client';
import type { TrajectoryFilter } from '../campaign-settings';
import { db } from '../../db/client';
import type { AuditStep } from '../../auth/queries/audit';

/** The trajectories a campaign filter selects in a project (every condition applies together). */
export function trajectoryWhere(projectId: string, f: TrajectoryFilter): Prisma.TrajectoryWhereInput {
  const task: Prisma.TaskWhereInput = {
    ...(f.environment ? { environment: { name: f.environment } } : {}),
    ...(f.split ? { split: f.split } : {}),
    ...(f.taskNames ? { name: { in: f.taskNames } } : {}),
  };
  return {
    projectId,
    ...(f.trajectoryIds ? { id: { in: f.trajectoryIds } } : {}),
    ...(Object.keys(task).length > 0 ? { task } : {}),
    ...(f.policy ? { policy: { name: f.policy } } : {}),
    ...(f.minReward !== undefined || f.maxReward !== undefined
      ? {
          verifierReward: {
            ...(f.minReward !== undefined ? { gte: f.minReward } : {}),
            ...(f.maxReward !== undefined ? { lte: f.maxReward } : {}),
          },
        }
      : {}),
  };
}

/** One candidate item of a campaign: a trajectory (single) or a same-task pair (pairwise, A/B in a stable order). */
export interface CandidateItem {
  trajectoryId: string;
  trajectoryBId: string | null;
}

/** A candidate with how the sampling chose it (lib/campaigns/campaign-sampling.ts). */
export interface PlannedItem extends CandidateItem {
  probability: number;
  selected: boolean;
}

/**
 * The items a campaign filter gives, in an order that depends on the data only (not on generated ids, where the data tells them apart). Single mode: one item per trajectory.
 * Pairwise: one item per pair of trajectories of the same task from different policies.
 */
export async function campaignCandidates(
  projectId: string,
  mode: 'single' | 'pairwise',
  filter: TrajectoryFilter,
): Promise<CandidateItem[]> {
  const trajectories = await db().trajectory.findMany({
    where: trajectoryWhere(projectId, filter),
    select: { id: true, taskId: true, policyId: true },
    // by task name and import order, then the producer's id: the same on every database holding the same data,
    // so a seeded draw (the demo's, a test's) picks the same items
    orderBy: [{ task: { name: 'asc' } }, { taskId: 'asc' }, { createdAt: 'asc' }, { externalId: 'asc' }, { id: 'asc' }],
  });
  if (mode === 'single') return trajectories.map((t) => ({ trajectoryId: t.id, trajectoryBId: null }));
  const items: CandidateItem[] = [];
  const byTask = new Map<string, typeof trajectories>();
  for (const t of trajectories) byTask.set(t.taskId, [...(byTask.get(t.taskId) ?? []), t]);
  for (const group of byTask.values()) {
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        if (group[i]!.policyId !== group[j]!.policyId) items.push({ trajectoryId: group[i]!.id, trajectoryBId: group[j]!.id });
      }
    }
  }
  return items;
}

/** A campaign's row as the use-case decided it (lib/campaigns/create-campaign.ts). */
export type CampaignRow = Omit<Prisma.CampaignUncheckedCreateInput, 'id' | 'items' | 'filter' | 'budget'> & {
  filter: TrajectoryFilter;
  budget: Record<string, unknown> | null;
};

/** One item of a campaign being created: a planned item, and its known answers when it is gold. */
export interface CampaignItemRow extends PlannedItem {
  isGold: boolean;
  goldAnswers: Record<string, unknown> | undefined;
}

/**
 * Inserts a campaign and its items in one transaction; `audit` runs in the same transaction
 * once both are written (the use-case's audit row), so all commit together.
 */
export async function insertCampaign(row: CampaignRow, items: CampaignItemRow[], audit: AuditStep<{ id: string }>) {
  return db().$transaction(
    async (tx) => {
      const campaign = await tx.campaign.create({
        data: {
          ...row,
          filter: row.filter as Prisma.InputJsonValue,
          budget: (row.budget ?? undefined) as Prisma.InputJsonValue | undefined,
        },
        select: { id: true, name: true, mode: true, status: true },
      });
      // its own statement, under a longer timeout: on a busy machine the review bench's 3,000 items outlasted the 5 s default
      // (the nested createMany answered null, then P2028)
      await tx.campaignItem.createMany({
        data: items.map((i) => ({ ...i, goldAnswers: i.goldAnswers as Prisma.InputJsonValue | undefined, campaignId: campaign.id })),
      });
      await audit(tx, campaign);
      return campaign;
    },
    { maxWait: 15_000, timeout: 120_000 },
  );
}

/** Refreshes campaign_item's planner statistics (lib/campaigns/create-campaign.ts: after a large campaign is created). */
export async function analyzeCampaignItems(): Promise<void> {
  await db().$executeRawUnsafe('ANALYZE campaign_item');
}
