import type { Prisma } from '@prisma/client';
import type { Criterion } from '../../formats/trajectory';
import { db } from '../../db/client';
import type { AuditStep } from '../../auth/queries/audit';

/**
 * Replaces a task's acceptance criteria in one transaction, its row locked (two editors
 * serialise): `next` gets the task as stored and returns the new list (or throws, and nothing
 * is written), then `audit` runs in the same transaction (the use-case's audit row). Null
 * when there is no such task.
 */
export async function replaceTaskCriteria(
  taskId: string,
  next: (task: { projectId: string; acceptanceCriteria: unknown; updatedAt: Date }) => Criterion[],
  audit: AuditStep<{ projectId: string }>,
): Promise<{ updatedAt: Date } | null> {
  return db().$transaction(async (tx) => {
    // lock the row so two concurrent editors serialise
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM task WHERE id = ${taskId} FOR UPDATE`;
    if (locked.length === 0) return null;
    const task = await tx.task.findUniqueOrThrow({
      where: { id: taskId },
      select: { id: true, projectId: true, acceptanceCriteria: true, updatedAt: true },
    });
    const criteria = next(task);
    const updated = await tx.task.update({
      where: { id: taskId },
      data: { acceptanceCriteria: criteria as Prisma.InputJsonValue },
      select: { updatedAt: true },
    });
    await audit(tx, { projectId: task.projectId });
    return { updatedAt: updated.updatedAt };
  });
}
