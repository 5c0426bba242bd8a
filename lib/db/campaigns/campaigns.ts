import type { Prisma } from '@prisma/client';
import { z } from 'zod';
import { expertiseTagSchema } from '../../auth/roles';
import { splitSchema } from '../../formats/trajectory';
import { AppError } from '../../errors';
import { coverageBasisSchema } from '../../review/coverage';
import { writeAudit } from '../auth/audit';
import { db } from '../infra/client';

export const trajectoryFilterSchema = z.object({
  environment: z.string().optional(),
  policy: z.string().optional(),
  split: splitSchema.optional(),
  minReward: z.number().optional(),
  maxReward: z.number().optional(),
  taskNames: z.array(z.string()).optional(),
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
  /** trajectory ids (single) whose known answers make them gold items */
  gold: z.array(z.object({ trajectoryId: z.string(), answers: z.record(z.string(), z.unknown()) })).default([]),
  open: z.boolean().default(true),
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

/**
 * Creates a campaign and its items from a trajectory filter. Single mode: one item per
 * trajectory. Pairwise: one item per pair of trajectories of the same task from different
 * policies (A/B in a stable order; screen sides are randomised per assignment later).
 */
export async function createCampaign(projectId: string, input: CreateCampaignInput, actorId: string | null) {
  const data = createCampaignInput.parse(input);
  const version = await db().rubricVersion.findFirst({ where: { id: data.rubricVersionId, rubric: { projectId } }, select: { id: true } });
  if (!version) throw new AppError('NOT_FOUND', 'No such rubric version in this project');
  const trajectories = await db().trajectory.findMany({
    where: trajectoryWhere(projectId, data.filter),
    select: { id: true, taskId: true, policyId: true },
    orderBy: [{ taskId: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }],
  });
  const gold = new Map(data.gold.map((g) => [g.trajectoryId, g.answers]));
  const items: Prisma.CampaignItemCreateManyCampaignInput[] = [];
  if (data.mode === 'single') {
    for (const t of trajectories) {
      const answers = gold.get(t.id);
      items.push({
        trajectoryId: t.id,
        isGold: Boolean(answers),
        goldAnswers: (answers ?? undefined) as Prisma.InputJsonValue | undefined,
      });
    }
  } else {
    const byTask = new Map<string, typeof trajectories>();
    for (const t of trajectories) byTask.set(t.taskId, [...(byTask.get(t.taskId) ?? []), t]);
    for (const group of byTask.values()) {
      for (let i = 0; i < group.length; i++) {
        for (let j = i + 1; j < group.length; j++) {
          if (group[i]!.policyId !== group[j]!.policyId) items.push({ trajectoryId: group[i]!.id, trajectoryBId: group[j]!.id });
        }
      }
    }
  }
  if (items.length === 0)
    throw new AppError(
      'BAD_INPUT',
      data.mode === 'pairwise'
        ? 'No pairs: the filter matches no task with trajectories from two different policies'
        : 'The filter matches no trajectories',
    );
  return db().$transaction(async (tx) => {
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
        filter: data.filter as Prisma.InputJsonValue,
        leaseSeconds: data.leaseSeconds,
        createdById: actorId,
        items: { createMany: { data: items } },
      },
      select: { id: true, name: true, mode: true, status: true },
    });
    await writeAudit(tx, {
      actorId,
      action: 'campaign.create',
      targetType: 'campaign',
      targetId: campaign.id,
      projectId,
      data: { items: items.length },
    });
    return { ...campaign, items: items.length };
  });
}
