import { db } from '../../db/client';

/**
 * The inputs of many canary comparisons at once (lib/training/view-canary-comparisons.ts, the
 * hill-climb page): the runs' facts, the shared tasks of every checkpoint/parent pair with their
 * verifier rewards, the judges' scores of those trajectories and the current votes of the canary
 * campaigns, four statements whatever the number of checkpoints, the first three at once (each
 * starts from the run ids), the judges' after the shared tasks. They read what the per-run reads
 * of queries/canary.ts read (runComparisonFacts, sharedTasks, trajectorySignalsOf, campaignVotes),
 * in the same order, so both give the same figures.
 */

/** One run's comparison facts: its project, checkpoint and parent, and its recorded canary campaign (null: none, or gone). */
export interface RunComparisonFactsRow {
  id: string;
  projectId: string;
  project: string;
  childId: string | null;
  childName: string | null;
  parentId: string | null;
  parentName: string | null;
  campaignId: string | null;
  campaignName: string | null;
  campaignStatus: string | null;
  /** the campaign's non-gold items */
  campaignItems: number | null;
}

/** The comparison facts of the runs `runIds` (those that exist). */
export async function comparisonFactsOfRuns(runIds: string[]): Promise<RunComparisonFactsRow[]> {
  if (runIds.length === 0) return [];
  return db().$queryRaw<RunComparisonFactsRow[]>`
    SELECT r.id, r."projectId", pr.slug AS project,
           c.id AS "childId", c.name AS "childName", pa.id AS "parentId", pa.name AS "parentName",
           k.id AS "campaignId", k.name AS "campaignName", k.status::text AS "campaignStatus",
           CASE WHEN k.id IS NULL THEN NULL
                ELSE (SELECT count(*)::int FROM campaign_item ci WHERE ci."campaignId" = k.id AND NOT ci."isGold") END AS "campaignItems"
      FROM training_run r
      JOIN project pr ON pr.id = r."projectId"
      LEFT JOIN policy c ON c."trainingRunId" = r.id
      LEFT JOIN policy pa ON pa.id = c."parentId"
      LEFT JOIN campaign k ON k.id = r."canaryCampaignId"
     WHERE r.id = ANY(${runIds}::text[])`;
}

/** A task both sides of a pair ran: the newest trajectory of each side and its verifier reward. */
export interface PairTaskRow {
  childId: string;
  parentId: string;
  taskId: string;
  child: string;
  parent: string;
  childReward: number | null;
  parentReward: number | null;
}

/**
 * The shared tasks of the checkpoint/parent pair of every run among `runIds` in the project (its
 * checkpoint, the policy it produced, and that policy's parent), as sharedTasks reads one pair: the
 * newest trajectory of each side per task; ordered by pair, then task name and id. Each policy's
 * newest trajectories are read once, however many pairs it is in (a checkpoint is the parent of the next).
 */
export async function sharedTasksOfRuns(projectId: string, runIds: string[]): Promise<PairTaskRow[]> {
  if (runIds.length === 0) return [];
  return db().$queryRaw<PairTaskRow[]>`
    WITH pairs AS (
           SELECT c.id AS child, c."parentId" AS parent FROM policy c
            WHERE c."trainingRunId" = ANY(${runIds}::text[]) AND c."projectId" = ${projectId} AND c."parentId" IS NOT NULL),
         newest AS (
           SELECT DISTINCT ON ("policyId", "taskId") "policyId", "taskId", id, "verifierReward"
             FROM trajectory WHERE "policyId" IN (SELECT child FROM pairs UNION SELECT parent FROM pairs)
            ORDER BY "policyId", "taskId", "createdAt" DESC, id DESC)
    SELECT x.child AS "childId", x.parent AS "parentId", c."taskId", c.id AS child, p.id AS parent,
           c."verifierReward" AS "childReward", p."verifierReward" AS "parentReward"
      FROM pairs x
      JOIN newest c ON c."policyId" = x.child
      JOIN newest p ON p."policyId" = x.parent AND p."taskId" = c."taskId"
      JOIN task t ON t.id = c."taskId"
     ORDER BY x.child, x.parent, t.name, c."taskId"`;
}

/** The judges' verdicts on trajectories `ids`. */
export async function judgeScoresOf(
  ids: string[],
): Promise<{ trajectoryId: string; judge: string; score: number | null; label: string | null }[]> {
  if (ids.length === 0) return [];
  return db().$queryRaw`
    SELECT "trajectoryId", judge, score, label FROM judge_score WHERE "trajectoryId" = ANY(${ids}::text[])`;
}

/**
 * The current votes of the non-gold items of the canary campaigns recorded on runs `runIds` (as
 * campaignVotes reads one campaign): each with its campaign, task and side A's policy.
 */
export async function votesOfRuns(
  runIds: string[],
): Promise<{ campaignId: string; taskId: string; policyA: string; preference: number; bothBad: boolean }[]> {
  if (runIds.length === 0) return [];
  return db().$queryRaw`
    SELECT ci."campaignId", ta."taskId", ta."policyId" AS "policyA", pc.preference, pc."bothBad"
      FROM (SELECT DISTINCT "canaryCampaignId" AS id FROM training_run WHERE id = ANY(${runIds}::text[]) AND "canaryCampaignId" IS NOT NULL) k
      JOIN campaign_item ci ON ci."campaignId" = k.id AND NOT ci."isGold"
      JOIN pairwise_comparison pc ON pc."campaignItemId" = ci.id AND pc."isCurrent"
      JOIN trajectory ta ON ta.id = ci."trajectoryId"`;
}
