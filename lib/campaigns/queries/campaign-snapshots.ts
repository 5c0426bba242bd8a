import { randomUUID } from 'node:crypto';
import { at, inSqlTransaction, sql, type SqlRun } from '../../db/sql';

/**
 * Stored computations over a campaign's labels (campaign_snapshot, see schema.prisma): the
 * agreement dashboard, the disagreement queue (its rows one a row, so a page reads one page of
 * them) and the review plan, each per variant of the options it was computed with. A snapshot
 * records the campaign's label clock (campaign_reviewer_stat.labelChanges summed: every review
 * or comparison row inserted or deleted moves it, kept by triggers in the writes' own
 * transactions) and its adjudication rows when it was built; it is stale once either moved.
 */
export type SnapshotKind = 'agreement' | 'disagreements' | 'plan';

export interface LabelClock {
  labelChanges: number;
  adjudications: number;
}

export interface StoredSnapshot<P = unknown> extends LabelClock {
  id: string;
  campaignId: string;
  kind: SnapshotKind;
  variant: string;
  reviews: number;
  payload: P;
  computeMs: number;
  builtAt: Date;
}

const CLOCK_SQL = `SELECT coalesce((SELECT sum(s."labelChanges") FROM campaign_reviewer_stat s WHERE s."campaignId" = $1), 0)::float8 AS "labelChanges",
         (SELECT count(*) FROM adjudication a JOIN campaign_item ci ON ci.id = a."campaignItemId" WHERE ci."campaignId" = $1)::int AS adjudications`;

/** The campaign's label clock now (two index reads: a row per reviewer, and its adjudications). */
export async function labelClock(campaignId: string, run: SqlRun = sql): Promise<LabelClock> {
  const [row] = await run<LabelClock>(CLOCK_SQL, [campaignId]);
  return { labelChanges: Number(row!.labelChanges), adjudications: Number(row!.adjudications) };
}

export const sameClock = (a: LabelClock, b: LabelClock) => a.labelChanges === b.labelChanges && a.adjudications === b.adjudications;

interface SnapshotRow {
  id: string;
  campaignId: string;
  kind: SnapshotKind;
  variant: string;
  labelChanges: string;
  adjudications: number;
  reviews: number;
  payload: unknown;
  computeMs: number;
  builtAt: Date;
}

const toSnapshot = <P>(r: SnapshotRow): StoredSnapshot<P> => ({
  id: r.id,
  campaignId: r.campaignId,
  kind: r.kind,
  variant: r.variant,
  labelChanges: Number(r.labelChanges),
  adjudications: r.adjudications,
  reviews: r.reviews,
  payload: r.payload as P,
  computeMs: r.computeMs,
  builtAt: r.builtAt,
});

/** The stored snapshot of that kind and variant, or null when none was built yet. */
export async function findSnapshot<P>(campaignId: string, kind: SnapshotKind, variant: string): Promise<StoredSnapshot<P> | null> {
  const rows = await sql<SnapshotRow>(
    `SELECT id, "campaignId", kind, variant, "labelChanges"::text AS "labelChanges", adjudications, reviews, payload, "computeMs", "builtAt"
     FROM campaign_snapshot WHERE "campaignId" = $1 AND kind = $2 AND variant = $3`,
    [campaignId, kind, variant],
  );
  return rows[0] ? toSnapshot<P>(rows[0]) : null;
}

/** The snapshot's metadata without its payload (the job's check whether it is still current). */
export async function findSnapshotClock(
  campaignId: string,
  kind: SnapshotKind,
  variant: string,
): Promise<(LabelClock & { builtAt: Date; computeMs: number }) | null> {
  const rows = await sql<{ labelChanges: string; adjudications: number; builtAt: Date; computeMs: number }>(
    `SELECT "labelChanges"::text AS "labelChanges", adjudications, "builtAt", "computeMs"
     FROM campaign_snapshot WHERE "campaignId" = $1 AND kind = $2 AND variant = $3`,
    [campaignId, kind, variant],
  );
  const r = rows[0];
  return r ? { labelChanges: Number(r.labelChanges), adjudications: r.adjudications, builtAt: r.builtAt, computeMs: r.computeMs } : null;
}

export interface DisagreementRow {
  itemId: string;
  reviews: number;
  splits: unknown;
}

export interface SnapshotWrite<P> {
  campaignId: string;
  kind: SnapshotKind;
  variant: string;
  clock: LabelClock;
  reviews: number;
  payload: P;
  computeMs: number;
  builtAt: Date;
  /** a `disagreements` snapshot's queue, worst first */
  rows?: readonly DisagreementRow[];
}

/** rows a statement inserts at once (unnest of arrays: one round trip a batch) */
const ROW_BATCH = 5000;

/**
 * Replaces the snapshot of (campaign, kind, variant) and its rows in one transaction, so a page
 * reads the old one whole or the new one whole. A snapshot built from an older clock than the
 * stored one (a slower run that started first) is not written: answers false.
 */
export async function storeSnapshot<P>(write: SnapshotWrite<P>): Promise<boolean> {
  return inSqlTransaction(async (run) => {
    // one writer per (campaign, kind, variant) at a time
    await run(`SELECT pg_advisory_xact_lock(hashtext('campaign_snapshot:' || $1 || ':' || $2 || ':' || $3))`, [
      write.campaignId,
      write.kind,
      write.variant,
    ]);
    const [old] = await run<{ id: string; labelChanges: string; adjudications: number }>(
      `SELECT id, "labelChanges"::text AS "labelChanges", adjudications FROM campaign_snapshot
       WHERE "campaignId" = $1 AND kind = $2 AND variant = $3`,
      [write.campaignId, write.kind, write.variant],
    );
    if (old && (Number(old.labelChanges) > write.clock.labelChanges || old.adjudications > write.clock.adjudications)) return false;
    if (old) await run(`DELETE FROM campaign_snapshot WHERE id = $1`, [old.id]);
    const id = randomUUID();
    await run(
      `INSERT INTO campaign_snapshot (id, "campaignId", kind, variant, "labelChanges", adjudications, reviews, payload, "computeMs", "builtAt")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10::timestamp)`,
      [
        id,
        write.campaignId,
        write.kind,
        write.variant,
        write.clock.labelChanges,
        write.clock.adjudications,
        write.reviews,
        JSON.stringify(write.payload),
        Math.round(write.computeMs),
        at(write.builtAt),
      ],
    );
    const rows = write.rows ?? [];
    for (let from = 0; from < rows.length; from += ROW_BATCH) {
      const batch = rows.slice(from, from + ROW_BATCH);
      await run(
        `INSERT INTO campaign_snapshot_disagreement ("snapshotId", rank, "itemId", reviews, splits)
         SELECT $1, r.rank, r.item, r.reviews, r.splits::jsonb
         FROM unnest($2::int[], $3::text[], $4::int[], $5::text[]) AS r(rank, item, reviews, splits)`,
        [
          id,
          batch.map((_, i) => from + i),
          batch.map((r) => r.itemId),
          batch.map((r) => r.reviews),
          batch.map((r) => JSON.stringify(r.splits)),
        ],
      );
    }
    return true;
  });
}

/** One page of a disagreements snapshot's queue (ranks from `offset`), with each item's task and whether it is adjudicated now. */
export async function disagreementPage(
  snapshotId: string,
  offset: number,
  limit: number,
): Promise<(DisagreementRow & { rank: number; taskName: string; adjudicated: boolean })[]> {
  return sql(
    `SELECT d.rank, d."itemId", d.reviews, d.splits, k.name AS "taskName",
            EXISTS (SELECT 1 FROM adjudication a WHERE a."campaignItemId" = d."itemId" AND a."isCurrent") AS adjudicated
     FROM campaign_snapshot_disagreement d
     JOIN campaign_item ci ON ci.id = d."itemId"
     JOIN trajectory t ON t.id = ci."trajectoryId"
     JOIN task k ON k.id = t."taskId"
     WHERE d."snapshotId" = $1 AND d.rank >= $2 AND d.rank < $2 + $3
     ORDER BY d.rank`,
    [snapshotId, offset, limit],
  );
}

/** How many of a disagreements snapshot's items are adjudicated now. */
export async function adjudicatedInQueue(snapshotId: string): Promise<number> {
  const [row] = await sql<{ n: number }>(
    `SELECT count(*)::int AS n FROM campaign_snapshot_disagreement d
     WHERE d."snapshotId" = $1 AND EXISTS (SELECT 1 FROM adjudication a WHERE a."campaignItemId" = d."itemId" AND a."isCurrent")`,
    [snapshotId],
  );
  return row!.n;
}

/**
 * Campaigns whose labels moved past their default snapshot of `kind` (or that have labels and no
 * such snapshot), with the stored one's build time and cost (the sweep throttles on them).
 */
export async function campaignsWithStaleSnapshots(
  kind: SnapshotKind,
  modes: readonly ('single' | 'pairwise')[],
): Promise<{ campaignId: string; builtAt: Date | null; computeMs: number | null }[]> {
  return sql(
    `WITH clock AS (
       SELECT s."campaignId", sum(s."labelChanges")::float8 AS labels FROM campaign_reviewer_stat s GROUP BY 1 HAVING sum(s."labelChanges") > 0
     ), adj AS (
       SELECT ci."campaignId", count(*)::int AS n FROM adjudication a JOIN campaign_item ci ON ci.id = a."campaignItemId" GROUP BY 1
     )
     SELECT c."campaignId", cs."builtAt", cs."computeMs"
     FROM clock c
     JOIN campaign ca ON ca.id = c."campaignId" AND ca.mode::text = ANY($2::text[])
     LEFT JOIN adj ON adj."campaignId" = c."campaignId"
     LEFT JOIN campaign_snapshot cs ON cs."campaignId" = c."campaignId" AND cs.kind = $1 AND cs.variant = ''
     WHERE cs.id IS NULL OR cs."labelChanges"::float8 <> c.labels OR cs.adjudications <> coalesce(adj.n, 0)
     ORDER BY c."campaignId"`,
    [kind, modes],
  );
}

/** Runs `fn` in one REPEATABLE READ transaction: every statement it runs reads the same snapshot of the database. */
export function inConsistentRead<T>(fn: (run: SqlRun) => Promise<T>): Promise<T> {
  return inSqlTransaction(async (run) => {
    await run('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY', []);
    return fn(run);
  });
}

/** The campaign a snapshot page is about (its header, before any snapshot exists), or null. */
export async function snapshotCampaign(
  campaignId: string,
): Promise<{ id: string; name: string; mode: 'single' | 'pairwise'; overlap: number } | null> {
  const rows = await sql<{ id: string; name: string; mode: 'single' | 'pairwise'; overlap: number }>(
    `SELECT id, name, mode::text AS mode, overlap FROM campaign WHERE id = $1`,
    [campaignId],
  );
  return rows[0] ?? null;
}
