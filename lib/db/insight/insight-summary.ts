import type pg from 'pg';
import { pgRun, type SqlRun } from '../infra/sql';
import {
  INSIGHT_RULES_VERSION,
  insightKeys,
  summariseTrajectory,
  type InsightKeys,
  type SummaryComparisonSide,
  type SummaryReview,
} from '../../insight/trajectory-summary';

/**
 * Keeps `trajectory_insight` (one row per labelled trajectory, lib/insight/trajectory-summary.ts)
 * in step with the labels: every write of a review or comparison refreshes the summaries of its
 * trajectories inside the same transaction, recomputed from all their current labels (never an
 * increment, so a retry or a revision cannot skew it). A per-trajectory advisory lock orders
 * concurrent submits on one trajectory: the second waits, then reads the first's committed
 * label. `witness migrate` (and start) backfills trajectories whose summary is missing or was
 * computed by older rules, once per rules version (insight_backfill records it).
 *
 * Runs on a Prisma transaction (submits) or a node-postgres client (migrate), through `SqlRun`.
 */
export type { SqlRun } from '../infra/sql';

/** Refreshes the summaries of these trajectories; call inside the transaction that wrote their labels. */
export async function refreshTrajectoryInsight(run: SqlRun, trajectoryIds: (string | null | undefined)[]): Promise<void> {
  const ids = [...new Set(trajectoryIds.filter((id): id is string => !!id))].sort();
  if (ids.length === 0) return;
  // in id order (two submits never wait on each other crosswise); `IS NULL` only turns the void result into a column
  await run(
    `SELECT count(*)::int AS locked FROM (
       SELECT pg_advisory_xact_lock(hashtextextended('trajectory_insight:' || id, 0)) IS NULL AS l FROM unnest($1::text[]) AS id ORDER BY id
     ) x WHERE x.l IS NOT NULL`,
    [ids],
  );
  // everything the summaries are computed from, in one statement (one round trip inside the submit's transaction)
  const [read] = await run<{ reviews: unknown; comparisons: unknown; trajectories: unknown; versions: unknown }>(
    // times as epoch ms (timestamp columns hold UTC): the same on either client and in any process time zone
    `WITH r AS (
       SELECT r.id, r."campaignItemId", extract(epoch FROM r."submittedAt")::float8 * 1000 AS "submittedMs", r.answers, r."rubricVersionId", ci."trajectoryId"
       FROM review r JOIN campaign_item ci ON ci.id = r."campaignItemId" JOIN campaign c ON c.id = ci."campaignId"
       WHERE r."isCurrent" AND c.mode = 'single' AND ci."trajectoryId" = ANY($1::text[])
     )
     SELECT
       (SELECT coalesce(json_agg(r), '[]') FROM r)::text AS reviews,
       (SELECT coalesce(json_agg(json_build_object('a', ci."trajectoryId", 'b', ci."trajectoryBId", 'criteria', pc.criteria)), '[]')
          FROM pairwise_comparison pc JOIN campaign_item ci ON ci.id = pc."campaignItemId"
          WHERE pc."isCurrent" AND (ci."trajectoryId" = ANY($1::text[]) OR ci."trajectoryBId" = ANY($1::text[])))::text AS comparisons,
       (SELECT coalesce(json_agg(json_build_object('id', t.id, 'projectId', t."projectId")), '[]') FROM trajectory t WHERE t.id = ANY($1::text[]))::text AS trajectories,
       (SELECT coalesce(json_agg(json_build_object('id', v.id, 'definition', v.definition)), '[]')
          FROM rubric_version v WHERE v.id IN (SELECT "rubricVersionId" FROM r))::text AS versions`,
    [ids],
  );
  const parsed = <T>(value: unknown): T[] => (typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as T[];
  const reviews = parsed<{
    id: string;
    campaignItemId: string;
    submittedMs: number;
    answers: unknown;
    rubricVersionId: string;
    trajectoryId: string;
  }>(read?.reviews);
  const comparisons = parsed<{ a: string; b: string | null; criteria: unknown }>(read?.comparisons);
  const trajectories = parsed<{ id: string; projectId: string }>(read?.trajectories);
  const versions = parsed<{ id: string; definition: unknown }>(read?.versions);
  const keys = new Map<string, InsightKeys>(versions.map((v) => [v.id, insightKeys(v.definition)]));
  const noKeys = insightKeys(null);

  const byTrajectory = new Map<string, { reviews: SummaryReview[]; sides: SummaryComparisonSide[] }>(
    ids.map((id) => [id, { reviews: [], sides: [] }]),
  );
  for (const r of reviews) {
    byTrajectory.get(r.trajectoryId)?.reviews.push({
      id: r.id,
      campaignItemId: r.campaignItemId,
      submittedAt: new Date(Number(r.submittedMs)),
      answers: r.answers,
      keys: keys.get(r.rubricVersionId) ?? noKeys,
    });
  }
  for (const c of comparisons) {
    const criteria = (c.criteria ?? {}) as { a?: unknown; b?: unknown };
    byTrajectory.get(c.a)?.sides.push({ criteria: criteria.a });
    if (c.b) byTrajectory.get(c.b)?.sides.push({ criteria: criteria.b });
  }
  const projectOf = new Map(trajectories.map((t) => [t.id, t.projectId]));
  const rows = [];
  const empty: string[] = [];
  for (const [trajectoryId, labels] of byTrajectory) {
    const projectId = projectOf.get(trajectoryId);
    if (!projectId) continue;
    if (labels.reviews.length === 0 && labels.sides.length === 0) {
      empty.push(trajectoryId);
      continue;
    }
    const s = summariseTrajectory(labels.reviews, labels.sides);
    rows.push({ ...s, trajectoryId, projectId, flaggedAt: s.flaggedAt?.getTime() ?? null });
  }
  if (empty.length) await run(`DELETE FROM trajectory_insight WHERE "trajectoryId" = ANY($1::text[])`, [empty]);
  if (rows.length === 0) return;
  await run(
    `INSERT INTO trajectory_insight ("trajectoryId", "projectId", reviews, "passVotes", "failVotes", "rewardHacking", "answerLeakage",
       "likertN", "likertSum", "likertSumSquares", "itemVotes", criteria, "flaggedReviewId", "flaggedAt", "rulesVersion", "updatedAt")
     SELECT x."trajectoryId", x."projectId", x.reviews, x."passVotes", x."failVotes", x."rewardHacking", x."answerLeakage",
            x."likertN", x."likertSum", x."likertSumSquares", x."itemVotes", x.criteria, x."flaggedReviewId", to_timestamp(x."flaggedAt" / 1000.0) AT TIME ZONE 'UTC', $2, now() AT TIME ZONE 'UTC'
     FROM jsonb_to_recordset($1::jsonb) AS x("trajectoryId" text, "projectId" text, reviews int, "passVotes" int, "failVotes" int,
       "rewardHacking" boolean, "answerLeakage" boolean, "likertN" int, "likertSum" float8, "likertSumSquares" float8,
       "itemVotes" jsonb, criteria jsonb, "flaggedReviewId" text, "flaggedAt" float8)
     ON CONFLICT ("trajectoryId") DO UPDATE SET
       reviews = EXCLUDED.reviews, "passVotes" = EXCLUDED."passVotes", "failVotes" = EXCLUDED."failVotes",
       "rewardHacking" = EXCLUDED."rewardHacking", "answerLeakage" = EXCLUDED."answerLeakage", "likertN" = EXCLUDED."likertN",
       "likertSum" = EXCLUDED."likertSum", "likertSumSquares" = EXCLUDED."likertSumSquares", "itemVotes" = EXCLUDED."itemVotes",
       criteria = EXCLUDED.criteria, "flaggedReviewId" = EXCLUDED."flaggedReviewId", "flaggedAt" = EXCLUDED."flaggedAt",
       "rulesVersion" = EXCLUDED."rulesVersion", "updatedAt" = EXCLUDED."updatedAt"`,
    [JSON.stringify(rows), INSIGHT_RULES_VERSION],
  );
}

/** Trajectories refreshed per transaction by the backfill. */
export const BACKFILL_BATCH = 500;

/**
 * Summarises every labelled trajectory whose summary is missing or older than the current
 * rules, in batches of BACKFILL_BATCH (each its own transaction, so a crash keeps the batches
 * done and the next migrate goes on from there). Returns how many it refreshed.
 */
export async function backfillTrajectoryInsight(client: pg.Client): Promise<number> {
  const stale = await client.query<{ id: string }>(
    `SELECT DISTINCT t.id FROM (
       SELECT ci."trajectoryId" AS id FROM review r JOIN campaign_item ci ON ci.id = r."campaignItemId" WHERE r."isCurrent"
       UNION ALL
       SELECT unnest(ARRAY[ci."trajectoryId", ci."trajectoryBId"]) FROM pairwise_comparison pc JOIN campaign_item ci ON ci.id = pc."campaignItemId" WHERE pc."isCurrent"
     ) t
     WHERE t.id IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM trajectory_insight ti WHERE ti."trajectoryId" = t.id AND ti."rulesVersion" = $1)`,
    [INSIGHT_RULES_VERSION],
  );
  const ids = stale.rows.map((r) => r.id).sort();
  const run = pgRun(client);
  for (let i = 0; i < ids.length; i += BACKFILL_BATCH) {
    await client.query('BEGIN');
    try {
      await refreshTrajectoryInsight(run, ids.slice(i, i + BACKFILL_BATCH));
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  }
  return ids.length;
}

/**
 * `witness migrate`'s part: backfills once per rules version. After that the submits keep every
 * summary, so a start does not scan the labels again; a crash mid-way records nothing, and the
 * next migrate goes on (the batches done are not redone).
 */
export async function backfillTrajectoryInsightOnce(client: pg.Client): Promise<number> {
  const done = await client.query('SELECT 1 FROM insight_backfill WHERE "rulesVersion" = $1', [INSIGHT_RULES_VERSION]);
  if (done.rowCount) return 0;
  const refreshed = await backfillTrajectoryInsight(client);
  await client.query('INSERT INTO insight_backfill ("rulesVersion", refreshed) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    INSIGHT_RULES_VERSION,
    refreshed,
  ]);
  return refreshed;
}
