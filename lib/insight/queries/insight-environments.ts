import { Prisma } from '@prisma/client';
import { hasFlag } from '../review-verdict';
import { insightKeys, type InsightKeys } from '../trajectory-summary';
import { db } from '../../db/client';
import { sql } from '../../db/sql';
import { num } from './insight-sql';
import { refreshQueuedInsight } from './insight-refresh';

/**
 * The environment page's data, aggregated in Postgres from the trajectory summaries
 * (lib/insight/queries/insight-summary.ts; one row per environment, per task, or per distinct verdict count;
 * never one per review). Units:
 * - verifier: trajectories with a reward; pass = reward >= 1;
 * - reviewers: trajectories with current single-mode reviews; a trajectory's reviewer verdict is
 *   the majority of its reviews' verdicts (ties: no verdict); flagged = any current review flags it;
 * - reviewer agreement: campaign items with two or more verdicts, grouped by (passes, fails).
 */
export interface EnvironmentRow {
  id: string;
  name: string;
}

export interface TaskRow {
  environmentId: string;
  taskId: string;
  trajectories: number;
  scored: number;
  passes: number;
}

export interface ReviewedRow {
  environmentId: string;
  reviewed: number;
  humanPass: number;
  humanJudged: number;
  rewardHacking: number;
  answerLeakage: number;
  pp: number;
  pf: number;
  fp: number;
  ff: number;
}

export interface ItemVerdictRow {
  environmentId: string;
  passes: number;
  fails: number;
  units: number;
}

/** A flagged review as stored: its evidence as written (environment-report.ts reads its notes). */
export interface FlaggedMomentRow {
  environmentId: string;
  trajectoryId: string;
  task: string;
  reviewId: string;
  rewardHacking: boolean;
  answerLeakage: boolean;
  submittedAt: Date;
  evidence: unknown;
}

export interface EnvironmentInsightData {
  environments: EnvironmentRow[];
  tasks: TaskRow[];
  reviewed: ReviewedRow[];
  itemVerdicts: ItemVerdictRow[];
  flagged: FlaggedMomentRow[];
}

/** Flagged trajectories kept per environment for the "flagged moments" list (latest flagged first): its newest flagged review each. */
export const FLAGGED_PER_ENVIRONMENT = 5;

export async function environmentInsightData(projectId: string): Promise<EnvironmentInsightData> {
  await refreshQueuedInsight(); // what submits queued, before reading the summaries (lib/insight/queries/insight-refresh.ts)
  const [environments, tasks, verdicts] = await Promise.all([
    db().environment.findMany({ where: { projectId }, select: { id: true, name: true }, orderBy: { name: 'asc' } }),
    taskRows(projectId),
    verdictRows(projectId),
  ]);
  const flagged = await flaggedMoments(verdicts.flaggedIds);
  return { environments, tasks, reviewed: verdicts.reviewed, itemVerdicts: verdicts.items, flagged };
}

/** Per task, from the stored per-(task, policy) counts (insight_group_stat; see insight-policies.ts policyStats). */
async function taskRows(projectId: string): Promise<TaskRow[]> {
  // plain SQL on the pool: ~1,000 tasks at bench scale, where Prisma's raw decoding cost more than the statement
  const rows = await sql<{ environmentId: string; taskId: string; trajectories: string; scored: string; passes: string }>(
    `SELECT t."environmentId", t.id AS "taskId", coalesce(sum(s.trajectories), 0) AS trajectories, coalesce(sum(s.scored), 0) AS scored,
            coalesce(sum(s."verifierPasses"), 0) AS passes
     FROM task t
     LEFT JOIN insight_group_stat s ON s."taskId" = t.id
     WHERE t."projectId" = $1 AND t."environmentId" IS NOT NULL
     GROUP BY t.id`,
    [projectId],
  );
  return rows.map((r) => ({
    environmentId: r.environmentId,
    taskId: r.taskId,
    trajectories: num(r.trajectories),
    scored: num(r.scored),
    passes: num(r.passes),
  }));
}

async function verdictRows(projectId: string): Promise<{ reviewed: ReviewedRow[]; items: ItemVerdictRow[]; flaggedIds: string[] }> {
  const [traj, items, flagged] = await Promise.all([
    db().$queryRaw<
      { environmentId: string; a: bigint; b: bigint; c: bigint; d: bigint; e: bigint; f: bigint; g: bigint; h: bigint; i: bigint }[]
    >(environmentVerdictsSql(projectId)),
    // the stored per-task sums of the summaries' item verdicts (insight_item_vote_stat)
    db().$queryRaw<{ environmentId: string; passes: number; fails: number; units: bigint }[]>`
      SELECT t."environmentId", s.passes, s.fails, sum(s.units) AS units
      FROM insight_item_vote_stat s
      JOIN task t ON t.id = s."taskId"
      WHERE s."projectId" = ${projectId} AND t."environmentId" IS NOT NULL
      GROUP BY 1, 2, 3
      HAVING sum(s.units) <> 0`,
    // per environment, its newest flagged summaries: each walks trajectory_insight_flagged_idx (newest first) and stops at the fifth
    db().$queryRaw<{ id: string }[]>`
      SELECT x.id FROM environment e
      CROSS JOIN LATERAL (
        SELECT ti."flaggedReviewId" AS id
        FROM trajectory_insight ti
        JOIN trajectory tr ON tr.id = ti."trajectoryId"
        JOIN task t ON t.id = tr."taskId"
        WHERE ti."projectId" = ${projectId} AND ti."flaggedReviewId" IS NOT NULL AND t."environmentId" = e.id
        ORDER BY ti."flaggedAt" DESC, ti."flaggedReviewId"
        LIMIT ${FLAGGED_PER_ENVIRONMENT}
      ) x
      WHERE e."projectId" = ${projectId}`,
  ]);
  return {
    reviewed: traj.map((r) => ({
      environmentId: r.environmentId,
      reviewed: num(r.a),
      humanPass: num(r.b),
      humanJudged: num(r.c),
      rewardHacking: num(r.d),
      answerLeakage: num(r.e),
      pp: num(r.f),
      pf: num(r.g),
      fp: num(r.h),
      ff: num(r.i),
    })),
    items: items.map((r) => ({ environmentId: r.environmentId, passes: r.passes, fails: r.fails, units: num(r.units) })),
    flaggedIds: flagged.map((r) => r.id),
  };
}

/**
 * The environment page's verdict statement: per environment, its reviewed trajectories, their
 * reviewer verdicts and flags, and the verifier-vs-reviewer table, summed from the stored
 * per-(task, policy) counts (insight_group_stat: kept by the write path's triggers, recounted by
 * insight-group-stats.db.test.ts).
 */
export function environmentVerdictsSql(projectId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT t."environmentId",
           sum(s.reviewed) AS a, sum(s."humanPass") AS b, sum(s."humanJudged") AS c,
           sum(s."rewardHacking") AS d, sum(s."answerLeakage") AS e,
           sum(s."passPass") AS f, sum(s."passFail") AS g, sum(s."failPass") AS h, sum(s."failFail") AS i
    FROM insight_group_stat s
    JOIN task t ON t.id = s."taskId"
    WHERE s."projectId" = ${projectId} AND t."environmentId" IS NOT NULL
    GROUP BY t."environmentId"
    HAVING sum(s.reviewed) > 0`;
}

async function flaggedMoments(reviewIds: string[]): Promise<FlaggedMomentRow[]> {
  if (reviewIds.length === 0) return [];
  const rows = await db().$queryRaw<
    {
      environmentId: string;
      trajectoryId: string;
      task: string;
      reviewId: string;
      answers: unknown;
      rubricVersionId: string;
      definition: unknown;
      submittedAt: Date;
      evidence: unknown;
    }[]
  >`
    SELECT t."environmentId", tr.id AS "trajectoryId", t.name AS task, r.id AS "reviewId", r.answers, r."rubricVersionId", rv.definition, r."submittedAt", r.evidence
    FROM review r
    JOIN rubric_version rv ON rv.id = r."rubricVersionId"
    JOIN campaign_item ci ON ci.id = r."campaignItemId"
    JOIN trajectory tr ON tr.id = ci."trajectoryId"
    JOIN task t ON t.id = tr."taskId"
    WHERE r.id IN (${Prisma.join(reviewIds)})
    ORDER BY t."environmentId", r."submittedAt" DESC, r.id`;
  // the same rule as the summaries: the rubric's flags question (lib/insight/trajectory-summary.ts)
  const keys = new Map<string, InsightKeys>();
  return rows.map((r) => {
    const k = keys.get(r.rubricVersionId) ?? insightKeys(r.definition);
    keys.set(r.rubricVersionId, k);
    return {
      environmentId: r.environmentId,
      trajectoryId: r.trajectoryId,
      task: r.task,
      reviewId: r.reviewId,
      rewardHacking: hasFlag(r.answers, k.flags, 'reward_hacking'),
      answerLeakage: hasFlag(r.answers, k.flags, 'answer_leakage'),
      submittedAt: r.submittedAt,
      evidence: r.evidence,
    };
  });
}
