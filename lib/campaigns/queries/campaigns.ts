import type { Prisma } from '@prisma/client';
import { z } from 'zod';
import { expertiseTagSchema } from '../../auth/roles';
import { splitSchema } from '../../formats/trajectory';
import { AppError } from '../../errors';
import { coverageBasisSchema } from '../../review/coverage';
import { writeAudit } from '../../auth/queries/audit';
import { db } from '../../db/client';
import { defaultPacing, pacingSchema } from '../../video/pacing';

export const trajectoryFilterSchema = z.object({
  environment: z.string().optional(),
  policy: z.string().optional(),
  split: splitSchema.optional(),
  minReward: z.number().optional(),
  maxReward: z.number().optional(),
  taskNames: z.array(z.string()).optional(),
  /** items picked by hand: only these trajectories (the campaign is then not a random sample) */
  trajectoryIds: z.array(z.string().min(1)).min(1).max(5000).optional(),
});
export type TrajectoryFilter = z.infer<typeof trajectoryFilterSchema>;

export const createCampaignInput = z.object({
  name: z.string().trim().min(1).max(200),
  mode: z.enum(['single', 'pairwise']),
  rubricVersionId: z.string().min(1),
  overlap: z.number().int().min(1).max(20),
  requiredExpertise: z.array(expertiseTagSchema).max(10).default([]),
  minCoverage: z.number().min(0).max(1).default(0),
  coverageBasis: coverageBasisSchema.default('video'),
  blind: z
    .object({ hidePolicy: z.boolean().default(true), hideReward: z.boolean().default(true) })
    .default({ hidePolicy: true, hideReward: true }),
  filter: trajectoryFilterSchema.default({}),
  leaseSeconds: z.number().int().min(60).max(86_400).default(1800),
  /** the video's pacing; when left out, read for a campaign that requires an expertise, else skim */
  pacing: pacingSchema.optional(),
  /** trajectory ids (single) whose known answers make them gold items */
  gold: z.array(z.object({ trajectoryId: z.string(), answers: z.record(z.string(), z.unknown()) })).default([]),
  open: z.boolean().default(true),
  /** how the items were chosen for review (SamplingMode in schema.prisma) */
  sampling: z.enum(['all', 'random', 'active', 'picked']).default('all'),
  budget: z.record(z.string(), z.unknown()).nullable().default(null),
});
export type CreateCampaignInput = z.input<typeof createCampaignInput>;

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

/**
 * Creates a campaign and its items. Without `planned`, the items are the filter's candidates,
 * every one selected with probability 1 ("review everything"); with it (a random or active
 * sample drawn by the caller from campaignCandidates), exactly those items with their recorded
 * probabilities. Screen sides of pairs are randomised per assignment later.
 */
export async function createCampaign(projectId: string, input: CreateCampaignInput, actorId: string | null, planned?: PlannedItem[]) {
  const data = createCampaignInput.parse(input);
  const version = await db().rubricVersion.findFirst({ where: { id: data.rubricVersionId, rubric: { projectId } }, select: { id: true } });
  if (!version) throw new AppError('NOT_FOUND', 'No such rubric version in this project');
  const chosen =
    planned ?? (await campaignCandidates(projectId, data.mode, data.filter)).map((c) => ({ ...c, probability: 1, selected: true }));
  const gold = new Map(data.gold.map((g) => [g.trajectoryId, g.answers]));
  const items: Prisma.CampaignItemCreateManyCampaignInput[] = chosen.map((c) => {
    const answers = data.mode === 'single' ? gold.get(c.trajectoryId) : undefined;
    return {
      trajectoryId: c.trajectoryId,
      trajectoryBId: c.trajectoryBId,
      isGold: Boolean(answers),
      goldAnswers: (answers ?? undefined) as Prisma.InputJsonValue | undefined,
      probability: c.probability,
      selected: c.selected,
    };
  });
  if (items.length === 0)
    throw new AppError(
      'BAD_INPUT',
      data.mode === 'pairwise'
        ? 'No pairs: the filter matches no task with trajectories from two different policies'
        : 'The filter matches no trajectories',
    );
  if (!items.some((i) => i.selected)) throw new AppError('BAD_INPUT', 'The draw selected no item: raise the budget');
  const created = await db().$transaction(
    async (tx) => {
      const campaign = await tx.campaign.create({
        data: {
          projectId,
          name: data.name,
          mode: data.mode,
          status: data.open ? 'open' : 'draft',
          rubricVersionId: data.rubricVersionId,
          overlap: data.overlap,
          requiredExpertise: data.requiredExpertise,
          minCoverage: data.minCoverage,
          coverageBasis: data.coverageBasis,
          blind: data.blind,
          pacing: data.pacing ?? defaultPacing(data.requiredExpertise),
          filter: data.filter as Prisma.InputJsonValue,
          leaseSeconds: data.leaseSeconds,
          sampling: data.sampling,
          budget: (data.budget ?? undefined) as Prisma.InputJsonValue | undefined,
          createdById: actorId,
        },
        select: { id: true, name: true, mode: true, status: true },
      });
      // its own statement, under a longer timeout: on a busy machine the review bench's 3,000 items outlasted the 5 s default
      // (the nested createMany answered null, then P2028)
      await tx.campaignItem.createMany({ data: items.map((i) => ({ ...i, campaignId: campaign.id })) });
      await writeAudit(tx, {
        actorId,
        action: 'campaign.create',
        targetType: 'campaign',
        targetId: campaign.id,
        projectId,
        data: { items: items.length, selected: items.filter((i) => i.selected).length, sampling: data.sampling },
      });
      return { ...campaign, items: items.length, selected: items.filter((i) => i.selected).length, sampling: data.sampling };
    },
    { maxWait: 15_000, timeout: 120_000 },
  );
  // The claim walks campaign_item's queue index only when the planner knows the campaign is more
  // than a few rows: before autovacuum's next ANALYZE it took a fresh table for a handful of rows
  // and bitmap-scanned and sorted all the campaign's items on every claim (55 ms a claim at 3,000
  // items, one reviewer; 1.0 ms after ANALYZE: the review bench's profile, issue 17).
  if (items.length >= ANALYZE_FROM_ITEMS) await db().$executeRawUnsafe('ANALYZE campaign_item');
  return created;
}

/** A campaign of at least this many items refreshes campaign_item's planner statistics once created. */
const ANALYZE_FROM_ITEMS = 500;
