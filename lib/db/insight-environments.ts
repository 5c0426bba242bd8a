import { Prisma } from '@prisma/client';
import { z } from 'zod';
import { evidenceNote } from '../review/evidence';
import { db } from './client';
import { aggregateQuery, num, reviewFactsSql, rubricKeys, verifierPassSql, type RubricKeys } from './insight-sql';

/**
 * The environment page's data, aggregated in Postgres (one row per environment, per task, or
 * per distinct verdict count; never one per review). Units:
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

export interface FlaggedMoment {
  environmentId: string;
  trajectoryId: string;
  task: string;
  reviewId: string;
  rewardHacking: boolean;
  answerLeakage: boolean;
  submittedAt: Date;
  notes: { frame: number; stepIndex: number | null; note: string }[];
}

export interface EnvironmentInsightData {
  environments: EnvironmentRow[];
  tasks: TaskRow[];
  reviewed: ReviewedRow[];
  itemVerdicts: ItemVerdictRow[];
  flagged: FlaggedMoment[];
}

/** Flagged items kept per environment for the "flagged moments" list (latest flagged first): one flagged review each. */
export const FLAGGED_PER_ENVIRONMENT = 5;

export async function environmentInsightData(projectId: string): Promise<EnvironmentInsightData> {
  const keys = await rubricKeys(projectId);
  const [environments, tasks, verdicts] = await Promise.all([
    db().environment.findMany({ where: { projectId }, select: { id: true, name: true }, orderBy: { name: 'asc' } }),
    taskRows(projectId),
    verdictRows(projectId, keys),
  ]);
  const flagged = await flaggedMoments(verdicts.flaggedIds);
  return { environments, tasks, reviewed: verdicts.reviewed, itemVerdicts: verdicts.items, flagged };
}

async function taskRows(projectId: string): Promise<TaskRow[]> {
  const rows = await db().$queryRaw<{ environmentId: string; taskId: string; trajectories: bigint; scored: bigint; passes: bigint }[]>`
    SELECT t."environmentId", t.id AS "taskId", count(tr.id) AS trajectories, count(tr."verifierReward") AS scored,
           count(*) FILTER (WHERE ${verifierPassSql}) AS passes
    FROM task t
    LEFT JOIN trajectory tr ON tr."taskId" = t.id
    WHERE t."projectId" = ${projectId} AND t."environmentId" IS NOT NULL
    GROUP BY t.id`;
  return rows.map((r) => ({ environmentId: r.environmentId, taskId: r.taskId, trajectories: num(r.trajectories), scored: num(r.scored), passes: num(r.passes) }));
}

async function verdictRows(projectId: string, keys: RubricKeys): Promise<{ reviewed: ReviewedRow[]; items: ItemVerdictRow[]; flaggedIds: string[] }> {
  type Row = {
    kind: 'traj' | 'item' | 'flag';
    environmentId: string;
    a: bigint;
    b: bigint;
    c: bigint;
    d: bigint;
    e: bigint;
    f: bigint;
    g: bigint;
    h: bigint;
    i: bigint;
    ids: string[] | null;
  };
  const rows = await aggregateQuery<Row>(verdictRowsSql(projectId, keys));
  const reviewed: ReviewedRow[] = [];
  const items: ItemVerdictRow[] = [];
  const flaggedIds: string[] = [];
  for (const r of rows) {
    if (r.kind === 'traj') {
      reviewed.push({
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
      });
    } else if (r.kind === 'item') {
      items.push({ environmentId: r.environmentId, passes: num(r.a), fails: num(r.b), units: num(r.c) });
    } else {
      flaggedIds.push(...(r.ids ?? []));
    }
  }
  return { reviewed, items, flaggedIds };
}

/**
 * The environment page's heaviest statement, one pass over the current reviews: per
 * environment the trajectory-level figures ('traj'), the (passes, fails) groups of items for
 * reviewer agreement ('item'), and the ids of its newest flagged reviews ('flag').
 */
export function verdictRowsSql(projectId: string, keys: RubricKeys): Prisma.Sql {
  return Prisma.sql`
    WITH rv AS (${reviewFactsSql(projectId, keys)}),
    per_item AS MATERIALIZED (
      SELECT item, tid, count(*) FILTER (WHERE verdict = 1) AS p, count(*) FILTER (WHERE verdict = 0) AS f, bool_or(rh) AS rh, bool_or(al) AS al,
             max(review) FILTER (WHERE rh OR al) AS flagged, max("submittedAt") FILTER (WHERE rh OR al) AS "flaggedAt"
      FROM rv GROUP BY item, tid
    ),
    per_traj AS (
      SELECT tid, sum(p) AS p, sum(f) AS f, bool_or(rh) AS rh, bool_or(al) AS al FROM per_item GROUP BY tid
    )
    SELECT 'traj' AS kind, t."environmentId",
           count(*) AS a,
           count(*) FILTER (WHERE pt.p > pt.f) AS b,
           count(*) FILTER (WHERE pt.p <> pt.f) AS c,
           count(*) FILTER (WHERE pt.rh) AS d,
           count(*) FILTER (WHERE pt.al) AS e,
           count(*) FILTER (WHERE ${verifierPassSql} AND pt.p > pt.f) AS f,
           count(*) FILTER (WHERE ${verifierPassSql} AND pt.p < pt.f) AS g,
           count(*) FILTER (WHERE NOT ${verifierPassSql} AND pt.p > pt.f) AS h,
           count(*) FILTER (WHERE NOT ${verifierPassSql} AND pt.p < pt.f) AS i,
           NULL::text[] AS ids
    FROM per_traj pt
    JOIN trajectory tr ON tr.id = pt.tid
    JOIN task t ON t.id = tr."taskId"
    WHERE t."environmentId" IS NOT NULL
    GROUP BY t."environmentId"
    UNION ALL
    SELECT 'item', t."environmentId", pi.p, pi.f, count(*), 0, 0, 0, 0, 0, 0, NULL
    FROM per_item pi
    JOIN trajectory tr ON tr.id = pi.tid
    JOIN task t ON t.id = tr."taskId"
    WHERE t."environmentId" IS NOT NULL AND pi.p + pi.f >= 2
    GROUP BY t."environmentId", pi.p, pi.f
    UNION ALL
    SELECT 'flag', x."environmentId", 0, 0, 0, 0, 0, 0, 0, 0, 0, array_agg(x.flagged ORDER BY x.rn)
    FROM (
      SELECT t."environmentId", pi.flagged, row_number() OVER (PARTITION BY t."environmentId" ORDER BY pi."flaggedAt" DESC, pi.flagged) AS rn
      FROM per_item pi JOIN trajectory tr ON tr.id = pi.tid JOIN task t ON t.id = tr."taskId"
      WHERE pi.flagged IS NOT NULL AND t."environmentId" IS NOT NULL
    ) x WHERE x.rn <= ${FLAGGED_PER_ENVIRONMENT}
    GROUP BY x."environmentId"`;
}

const notes = z.array(z.unknown()).catch([]);

async function flaggedMoments(reviewIds: string[]): Promise<FlaggedMoment[]> {
  if (reviewIds.length === 0) return [];
  const rows = await db().$queryRaw<
    { environmentId: string; trajectoryId: string; task: string; reviewId: string; answers: unknown; rubricVersionId: string; submittedAt: Date; evidence: unknown }[]
  >`
    SELECT t."environmentId", tr.id AS "trajectoryId", t.name AS task, r.id AS "reviewId", r.answers, r."rubricVersionId", r."submittedAt", r.evidence
    FROM review r
    JOIN campaign_item ci ON ci.id = r."campaignItemId"
    JOIN trajectory tr ON tr.id = ci."trajectoryId"
    JOIN task t ON t.id = tr."taskId"
    WHERE r.id IN (${Prisma.join(reviewIds)})
    ORDER BY t."environmentId", r."submittedAt" DESC, r.id`;
  return rows.map((r) => {
    const flags = Object.values(r.answers && typeof r.answers === 'object' ? r.answers : {}).filter(Array.isArray).flat();
    return {
      environmentId: r.environmentId,
      trajectoryId: r.trajectoryId,
      task: r.task,
      reviewId: r.reviewId,
      rewardHacking: flags.includes('reward_hacking'),
      answerLeakage: flags.includes('answer_leakage'),
      submittedAt: r.submittedAt,
      notes: notes
        .parse(r.evidence)
        .flatMap((n) => {
          const parsed = evidenceNote.safeParse(n);
          return parsed.success ? [{ frame: parsed.data.frame, stepIndex: parsed.data.stepIndex, note: parsed.data.note }] : [];
        })
        .slice(0, 3),
    };
  });
}
