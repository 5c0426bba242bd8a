import { db } from '../../db/client';

/**
 * The hill-climb page's reads (lib/training/view-hill-climb.ts) and the lineage reads of the run,
 * review and dataset pages: checkpoints as a lineage (Policy.parentId), the labels each run
 * trained on (TrainingRunLabel) with their reviewer-hours and staleness, training curves
 * downsampled in Postgres, and eval-split verifier passes per policy.
 */
export interface LineagePolicyRow {
  id: string;
  name: string;
  parentId: string | null;
  model: string | null;
  createdAt: Date;
  runId: string | null;
  runStatus: string | null;
  recipe: string | null;
  checkpointUri: string | null;
  canaryCampaignId: string | null;
}

/**
 * The project's checkpoints and their ancestors: every policy with a parent, and every policy
 * that is the parent of one (the roots: base policies that have children), oldest first.
 */
export async function lineagePolicies(projectId: string): Promise<LineagePolicyRow[]> {
  return db().$queryRaw<LineagePolicyRow[]>`
    SELECT p.id, p.name, p."parentId", p.model, p."createdAt",
           r.id AS "runId", r.status::text AS "runStatus", r.recipe, r."checkpointUri", r."canaryCampaignId"
      FROM policy p
      LEFT JOIN training_run r ON r.id = p."trainingRunId"
     WHERE p."projectId" = ${projectId}
       AND (p."parentId" IS NOT NULL
            OR EXISTS (SELECT 1 FROM policy c WHERE c."parentId" = p.id))
     ORDER BY p."createdAt", p.name`;
}

export interface RunLabelStatsRow {
  runId: string;
  labels: number;
  reviewers: number;
  reviewerHours: number;
  stale: number;
  campaigns: { id: string; name: string; labels: number }[];
}

/**
 * Per run: the labels it trained on, distinct reviewers, reviewer-hours (the reviews' seconds /
 * 3600), how many are stale (the review or comparison revision is no longer current, or gone),
 * and the campaigns they came from with their names and label counts.
 */
export async function runLabelStats(runIds: string[]): Promise<RunLabelStatsRow[]> {
  if (runIds.length === 0) return [];
  const rows = await db().$queryRaw<
    { runId: string; labels: bigint; reviewers: bigint; seconds: number | null; stale: bigint; campaigns: RunLabelStatsRow['campaigns'] }[]
  >`
    WITH l AS (
      SELECT l."runId", l."campaignId", l."reviewerId", l."durationSec",
             NOT COALESCE(CASE WHEN l.kind = 'pairwise' THEN pc."isCurrent" ELSE rv."isCurrent" END, false) AS stale
        FROM training_run_label l
        LEFT JOIN review rv ON l.kind <> 'pairwise' AND rv.id = l."reviewId"
        LEFT JOIN pairwise_comparison pc ON l.kind = 'pairwise' AND pc.id = l."reviewId"
       WHERE l."runId" = ANY(${runIds})
    ), per_campaign AS (
      SELECT l."runId", l."campaignId", count(*)::int AS labels FROM l GROUP BY 1, 2
    ), campaigns AS (
      -- grouped once for all runs (a subquery per run rescanned every label: 100 runs, 100 scans)
      SELECT pc."runId", json_agg(json_build_object('id', pc."campaignId", 'name', COALESCE(c.name, pc."campaignId"), 'labels', pc.labels)
                                  ORDER BY pc.labels DESC, c.name) AS campaigns
        FROM per_campaign pc LEFT JOIN campaign c ON c.id = pc."campaignId"
       GROUP BY pc."runId"
    )
    SELECT s."runId", s.labels, s.reviewers, s.seconds, s.stale, COALESCE(k.campaigns, '[]'::json) AS campaigns
      FROM (SELECT "runId", count(*) AS labels, count(DISTINCT "reviewerId") AS reviewers,
                   sum("durationSec")::float8 AS seconds, count(*) FILTER (WHERE stale) AS stale
              FROM l GROUP BY "runId") s
      LEFT JOIN campaigns k ON k."runId" = s."runId"`;
  return rows.map((r) => ({
    runId: r.runId,
    labels: Number(r.labels),
    reviewers: Number(r.reviewers),
    reviewerHours: (r.seconds ?? 0) / 3600,
    stale: Number(r.stale),
    campaigns: r.campaigns,
  }));
}

export interface MetricPointRow {
  runId: string;
  name: string;
  step: number;
  value: number;
}

/**
 * The runs' metric series, at most `maxPoints` points per (run, name): the first point, then each
 * series' step range [lo, hi] cut into `maxPoints - 1` equal buckets (as width_bucket(step, lo,
 * hi + 1, maxPoints - 1) cuts it) and the last point of each bucket kept, so a 10k-step curve reads
 * as 200 points from its first step to its last, and a series with at most one point a bucket is
 * kept whole.
 * Every step is an index probe on the primary key (run, name, step): the names by a skip scan,
 * the range by its two ends, each bucket's last point by one backward probe, so the cost grows
 * with series × maxPoints, never with the points stored. Ordered by run, name, step.
 */
export async function downsampledMetrics(runIds: string[], maxPoints: number): Promise<MetricPointRow[]> {
  if (runIds.length === 0) return [];
  const buckets = Math.max(1, maxPoints - 1);
  return db().$queryRaw<MetricPointRow[]>`
    WITH RECURSIVE names AS (
      SELECT r AS "runId", (SELECT min(name) FROM training_run_metric WHERE "runId" = r) AS name
        FROM unnest(${runIds}::text[]) AS r
      UNION ALL
      SELECT n."runId", (SELECT min(m.name) FROM training_run_metric m WHERE m."runId" = n."runId" AND m.name > n.name)
        FROM names n WHERE n.name IS NOT NULL
    ), series AS MATERIALIZED (
      SELECT n."runId", n.name,
             (SELECT step FROM training_run_metric m WHERE m."runId" = n."runId" AND m.name = n.name ORDER BY step LIMIT 1) AS lo,
             (SELECT step FROM training_run_metric m WHERE m."runId" = n."runId" AND m.name = n.name ORDER BY step DESC LIMIT 1) AS hi
        FROM names n WHERE n.name IS NOT NULL
    ), buckets AS MATERIALIZED (
      SELECT s."runId", s.name,
             s.lo + ceil((k - 1)::numeric * (s.hi + 1 - s.lo) / ${buckets})::int AS first,
             s.lo + ceil(k::numeric * (s.hi + 1 - s.lo) / ${buckets})::int AS after
        FROM series s CROSS JOIN generate_series(1, ${buckets}) AS k
    )
    SELECT s."runId", s.name, m.step, m.value
      FROM series s JOIN training_run_metric m ON m."runId" = s."runId" AND m.name = s.name AND m.step = s.lo
    UNION
    SELECT b."runId", b.name, p.step, p.value
      FROM buckets b
      CROSS JOIN LATERAL (
        SELECT m.step, m.value FROM training_run_metric m
         WHERE m."runId" = b."runId" AND m.name = b.name AND m.step >= b.first AND m.step < b.after
         ORDER BY m.step DESC LIMIT 1
      ) p
     WHERE b.after > b.first
     ORDER BY 1, 2, 3`;
}

export interface PassCountRow {
  policyId: string;
  passes: number;
  scored: number;
}

/** Per policy: its eval-split trajectories with a verifier reward (`scored`) and those that pass (reward >= 1). */
export async function evalPassCounts(policyIds: string[]): Promise<PassCountRow[]> {
  if (policyIds.length === 0) return [];
  const rows = await db().$queryRaw<{ policyId: string; passes: bigint; scored: bigint }[]>`
    SELECT t."policyId", count(*) FILTER (WHERE t."verifierReward" >= 1) AS passes, count(*) AS scored
      FROM trajectory t JOIN task k ON k.id = t."taskId"
     WHERE t."policyId" = ANY(${policyIds}) AND k.split = 'eval' AND t."verifierReward" IS NOT NULL
     GROUP BY t."policyId"`;
  return rows.map((r) => ({ policyId: r.policyId, passes: Number(r.passes), scored: Number(r.scored) }));
}

export interface RunForLabelRow {
  runId: string;
  projectId: string;
  status: string;
  recipe: string;
  basePolicy: string;
  checkpointName: string | null;
  createdAt: Date;
  reviewId: string;
  reviewerId: string;
  stale: boolean;
}

/**
 * The runs that trained on any revision of an item's reviews or comparisons: one row per (run,
 * review revision), newest run first; stale when that revision is no longer current.
 */
export async function runsForItem(campaignItemId: string): Promise<RunForLabelRow[]> {
  return db().$queryRaw<RunForLabelRow[]>`
    WITH revs AS (
      SELECT id, "isCurrent" FROM review WHERE "campaignItemId" = ${campaignItemId}
      UNION ALL
      SELECT id, "isCurrent" FROM pairwise_comparison WHERE "campaignItemId" = ${campaignItemId}
    )
    SELECT r.id AS "runId", r."projectId", r.status::text AS status, r.recipe, r."basePolicy", r."checkpointName", r."createdAt",
           l."reviewId", l."reviewerId", NOT revs."isCurrent" AS stale
      FROM revs JOIN training_run_label l ON l."reviewId" = revs.id
      JOIN training_run r ON r.id = l."runId"
     ORDER BY r."createdAt" DESC, r.id, l."reviewId"`;
}

export interface RunOfExportRow {
  id: string;
  exportId: string;
  status: string;
  recipe: string;
  basePolicy: string;
  checkpointName: string | null;
  createdAt: Date;
}

/** The project's runs built on these exports (their frozen label sets), newest first. */
export async function runsForExports(projectId: string, exportIds: string[]): Promise<RunOfExportRow[]> {
  if (exportIds.length === 0) return [];
  return db().trainingRun.findMany({
    where: { projectId, exportId: { in: exportIds } },
    select: { id: true, exportId: true, status: true, recipe: true, basePolicy: true, checkpointName: true, createdAt: true },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
  });
}

/** A run's project, for the access check of its lineage reads; null when there is no such run. */
export async function runProject(runId: string): Promise<{ projectId: string; exportId: string } | null> {
  return db().trainingRun.findUnique({ where: { id: runId }, select: { projectId: true, exportId: true } });
}

/** A campaign item's project (through its campaign); null when absent. */
export async function itemProject(campaignItemId: string): Promise<string | null> {
  const row = await db().campaignItem.findUnique({ where: { id: campaignItemId }, select: { campaign: { select: { projectId: true } } } });
  return row?.campaign.projectId ?? null;
}

/** A run's stale labels: the review or comparison revisions it trained on that are no longer current (or gone), with their item. */
export async function staleLabelsOfRun(
  runId: string,
  limit: number,
): Promise<{ reviewId: string; campaignId: string; itemId: string | null }[]> {
  return db().$queryRaw<{ reviewId: string; campaignId: string; itemId: string | null }[]>`
    SELECT l."reviewId", l."campaignId", COALESCE(rv."campaignItemId", pc."campaignItemId") AS "itemId"
      FROM training_run_label l
      LEFT JOIN review rv ON l.kind <> 'pairwise' AND rv.id = l."reviewId"
      LEFT JOIN pairwise_comparison pc ON l.kind = 'pairwise' AND pc.id = l."reviewId"
     WHERE l."runId" = ${runId}
       AND NOT COALESCE(CASE WHEN l.kind = 'pairwise' THEN pc."isCurrent" ELSE rv."isCurrent" END, false)
     ORDER BY l."reviewId" LIMIT ${limit}`;
}
