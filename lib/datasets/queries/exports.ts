import type { ExportStatus, Prisma } from '@prisma/client';
import type { AuditStep } from '../../auth/queries/audit';
import { db } from '../../db/client';

/**
 * Export rows: one immutable dataset version each (its file is content-addressed by sha256 in
 * storage). Status moves queued -> running -> done | failed, by conditional updates so a
 * second worker or a retried job cannot run the same export twice at once.
 */
const exportSelect = {
  id: true,
  projectId: true,
  format: true,
  params: true,
  status: true,
  progress: true,
  rows: true,
  storageKey: true,
  sha256: true,
  card: true,
  error: true,
  createdAt: true,
  finishedAt: true,
} as const;

/**
 * Records an export request, or joins the identical one (same project and `dedupeKey`) still
 * queued: `{ joined: true }` with its id. A new row counts against its requester's pending
 * exports (queued or running): with `limit` already pending, nothing is written and the answer
 * is `{ limited: pending }`. A new row's audit entry is the caller's (`audit`), written in its
 * transaction. Race-safe: requests for one definition, then one requester's
 * requests, take turns on advisory locks, and a partial unique index (one queued row per
 * project and key) backs the join.
 */
interface ExportRequestRow {
  projectId: string;
  format: string;
  params: Record<string, unknown>;
  /** null or absent: never joined (a fixture's export) */
  dedupeKey?: string | null;
  createdById: string | null;
  /** absent: no limit */
  limit?: number;
  /** the caller's audit entry for a new row, in its transaction */
  audit: AuditStep<{ id: string }>;
}
type CreatedExport = { id: string; status: ExportStatus; joined: boolean; limited?: undefined };
export async function createExport(input: ExportRequestRow & { limit?: undefined }): Promise<CreatedExport>;
export async function createExport(input: ExportRequestRow): Promise<CreatedExport | { limited: number }>;
export async function createExport(input: ExportRequestRow): Promise<CreatedExport | { limited: number }> {
  const dedupeKey = input.dedupeKey ?? null;
  const queued = { projectId: input.projectId, dedupeKey: dedupeKey ?? '', status: 'queued' as const };
  const select = { id: true, status: true } as const;
  // the common case of a repeated click or script: a lock-free join
  const existing = dedupeKey ? await db().export.findFirst({ where: queued, select }) : null;
  if (existing) return { ...existing, joined: true };
  try {
    return await db().$transaction(
      async (tx) => {
        if (dedupeKey) {
          await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`export_request:${input.projectId}:${dedupeKey}`}, 0))::text`;
          const now = await tx.export.findFirst({ where: queued, select });
          if (now) return { ...now, joined: true };
        }
        if (input.createdById && input.limit !== undefined) {
          await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`pending_exports:${input.createdById}`}, 0))::text`;
          const pending = await tx.export.count({ where: { createdById: input.createdById, status: { in: ['queued', 'running'] } } });
          if (pending >= input.limit) return { limited: pending };
        }
        const row = await tx.export.create({
          data: {
            projectId: input.projectId,
            format: input.format,
            params: input.params as Prisma.InputJsonValue,
            dedupeKey,
            createdById: input.createdById,
          },
          select,
        });
        await input.audit(tx, row);
        return { ...row, joined: false };
      },
      { maxWait: 15_000, timeout: 15_000 },
    );
  } catch (error) {
    // the partial unique index: a queued row for this definition written by another path first
    if ((error as { code?: string }).code !== 'P2002' || !dedupeKey) throw error;
    const row = await db().export.findFirst({ where: queued, select });
    if (!row) throw error;
    return { ...row, joined: true };
  }
}

export async function findExport(id: string) {
  return db().export.findUnique({ where: { id }, select: exportSelect });
}
export type ExportRecord = NonNullable<Awaited<ReturnType<typeof findExport>>>;

/** A project's exports, newest first (earlier versions stay: they are immutable). */
export async function listExports(projectId: string, take = 50) {
  return db().export.findMany({ where: { projectId }, select: exportSelect, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take });
}

/** queued -> running; on a retry (attempt > 0) a running row is taken back. True when this caller owns the run. */
export async function startExport(id: string, retry: boolean): Promise<boolean> {
  const { count } = await db().export.updateMany({
    where: { id, status: retry ? { in: ['queued', 'running'] } : 'queued' },
    data: { status: 'running', progress: 0, error: null },
  });
  return count === 1;
}

export async function setExportProgress(id: string, progress: number): Promise<void> {
  await db().export.updateMany({ where: { id, status: 'running' }, data: { progress: Math.max(0, Math.min(1, progress)) } });
}

export async function finishExport(
  id: string,
  result: { rows: number; storageKey: string; sha256: string; card: string },
  now: Date,
): Promise<void> {
  await db().export.updateMany({ where: { id, status: 'running' }, data: { ...result, status: 'done', progress: 1, finishedAt: now } });
}

export async function failExport(id: string, error: string, now: Date): Promise<void> {
  await db().export.updateMany({
    where: { id, status: { in: ['queued', 'running'] } },
    data: { status: 'failed', error, finishedAt: now },
  });
}

/** Campaigns of a project for the export form. */
export async function exportableCampaigns(projectId: string) {
  return db().campaign.findMany({
    where: { projectId },
    select: { id: true, name: true, mode: true, status: true },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
  });
}
