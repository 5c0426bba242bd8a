import type { Prisma } from '@prisma/client';
import { db } from '../../db/client';

type Tx = Prisma.TransactionClient;

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
