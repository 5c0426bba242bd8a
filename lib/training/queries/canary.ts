import type { Prisma } from '@prisma/client';
import { db } from '../../db/client';

/**
 * Reads and writes of the canary check (lib/training/open-canary-campaign.ts,
 * lib/training/view-canary-comparison.ts).
 */

/**
 * The policies of a project named `names` that are in a lineage: a checkpoint (parentId set) or
 * the parent of one. One indexed statement: an ordinary import (no lineage) finds none.
 */
export async function lineagePoliciesNamed(projectId: string, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const rows = await db().$queryRaw<{ id: string }[]>`
    SELECT p.id FROM policy p
    WHERE p."projectId" = ${projectId} AND p.name = ANY(${names}::text[])
      AND (p."parentId" IS NOT NULL OR EXISTS (SELECT 1 FROM policy c WHERE c."parentId" = p.id))`;
  return rows.map((r) => r.id);
}

/** A checkpoint and its parent: one canary comparison. */
export interface CanaryLineage {
  childId: string;
  childName: string;
  parentId: string;
  parentName: string;
  /** the run that produced the checkpoint (null: a policy given a parent otherwise) */
  runId: string | null;
}

/** The checkpoints of a project among `policyIds`, or whose parent is among them, with their parents (by child name). */
export async function checkpointsTouching(projectId: string, policyIds: string[]): Promise<CanaryLineage[]> {
  if (policyIds.length === 0) return [];
  return db().$queryRaw<CanaryLineage[]>`
    SELECT c.id AS "childId", c.name AS "childName", p.id AS "parentId", p.name AS "parentName", c."trainingRunId" AS "runId"
    FROM policy c JOIN policy p ON p.id = c."parentId"
    WHERE c."projectId" = ${projectId} AND (c.id = ANY(${policyIds}::text[]) OR c."parentId" = ANY(${policyIds}::text[]))
    ORDER BY c.name`;
}

/** One task both sides ran: the newest trajectory of each. */
export interface SharedTask {
  taskId: string;
  taskName: string;
  child: string;
  parent: string;
}

/** The tasks with trajectories of both policies, with the newest trajectory of each side (by task name). */
export async function sharedTasks(childId: string, parentId: string): Promise<SharedTask[]> {
  return db().$queryRaw<SharedTask[]>`
    WITH c AS (SELECT DISTINCT ON ("taskId") "taskId", id FROM trajectory WHERE "policyId" = ${childId} ORDER BY "taskId", "createdAt" DESC, id DESC),
         p AS (SELECT DISTINCT ON ("taskId") "taskId", id FROM trajectory WHERE "policyId" = ${parentId} ORDER BY "taskId", "createdAt" DESC, id DESC)
    SELECT c."taskId", t.name AS "taskName", c.id AS child, p.id AS parent
    FROM c JOIN p ON p."taskId" = c."taskId" JOIN task t ON t.id = c."taskId"
    ORDER BY t.name, c."taskId"`;
}

/** A run's canary campaign (if recorded) and the review settings of the campaign its labels came from. */
export async function runCanarySource(runId: string) {
  const run = await db().trainingRun.findUnique({
    where: { id: runId },
    select: { id: true, projectId: true, campaignId: true, canaryCampaignId: true },
  });
  if (!run) return null;
  const source = run.campaignId
    ? await db().campaign.findUnique({
        where: { id: run.campaignId },
        select: { rubricVersionId: true, overlap: true, requiredExpertise: true },
      })
    : null;
  return { ...run, source };
}

/** The campaign of the project recorded as the canary of this checkpoint (its filter's `canary.child`), oldest first; null when none. */
export async function canaryCampaignOfChild(projectId: string, childId: string): Promise<{ id: string; name: string } | null> {
  const rows = await db().$queryRaw<{ id: string; name: string }[]>`
    SELECT id, name FROM campaign
    WHERE "projectId" = ${projectId} AND mode = 'pairwise' AND filter->'canary'->>'child' = ${childId}
    ORDER BY "createdAt", id LIMIT 1`;
  return rows[0] ?? null;
}

/** A campaign's name and the task ids its (non-gold) items cover. */
export async function canaryCampaignTasks(campaignId: string): Promise<{ name: string; taskIds: Set<string> } | null> {
  const campaign = await db().campaign.findUnique({ where: { id: campaignId }, select: { name: true } });
  if (!campaign) return null;
  const rows = await db().$queryRaw<{ taskId: string }[]>`
    SELECT DISTINCT t."taskId" FROM campaign_item ci JOIN trajectory t ON t.id = ci."trajectoryId"
    WHERE ci."campaignId" = ${campaignId} AND NOT ci."isGold"`;
  return { name: campaign.name, taskIds: new Set(rows.map((r) => r.taskId)) };
}

/** The pairwise gold items of a project's campaigns (a pair and its known answers), one per pair. */
export async function projectGoldPairs(
  projectId: string,
): Promise<{ trajectoryId: string; trajectoryBId: string; goldAnswers: unknown }[]> {
  return db().$queryRaw`
    SELECT DISTINCT ON (ci."trajectoryId", ci."trajectoryBId") ci."trajectoryId", ci."trajectoryBId", ci."goldAnswers"
    FROM campaign_item ci JOIN campaign c ON c.id = ci."campaignId"
    WHERE c."projectId" = ${projectId} AND c.mode = 'pairwise' AND ci."isGold" AND ci."trajectoryBId" IS NOT NULL AND ci."goldAnswers" IS NOT NULL
    ORDER BY ci."trajectoryId", ci."trajectoryBId", c."createdAt"`;
}

/** One item to add to a canary campaign. */
export interface CanaryItemRow {
  trajectoryId: string;
  trajectoryBId: string;
  isGold: boolean;
  goldAnswers?: unknown;
}

/**
 * Adds items to a campaign (those already there are skipped) and the new non-gold trajectories to
 * its filter's `trajectoryIds`, with `audit` in the same transaction; answers how many were added.
 */
export async function addCampaignItems(
  campaignId: string,
  items: CanaryItemRow[],
  audit: (tx: Prisma.TransactionClient, added: number) => Promise<void>,
): Promise<number> {
  if (items.length === 0) return 0;
  return db().$transaction(async (tx) => {
    const { count } = await tx.campaignItem.createMany({
      data: items.map((i) => ({
        campaignId,
        trajectoryId: i.trajectoryId,
        trajectoryBId: i.trajectoryBId,
        isGold: i.isGold,
        goldAnswers: (i.goldAnswers ?? undefined) as Prisma.InputJsonValue | undefined,
      })),
      skipDuplicates: true,
    });
    if (count === 0) return 0;
    const ids = items.filter((i) => !i.isGold).flatMap((i) => [i.trajectoryId, i.trajectoryBId]);
    if (ids.length > 0) {
      await tx.$executeRaw`
        UPDATE campaign SET filter = jsonb_set(filter, '{trajectoryIds}',
          (SELECT coalesce(jsonb_agg(DISTINCT x), '[]'::jsonb) FROM jsonb_array_elements_text(coalesce(filter->'trajectoryIds', '[]'::jsonb) || ${JSON.stringify(ids)}::jsonb) AS x))
        WHERE id = ${campaignId}`;
    }
    await audit(tx, count);
    return count;
  });
}

/** Records the run's canary campaign unless one is recorded already (and still exists); answers the one recorded. */
export async function recordRunCanaryCampaign(runId: string, campaignId: string): Promise<string | null> {
  await db().$executeRaw`
    UPDATE training_run r SET "canaryCampaignId" = ${campaignId}
    WHERE r.id = ${runId} AND (r."canaryCampaignId" IS NULL OR NOT EXISTS (SELECT 1 FROM campaign c WHERE c.id = r."canaryCampaignId"))`;
  const run = await db().trainingRun.findUnique({ where: { id: runId }, select: { canaryCampaignId: true } });
  return run?.canaryCampaignId ?? null;
}

/** What the comparison of a run needs to start: the run's project, its checkpoint and parent, its canary campaign. */
export async function runComparisonFacts(runId: string) {
  const run = await db().trainingRun.findUnique({
    where: { id: runId },
    select: {
      id: true,
      projectId: true,
      canaryCampaignId: true,
      project: { select: { slug: true } },
      checkpoint: { select: { id: true, name: true, parent: { select: { id: true, name: true } } } },
    },
  });
  if (!run) return null;
  const campaign = run.canaryCampaignId
    ? await db().campaign.findUnique({
        where: { id: run.canaryCampaignId },
        select: { id: true, name: true, status: true, _count: { select: { items: { where: { isGold: false } } } } },
      })
    : null;
  return { ...run, campaign: campaign && { id: campaign.id, name: campaign.name, status: campaign.status, items: campaign._count.items } };
}

/** The verifier rewards and judge scores of trajectories (by id). */
export async function trajectorySignalsOf(ids: string[]) {
  if (ids.length === 0) return [];
  return db().trajectory.findMany({
    where: { id: { in: ids } },
    select: { id: true, verifierReward: true, judgeScores: { select: { judge: true, score: true, label: true } } },
  });
}

/** The current votes of a campaign's non-gold items: each with its task and the policy shown as side A. */
export async function campaignVotes(campaignId: string) {
  return db().$queryRaw<{ taskId: string; policyA: string; preference: number; bothBad: boolean }[]>`
    SELECT ta."taskId", ta."policyId" AS "policyA", pc.preference, pc."bothBad"
    FROM pairwise_comparison pc
    JOIN campaign_item ci ON ci.id = pc."campaignItemId"
    JOIN trajectory ta ON ta.id = ci."trajectoryId"
    WHERE ci."campaignId" = ${campaignId} AND NOT ci."isGold" AND pc."isCurrent"`;
}
