import type { Prisma } from '@prisma/client';
import { writeAudit } from '../auth/audit';
import { db } from '../infra/client';

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

export async function createExport(input: {
  projectId: string;
  format: string;
  params: Record<string, unknown>;
  createdById: string | null;
}) {
  return db().$transaction(async (tx) => {
    const row = await tx.export.create({
      data: {
        projectId: input.projectId,
        format: input.format,
        params: input.params as Prisma.InputJsonValue,
        createdById: input.createdById,
      },
      select: { id: true, status: true },
    });
    await writeAudit(tx, {
      actorId: input.createdById,
      action: 'dataset.export',
      targetType: 'export',
      targetId: row.id,
      projectId: input.projectId,
      data: { format: input.format },
    });
    return row;
  });
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
export async function listExportableCampaigns(projectId: string) {
  return db().campaign.findMany({
    where: { projectId },
    select: { id: true, name: true, mode: true, status: true },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
  });
}
