import type { Prisma } from '@prisma/client';
import { type ItemLabels, type LabelTrajectory, referenceAnswerOf } from '../labels';
import type { OffendingItem } from '../guard';
import { storedEvidence, storedObservations, storedToolCalls } from '../stored-labels';
import type { Step } from '../../formats/trajectory';
import type { RubricDefinition } from '../../review/rubric';
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

/** The project a campaign belongs to, or null when there is no such campaign. */
export async function campaignProjectId(campaignId: string): Promise<string | null> {
  return (await db().campaign.findUnique({ where: { id: campaignId }, select: { projectId: true } }))?.projectId ?? null;
}

/** A project by id, or by slug or name; null when there is none. */
export async function findScopeProject(by: { id: string } | { slugOrName: string }): Promise<{ id: string; slug: string } | null> {
  if ('id' in by) return db().project.findUnique({ where: { id: by.id }, select: { id: true, slug: true } });
  return db().project.findFirst({
    where: { OR: [{ slug: by.slugOrName }, { name: by.slugOrName }] },
    select: { id: true, slug: true },
  });
}

/** At most `take` projects (to tell whether there is exactly one). */
export async function someProjects(take: number): Promise<{ id: string; slug: string }[]> {
  return db().project.findMany({ select: { id: true, slug: true }, take });
}

/** A project's campaigns (or the one with this id there) with their rubric versions (the definition as stored), by id. */
export async function scopeCampaigns(projectId: string, campaignId?: string) {
  return db().campaign.findMany({
    where: { projectId, ...(campaignId ? { id: campaignId } : {}) },
    select: { id: true, name: true, mode: true, rubricVersionId: true, rubricVersion: { select: { version: true, definition: true } } },
    orderBy: { id: 'asc' },
  });
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

/** The pages `read` answers (rows ordered by item then id, at most `pageSize`), each read after the last one's end. */
async function* keysetPages<T extends { id: string; campaignItemId: string }>(
  read: (afterLast: ReturnType<typeof after>) => Promise<T[]>,
  pageSize: number,
): AsyncGenerator<T[]> {
  let last: { itemId: string; id: string } | null = null;
  for (;;) {
    const page = await read(after(last));
    if (page.length === 0) break;
    yield page;
    const end = page[page.length - 1]!;
    last = { itemId: end.campaignItemId, id: end.id };
    if (page.length < pageSize) break;
  }
}

/**
 * Current reviews and comparisons of one campaign's items in scope, ordered by item then id
 * (an item's labels are contiguous), in pages of `pageSize`: constant memory per page.
 */
export async function* labelRecords(scope: DatasetScope, campaignId: string, pageSize = 5000): AsyncGenerator<LabelRecord[]> {
  const item = { ...itemWhere(scope), campaignId };
  const orderBy = [{ campaignItemId: 'asc' as const }, { id: 'asc' as const }];
  const reviews = keysetPages(
    (afterLast): Promise<Array<{ id: string; campaignItemId: string; reviewerId: string; answers: unknown }>> =>
      db().review.findMany({
        where: { isCurrent: true, item, ...afterLast },
        select: { id: true, campaignItemId: true, reviewerId: true, answers: true },
        orderBy,
        take: pageSize,
      }),
    pageSize,
  );
  const record = (r: { campaignItemId: string; reviewerId: string }, label: Pick<LabelRecord, 'answers' | 'preference' | 'bothBad'>) => ({
    itemId: r.campaignItemId,
    reviewerId: r.reviewerId,
    campaignId,
    ...label,
  });
  for await (const page of reviews)
    yield page.map((r) => record(r, { answers: r.answers as Record<string, unknown>, preference: null, bothBad: false }));
  const comparisons = keysetPages(
    (afterLast): Promise<Array<{ id: string; campaignItemId: string; reviewerId: string; preference: number; bothBad: boolean }>> =>
      db().pairwiseComparison.findMany({
        where: { isCurrent: true, item, ...afterLast },
        select: { id: true, campaignItemId: true, reviewerId: true, preference: true, bothBad: true },
        orderBy,
        take: pageSize,
      }),
    pageSize,
  );
  for await (const page of comparisons) yield page.map((r) => record(r, { answers: null, preference: r.preference, bothBad: r.bothBad }));
}

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
        toolCalls: storedToolCalls(s.toolCalls),
        observations: storedObservations(s.observations),
        timestamp: null,
        castTime: null,
        usage: null,
      })),
    });
  }
}

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
        evidence: storedEvidence(r.evidence),
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
  campaign: DatasetScope['campaigns'][number],
  options: { pageSize?: number; taskPageSize?: number } = {},
): AsyncGenerator<ItemLabels[]> {
  const campaignId = campaign.id;
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
