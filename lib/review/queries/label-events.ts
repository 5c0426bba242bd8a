import { db } from '../../db/client';
import type { SqlRun } from '../../db/sql';

/**
 * The label event stream: one row each time an item's labels become final (`finalised`: the
 * submit that brings its current reviews to the campaign's overlap k), change after that
 * (`revised`), or a lead decides it (`adjudicated`). Training sinks deliver from it in `seq`
 * order, each from its own cursor.
 *
 * Reading safely. `seq` is a bigserial: a transaction that took seq 10 may commit after one
 * that took seq 11, so "everything after my cursor" read at the wrong moment could skip 10
 * forever. Without a txid column (no schema change), we use a per-project advisory lock:
 * every writer takes it SHARED (inside its own transaction, before it draws a seq, held until
 * it commits or rolls back); the reader takes it EXCLUSIVE for the instant of its read. The
 * exclusive lock is granted only once every writer that could hold an unseen seq has ended,
 * and new writers wait (a few ms) until the read is done, so the rows the reader sees are a
 * gap-free prefix: every seq it will ever see later is larger than the ones it saw. Unlike a
 * "only events older than N seconds" rule, this holds for transactions of any length.
 */
export type LabelEventKind = 'finalised' | 'revised' | 'adjudicated';

/** classid of the advisory lock ('WITL'); the objid is hashtext(projectId). */
const LOCK_CLASS = 0x5749544c;

export interface LabelEventRow {
  seq: bigint;
  projectId: string;
  campaignItemId: string;
  kind: LabelEventKind;
  createdAt: Date;
}

/**
 * Records one label event inside the caller's transaction (the submit / adjudication), so the
 * event exists exactly when the label does. Callable from any transaction, e.g. adjudication:
 * `await recordLabelEvent(prismaRun(tx), { projectId, campaignItemId, kind: 'adjudicated' })`.
 */
export async function recordLabelEvent(
  run: SqlRun,
  input: { projectId: string; campaignItemId: string; kind: LabelEventKind },
): Promise<bigint> {
  // one statement: the materialised lock row is produced (the shared lock held) before the insert draws its seq
  const rows = await run<{ seq: string | bigint }>(
    `WITH locked AS MATERIALIZED (SELECT pg_advisory_xact_lock_shared($1::int, hashtext($2))::text AS l)
     INSERT INTO label_event ("projectId", "campaignItemId", "kind")
     SELECT $2, $3, $4 FROM locked RETURNING seq`,
    [LOCK_CLASS, input.projectId, input.campaignItemId, input.kind],
  );
  return BigInt(rows[0]!.seq);
}

/**
 * Events of a project after `afterSeq` (exclusive), in seq order, at most `limit`: a gap-free
 * prefix (see above). Waits for in-flight writers up to `lockTimeoutMs`; null when they held the
 * lock longer (the use-case, lib/review/read-label-events.ts, says to try again later).
 */
export async function labelEventsAfter(
  projectId: string,
  afterSeq: bigint | null,
  limit: number,
  lockTimeoutMs = 5000,
): Promise<LabelEventRow[] | null> {
  try {
    return await db().$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${Math.max(1, Math.floor(lockTimeoutMs))}ms'`);
        await tx.$queryRaw`SELECT pg_advisory_xact_lock(${LOCK_CLASS}::int, hashtext(${projectId}))::text`;
        const rows = await tx.$queryRaw<Array<{ seq: bigint; projectId: string; campaignItemId: string; kind: string; createdAt: Date }>>`
          SELECT seq, "projectId", "campaignItemId", kind, "createdAt" FROM label_event
          WHERE "projectId" = ${projectId} AND seq > ${afterSeq ?? BigInt(0)}
          ORDER BY seq LIMIT ${limit}`;
        return rows.map((r) => ({ ...r, seq: BigInt(r.seq), kind: r.kind as LabelEventKind }));
      },
      { maxWait: lockTimeoutMs + 5000, timeout: lockTimeoutMs + 10_000 },
    );
  } catch (error) {
    const text = String((error as Error).message ?? error);
    if (text.includes('lock timeout') || text.includes('55P03')) return null;
    throw error;
  }
}

/** The newest event seq of a project (committed), or null. */
export async function lastLabelEventSeq(projectId: string): Promise<bigint | null> {
  const row = await db().labelEvent.findFirst({ where: { projectId }, orderBy: { seq: 'desc' }, select: { seq: true } });
  return row?.seq ?? null;
}
