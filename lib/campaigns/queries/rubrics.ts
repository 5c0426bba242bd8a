import type { Prisma } from '@prisma/client';
import { rubricDefinition, type RubricDefinition } from '../../review/rubric';
import { db } from '../../db/client';
import type { AuditStep } from '../../auth/queries/audit';

/**
 * Inserts a rubric definition as the rubric's next immutable version (version 1 creates the
 * rubric); `audit` runs in the same transaction (the use-case's audit row).
 */
export async function insertRubricVersion(
  projectId: string,
  name: string,
  definition: RubricDefinition,
  audit: AuditStep<{ rubricId: string; version: number }>,
) {
  return db().$transaction(async (tx) => {
    const rubric = await tx.rubric.upsert({
      where: { projectId_name: { projectId, name } },
      create: { projectId, name },
      update: {},
      select: { id: true },
    });
    const last = await tx.rubricVersion.findFirst({
      where: { rubricId: rubric.id },
      orderBy: { version: 'desc' },
      select: { version: true },
    });
    const version = await tx.rubricVersion.create({
      data: { rubricId: rubric.id, version: (last?.version ?? 0) + 1, definition: definition as Prisma.InputJsonValue },
      select: { id: true, version: true },
    });
    await audit(tx, { rubricId: rubric.id, version: version.version });
    return { rubricId: rubric.id, versionId: version.id, version: version.version };
  });
}

export async function getRubricVersion(versionId: string): Promise<{ id: string; version: number; definition: RubricDefinition } | null> {
  const row = await db().rubricVersion.findUnique({ where: { id: versionId }, select: { id: true, version: true, definition: true } });
  return row ? { id: row.id, version: row.version, definition: rubricDefinition.parse(row.definition) } : null;
}
