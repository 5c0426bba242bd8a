import type pg from 'pg';
import { isDeepStrictEqual } from 'node:util';
import { pgRun, sql, type SqlRun } from '../../db/sql';
import {
  INSIGHT_RULES_VERSION,
  insightKeys,
  summariseTrajectory,
  type InsightKeys,
  type SummaryComparisonSide,
  type SummaryReview,
} from '../trajectory-summary';

/**
 * Keeps `trajectory_insight` (one row per labelled trajectory, lib/insight/trajectory-summary.ts)
 * in step with the labels: every write of a review or comparison queues its trajectories, and a
 * drain (lib/insight/queries/insight-refresh.ts: after the submit commits, and before every read)
 * refreshes their summaries, recomputed from all their current labels (never an increment, so a
 * retry, a revision or a trajectory queued twice cannot skew it). A per-trajectory advisory lock
 * orders concurrent refreshes of one trajectory: the second waits, then reads the labels the
 * first's commit left. `witness migrate` (and start) backfills trajectories whose summary is
 * missing or was computed by older rules, once per rules version (insight_backfill records it).
 *
 * Runs on a node-postgres client (migrate) or the SQL pool's transactions, through `SqlRun`.
 */
export type { SqlRun } from '../../db/sql';

/** Refreshes the summaries of these trajectories, in the caller's transaction, from the labels committed when its locks are granted. */
export async function refreshTrajectoryInsight(run: SqlRun, trajectoryIds: (string | null | undefined)[]): Promise<void> {
  const ids = insightIds(trajectoryIds);
  if (ids.length === 0) return;
  await run(`SELECT ${INSIGHT_LOCKS('$1')} AS locked`, [ids]);
  const inputs = insightInputs('$1');
  const [read] = await run<InsightInputs>(`WITH ${inputs.cte} SELECT ${inputs.select}`, [ids]);
  await writeTrajectoryInsight(run, summaryRows(ids, read));
}

/** The trajectories a refresh covers: each once, in id order (the order their locks are taken in). */
export function insightIds(trajectoryIds: (string | null | undefined)[]): string[] {
  return [...new Set(trajectoryIds.filter((id): id is string => !!id))].sort();
}

/**
 * A SQL expression that takes the summary lock of each trajectory in the text[] parameter
 * `ids` (in id order, so two refreshes never wait on each other crosswise) and yields an int.
 * Every refresh of a trajectory's summary takes it before it reads the labels the summary is
 * computed from: a concurrent refresh of the same trajectory waits, then reads the labels
 * committed by then and writes over this one's row. A statement's snapshot is taken before it
 * waits, so the read must come in a later statement of the transaction.
 */
const INSIGHT_LOCKS = (ids: string) =>
  `(SELECT count(*)::int FROM (
     SELECT pg_advisory_xact_lock(hashtextextended('trajectory_insight:' || id, 0)) IS NULL AS l FROM unnest(${ids}::text[]) AS id ORDER BY id
   ) x WHERE x.l IS NOT NULL)`;

/** What a summary is computed from, as JSON text (one round trip): see insightInputs. */
interface InsightInputs {
  reviews: string;
  comparisons: string;
  trajectories: string;
  versions: string;
}

/**
 * The SQL that reads everything the summaries of the trajectories in the text[] parameter `ids`
 * are computed from (their current single-mode reviews, the current comparisons they are a side
 * of, their projects and the reviews' rubric definitions), as a CTE to put in a WITH list and a
 * select list of the four InsightInputs columns.
 */
function insightInputs(ids: string): { cte: string; select: string } {
  return {
    // times as epoch ms (timestamp columns hold UTC, and the ms are exact): the same on either client and in any process time zone
    cte: `insight_reviews AS (
       SELECT r.id, r."campaignItemId", (extract(epoch FROM r."submittedAt") * 1000)::float8 AS "submittedMs", r.answers, r."rubricVersionId", ci."trajectoryId"
       FROM review r JOIN campaign_item ci ON ci.id = r."campaignItemId" JOIN campaign c ON c.id = ci."campaignId"
       WHERE r."isCurrent" AND c.mode = 'single' AND ci."trajectoryId" = ANY(${ids}::text[])
     )`,
    select: `(SELECT coalesce(json_agg(r), '[]') FROM insight_reviews r)::text AS reviews,
       (SELECT coalesce(json_agg(json_build_object('a', ci."trajectoryId", 'b', ci."trajectoryBId", 'criteria', pc.criteria)), '[]')
          FROM pairwise_comparison pc JOIN campaign_item ci ON ci.id = pc."campaignItemId"
          WHERE pc."isCurrent" AND (ci."trajectoryId" = ANY(${ids}::text[]) OR ci."trajectoryBId" = ANY(${ids}::text[])))::text AS comparisons,
       (SELECT coalesce(json_agg(json_build_object('id', t.id, 'projectId', t."projectId")), '[]') FROM trajectory t WHERE t.id = ANY(${ids}::text[]))::text AS trajectories,
       (SELECT coalesce(json_agg(json_build_object('id', v.id, 'definition', v.definition)), '[]')
          FROM rubric_version v WHERE v.id IN (SELECT "rubricVersionId" FROM insight_reviews))::text AS versions`,
  };
}

/** One trajectory's summary row as stored (flaggedAt as epoch ms). */
export type InsightRow = Omit<ReturnType<typeof summariseTrajectory>, 'flaggedAt'> & {
  trajectoryId: string;
  projectId: string;
  flaggedAt: number | null;
};

/** The summary rows of `ids` from what insightInputs read, and the trajectories left with no label at all. */
function summaryRows(ids: string[], read: InsightInputs | undefined): { rows: InsightRow[]; empty: string[] } {
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
  const rows: InsightRow[] = [];
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
  return { rows, empty };
}

/** Stores summary rows (insert or replace) and removes the rows of trajectories left with no label. */
async function writeTrajectoryInsight(run: SqlRun, { rows, empty }: { rows: InsightRow[]; empty: string[] }): Promise<void> {
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

/**
 * How many of these trajectories' stored summaries differ from a recount of their current
 * labels (read in one snapshot with the stored rows): 0 when every submit, revision and race
 * left them exact. The load test's and soak's invariant check (campaignIntegrity).
 */
export async function insightDrift(trajectoryIds: string[]): Promise<number> {
  const ids = insightIds(trajectoryIds);
  if (ids.length === 0) return 0;
  const inputs = insightInputs('$1');
  const [read] = await sql<InsightInputs & { stored: string }>(
    `WITH ${inputs.cte} SELECT ${inputs.select},
       (SELECT coalesce(json_agg(json_build_object('row', ti, 'flaggedMs', (extract(epoch FROM ti."flaggedAt") * 1000)::float8)), '[]')
        FROM trajectory_insight ti WHERE ti."trajectoryId" = ANY($1::text[]))::text AS stored`,
    [ids],
  );
  const stored = new Map<string, Record<string, unknown>>(
    (JSON.parse(read!.stored) as { row: Record<string, unknown> & { trajectoryId: string }; flaggedMs: number | null }[]).map((s) => [
      s.row.trajectoryId,
      { ...s.row, flaggedAt: s.flaggedMs },
    ]),
  );
  const { rows, empty } = summaryRows(ids, read);
  let drift = empty.filter((id) => stored.has(id)).length;
  for (const row of rows) {
    const s = stored.get(row.trajectoryId);
    if (!s || s.rulesVersion !== INSIGHT_RULES_VERSION) {
      drift++;
      continue;
    }
    const same = (Object.keys(row) as (keyof InsightRow)[]).every((k) =>
      typeof row[k] === 'number' && typeof s[k] === 'number'
        ? Math.abs((row[k] as number) - (s[k] as number)) <= 1e-9 * Math.max(1, Math.abs(row[k] as number))
        : isDeepStrictEqual(canonical(row[k]), canonical(s[k])),
    );
    if (!same) drift++;
  }
  return drift;
}

/** A JSON value with its object keys in order (jsonb keeps its own key order). */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)]),
    );
  return value;
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
