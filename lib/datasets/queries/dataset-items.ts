import type { Prisma } from '@prisma/client';
import { z } from 'zod';
import { type ItemLabels, type LabelTrajectory, referenceAnswerOf } from '../labels';
import type { OffendingItem } from '../guard';
import { observationSchema, toolCallSchema, type Step } from '../../formats/trajectory';
import { evidenceList } from '../../review/evidence';
import { rubricDefinition, type RubricDefinition } from '../../review/rubric';
import { AppError } from '../../errors';
import { db } from '../../db/client';

/**
 * Reads for dataset exports: the scope (project, campaigns), the guard's offending items, the
 * categorical labels (light, paged) and the items with labels and trajectories, a page at a time
 * in a stable order (campaign, task, item id) so the same content always yields the same file.
 */
export interface DatasetScope {
  projectId: string;
  projectName: string;
  campaignId: string | null;
  split: 'train' | 'eval' | null;
  campaigns: Array<{
    id: string;
    name: string;
    mode: 'single' | 'pairwise';
    rubricVersionId: string;
    rubricVersion: number;
    rubric: RubricDefinition;
  }>;
}

export async function resolveDatasetScope(input: {
  projectId?: string;
  project?: string;
  campaignId?: string;
  split?: 'train' | 'eval';
}): Promise<DatasetScope> {
  let projectId = input.projectId;
  if (!projectId && input.campaignId) {
    const c = await db().campaign.findUnique({ where: { id: input.campaignId }, select: { projectId: true } });
    if (!c) throw new AppError('NOT_FOUND', `No campaign with id ${input.campaignId}`);
    projectId = c.projectId;
  }
  let project;
  if (projectId) project = await db().project.findUnique({ where: { id: projectId }, select: { id: true, slug: true } });
  else if (input.project)
    project = await db().project.findFirst({
      where: { OR: [{ slug: input.project }, { name: input.project }] },
      select: { id: true, slug: true },
    });
  else {
    const all = await db().project.findMany({ select: { id: true, slug: true }, take: 2 });
    if (all.length !== 1) throw new AppError('BAD_INPUT', 'Name the project (--project NAME) or a campaign (--campaign ID)');
    project = all[0];
  }
  if (!project) throw new AppError('NOT_FOUND', `No such project: ${input.project ?? projectId}`);
  const campaigns = await db().campaign.findMany({
    where: { projectId: project.id, ...(input.campaignId ? { id: input.campaignId } : {}) },
    select: { id: true, name: true, mode: true, rubricVersionId: true, rubricVersion: { select: { version: true, definition: true } } },
    orderBy: { id: 'asc' },
  });
  if (input.campaignId && campaigns.length === 0)
    throw new AppError('NOT_FOUND', `No campaign ${input.campaignId} in project ${project.slug}`);
  return {
    projectId: project.id,
    projectName: project.slug,
    campaignId: input.campaignId ?? null,
    split: input.split ?? null,
    campaigns: campaigns.map((c) => ({
      id: c.id,
      name: c.name,
      mode: c.mode,
      rubricVersionId: c.rubricVersionId,
      rubricVersion: c.rubricVersion.version,
      rubric: rubricDefinition.parse(c.rubricVersion.definition),
    })),
  };
}

function itemWhere(scope: DatasetScope): Prisma.CampaignItemWhereInput {
  return {
    campaign: { projectId: scope.projectId, ...(scope.campaignId ? { id: scope.campaignId } : {}) },
    isGold: false,
    ...(scope.split ? { trajectory: { task: { split: scope.split } } } : {}),
  };
}

export async function countDatasetItems(scope: DatasetScope): Promise<number> {
  return db().campaignItem.count({ where: itemWhere(scope) });
}

/** Items in scope that touch an eval-split task (either side of a pair); at most `limit`. */
export async function findEvalItems(scope: DatasetScope, limit = 1000): Promise<OffendingItem[]> {
  const rows = await db().campaignItem.findMany({
    where: { AND: [itemWhere(scope), { OR: [{ trajectory: { task: { split: 'eval' } } }, { trajectoryB: { task: { split: 'eval' } } }] }] },
    select: { id: true, trajectoryId: true, trajectoryBId: true, trajectory: { select: { task: { select: { name: true } } } } },
    orderBy: { id: 'asc' },
    take: limit,
  });
  return rows.map((r) => ({
    itemId: r.id,
    task: r.trajectory.task.name,
    trajectoryIds: [r.trajectoryId, ...(r.trajectoryBId ? [r.trajectoryBId] : [])],
  }));
}

export interface LabelRecord {
  itemId: string;
  reviewerId: string;
  campaignId: string;
  /** single: review answers; pairwise: null */
  answers: Record<string, unknown> | null;
  preference: number | null;
  bothBad: boolean;
}

/** Keyset condition "after (item, id)" for label pages ordered by item then id. */
function after(last: { itemId: string; id: string } | null) {
  return last ? { OR: [{ campaignItemId: { gt: last.itemId } }, { campaignItemId: last.itemId, id: { gt: last.id } }] } : {};
}

/**
 * Current reviews and comparisons of one campaign's items in scope, ordered by item then id
 * (an item's labels are contiguous), in pages of `pageSize`: constant memory per page.
 */
export async function* labelRecords(scope: DatasetScope, campaignId: string, pageSize = 5000): AsyncGenerator<LabelRecord[]> {
  const item = { ...itemWhere(scope), campaignId };
  const orderBy = [{ campaignItemId: 'asc' as const }, { id: 'asc' as const }];
  let last: { itemId: string; id: string } | null = null;
  for (;;) {
    const page: Array<{ id: string; campaignItemId: string; reviewerId: string; answers: unknown }> = await db().review.findMany({
      where: { isCurrent: true, item, ...after(last) },
      select: { id: true, campaignItemId: true, reviewerId: true, answers: true },
      orderBy,
      take: pageSize,
    });
    if (page.length === 0) break;
    yield page.map((r) => ({
      itemId: r.campaignItemId,
      reviewerId: r.reviewerId,
      campaignId,
      answers: r.answers as Record<string, unknown>,
      preference: null,
      bothBad: false,
    }));
    const end = page[page.length - 1]!;
    last = { itemId: end.campaignItemId, id: end.id };
    if (page.length < pageSize) break;
  }
  last = null;
  for (;;) {
    const page: Array<{ id: string; campaignItemId: string; reviewerId: string; preference: number; bothBad: boolean }> =
      await db().pairwiseComparison.findMany({
        where: { isCurrent: true, item, ...after(last) },
        select: { id: true, campaignItemId: true, reviewerId: true, preference: true, bothBad: true },
        orderBy,
        take: pageSize,
      });
    if (page.length === 0) break;
    yield page.map((r) => ({
      itemId: r.campaignItemId,
      reviewerId: r.reviewerId,
      campaignId,
      answers: null,
      preference: r.preference,
      bothBad: r.bothBad,
    }));
    const end = page[page.length - 1]!;
    last = { itemId: end.campaignItemId, id: end.id };
    if (page.length < pageSize) break;
  }
}

const toolCalls = z.array(toolCallSchema).catch([]);
const observations = z.array(observationSchema).catch([]);

async function loadLabelTrajectories(ids: string[], cache: Map<string, LabelTrajectory>): Promise<void> {
  const missing = [...new Set(ids)].filter((id) => !cache.has(id));
  if (missing.length === 0) return;
  const rows = await db().trajectory.findMany({
    where: { id: { in: missing } },
    select: {
      id: true,
      task: { select: { name: true, instruction: true, split: true, metadata: true } },
      policy: { select: { name: true } },
      steps: { select: { index: true, source: true, text: true, toolCalls: true, observations: true }, orderBy: { index: 'asc' } },
    },
  });
  for (const r of rows) {
    cache.set(r.id, {
      id: r.id,
      taskName: r.task.name,
      split: r.task.split,
      instruction: r.task.instruction,
      referenceAnswer: referenceAnswerOf(r.task.metadata),
      policy: r.policy.name,
      steps: r.steps.map((s): Step => ({
        index: s.index,
        source: s.source as Step['source'],
        text: s.text,
        reasoning: null,
        toolCalls: toolCalls.parse(s.toolCalls),
        observations: observations.parse(s.observations),
        timestamp: null,
        castTime: null,
        usage: null,
      })),
    });
  }
}

const evidence = evidenceList.catch([]);

const itemSelect = {
  id: true,
  campaignId: true,
  trajectoryId: true,
  trajectoryBId: true,
  trajectory: { select: { taskId: true } },
  reviews: { where: { isCurrent: true }, select: { id: true, reviewerId: true, answers: true, evidence: true }, orderBy: { id: 'asc' } },
  comparisons: {
    where: { isCurrent: true },
    select: { id: true, reviewerId: true, preference: true, bothBad: true },
    orderBy: { id: 'asc' },
  },
  adjudications: { where: { isCurrent: true }, select: { id: true, answers: true, preference: true, bothBad: true }, take: 1 },
} satisfies Prisma.CampaignItemSelect;
type ItemRow = Prisma.CampaignItemGetPayload<{ select: typeof itemSelect }>;

/** Trajectories kept between pages (pairs of one task share them); bounded, oldest out first. */
const TRAJECTORY_CACHE_SIZE = 500;

async function toLabels(scope: DatasetScope, page: ItemRow[], cache: Map<string, LabelTrajectory>): Promise<ItemLabels[]> {
  const campaigns = new Map(scope.campaigns.map((c) => [c.id, c]));
  const ids = page.flatMap((p) => [p.trajectoryId, ...(p.trajectoryBId ? [p.trajectoryBId] : [])]);
  await loadLabelTrajectories(ids, cache);
  const pageIds = new Set(ids);
  for (const key of cache.keys()) {
    if (cache.size <= TRAJECTORY_CACHE_SIZE) break;
    if (!pageIds.has(key)) cache.delete(key);
  }
  return page.map((p): ItemLabels => {
    const c = campaigns.get(p.campaignId)!;
    const base = {
      itemId: p.id,
      campaignId: p.campaignId,
      campaignName: c.name,
      rubricVersionId: c.rubricVersionId,
      rubricVersion: c.rubricVersion,
    };
    const adj = p.adjudications[0];
    if (p.trajectoryBId) {
      return {
        ...base,
        mode: 'pairwise',
        a: cache.get(p.trajectoryId)!,
        b: cache.get(p.trajectoryBId)!,
        comparisons: p.comparisons,
        adjudication: adj ? { id: adj.id, preference: adj.preference, bothBad: adj.bothBad } : null,
      };
    }
    return {
      ...base,
      mode: 'single',
      rubric: c.rubric,
      trajectory: cache.get(p.trajectoryId)!,
      reviews: p.reviews.map((r) => ({
        id: r.id,
        reviewerId: r.reviewerId,
        answers: r.answers as Record<string, unknown>,
        evidence: evidence.parse(r.evidence),
      })),
      adjudication: adj ? { id: adj.id, answers: adj.answers as Record<string, unknown> } : null,
    };
  });
}

/**
 * One campaign's items in scope with their current labels and trajectories, a page at a time.
 * Pairwise: `pageSize` items a page, by item id. Single: `taskPageSize` tasks a page with all
 * their items (score pairs need a task's items together), by task id then item id.
 * Trajectories are loaded per page into a bounded cache, so memory stays flat however many
 * items there are.
 */
export async function* itemLabelPages(
  scope: DatasetScope,
  campaignId: string,
  options: { pageSize?: number; taskPageSize?: number } = {},
): AsyncGenerator<ItemLabels[]> {
  const campaign = scope.campaigns.find((c) => c.id === campaignId);
  if (!campaign) throw new AppError('NOT_FOUND', `Campaign ${campaignId} is not in this export`);
  const where = { ...itemWhere(scope), campaignId };
  const cache = new Map<string, LabelTrajectory>();
  if (campaign.mode === 'pairwise') {
    const pageSize = options.pageSize ?? 500;
    let cursor: string | undefined;
    for (;;) {
      const page = await db().campaignItem.findMany({
        where,
        select: itemSelect,
        orderBy: { id: 'asc' },
        take: pageSize,
        ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
      });
      if (page.length === 0) break;
      yield await toLabels(scope, page, cache);
      cursor = page[page.length - 1]!.id;
      if (page.length < pageSize) break;
    }
    return;
  }
  const taskPageSize = options.taskPageSize ?? 100;
  let taskCursor: string | undefined;
  for (;;) {
    const tasks = await db().task.findMany({
      where: { projectId: scope.projectId, trajectories: { some: { campaignItems: { some: where } } } },
      select: { id: true },
      orderBy: { id: 'asc' },
      take: taskPageSize,
      ...(taskCursor ? { cursor: { id: taskCursor }, skip: 1 } : {}),
    });
    if (tasks.length === 0) break;
    const page = await db().campaignItem.findMany({
      where: { ...where, trajectory: { ...((where.trajectory as object) ?? {}), taskId: { in: tasks.map((t) => t.id) } } },
      select: itemSelect,
    });
    page.sort((x, y) =>
      x.trajectory.taskId < y.trajectory.taskId
        ? -1
        : x.trajectory.taskId > y.trajectory.taskId
          ? 1
          : x.id < y.id
            ? -1
            : x.id > y.id
              ? 1
              : 0,
    );
    yield await toLabels(scope, page, cache);
    taskCursor = tasks[tasks.length - 1]!.id;
    if (tasks.length < taskPageSize) break;
  }
}

/**
 * The given items in scope (others are silently left out: not in the sink's campaign, gold, or
 * outside the scope's split), with their current labels and trajectories, in id order. For
 * training sinks, which derive rows for the items of a batch of label events.
 */
export async function itemLabelsForIds(
  scope: DatasetScope,
  ids: readonly string[],
  cache: Map<string, LabelTrajectory> = new Map(),
): Promise<ItemLabels[]> {
  if (ids.length === 0) return [];
  const page = await db().campaignItem.findMany({
    where: { AND: [itemWhere(scope), { id: { in: [...new Set(ids)] } }] },
    select: itemSelect,
    orderBy: { id: 'asc' },
  });
  return toLabels(scope, page, cache);
}

/**
 * Single-item campaigns: the other items of the same tasks (same campaigns) that were final at
 * or before label event `maxSeq` (score pairs are formed with them), excluding `exclude`.
 */
export async function finalSiblingItemIds(
  scope: DatasetScope,
  items: readonly ItemLabels[],
  maxSeq: bigint,
  exclude: ReadonlySet<string>,
): Promise<string[]> {
  const single = items.filter((i) => i.mode === 'single');
  if (single.length === 0) return [];
  const pairs = new Map<string, Set<string>>();
  for (const i of single) {
    if (i.mode !== 'single') continue;
    const byCampaign = pairs.get(i.campaignId) ?? new Set<string>();
    byCampaign.add(i.trajectory.taskName);
    pairs.set(i.campaignId, byCampaign);
  }
  const out: string[] = [];
  for (const [campaignId, taskNames] of pairs) {
    const rows = await db().campaignItem.findMany({
      where: {
        AND: [
          itemWhere(scope),
          { campaignId, trajectoryBId: null, trajectory: { task: { projectId: scope.projectId, name: { in: [...taskNames] } } } },
          { labelEvents: { some: { seq: { lte: maxSeq } } } },
        ],
      },
      select: { id: true },
      orderBy: { id: 'asc' },
    });
    for (const r of rows) if (!exclude.has(r.id)) out.push(r.id);
  }
  return out;
}
