import type { Prisma } from '@prisma/client';
import { db } from '../../db/client';
import type { SqlRun } from '../../db/sql';

type Tx = Prisma.TransactionClient;

/**
 * What a use-case writes to the audit log inside a query's transaction, given the row the query
 * wrote: the query owns the transaction, the use-case decides the entry (`(tx, row) => writeAudit(tx, …)`),
 * so the log and the change commit together and no query writes audit rows of its own.
 */
export type AuditStep<T = void> = (tx: Tx, row: T) => Promise<void>;

export interface AuditEntry {
  actorId: string | null;
  action: string;
  targetType?: string;
  targetId?: string;
  projectId?: string;
  data?: Prisma.InputJsonValue;
}

/** Appends to the audit log inside the caller's transaction (so the log and the change commit together). */
export async function writeAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  await tx.auditLog.create({
    data: {
      actorId: entry.actorId,
      action: entry.action,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId ?? null,
      projectId: entry.projectId ?? null,
      data: entry.data ?? {},
    },
    select: { id: true },
  });
}

/** Appends one entry on its own, when there is no other change to commit with it (a sign-in). */
export async function recordAudit(entry: AuditEntry): Promise<void> {
  await db().$transaction((tx) => writeAudit(tx, entry));
}

/**
 * Appends entries, all at `at`, in one statement on the caller's hot-path transaction (a
 * lib/db/sql.ts statement runner: a submit sends it with its last statements, no round trip of its own).
 */
export async function writeAuditRows(run: SqlRun, at: Date, entries: AuditEntry[]): Promise<void> {
  await run(
    `INSERT INTO audit_log (at, "actorId", action, "targetType", "targetId", "projectId", data)
     SELECT $1::timestamp, e."actorId", e.action, e."targetType", e."targetId", e."projectId", coalesce(e.data, '{}'::jsonb)
     FROM jsonb_to_recordset($2::jsonb) AS e("actorId" text, action text, "targetType" text, "targetId" text, "projectId" text, data jsonb)`,
    [at.toISOString(), JSON.stringify(entries)],
  );
}
