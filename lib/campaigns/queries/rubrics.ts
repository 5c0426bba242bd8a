import type { Prisma } from '@prisma/client';
import { rubricDefinition, type RubricDefinition } from '../../review/rubric';
import { writeAudit } from '../../auth/queries/audit';
import { db } from '../../db/client';
import { parseInput } from '../../parse-input';

/** Saves a rubric definition as a new immutable version (version 1 creates the rubric). */
export async function saveRubricVersion(projectId: string, name: string, definition: unknown, actorId: string | null) {
  const checked = parseInput(rubricDefinition, definition, 'rubric');
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
      data: { rubricId: rubric.id, version: (last?.version ?? 0) + 1, definition: checked as Prisma.InputJsonValue },
      select: { id: true, version: true },
    });
    await writeAudit(tx, {
      actorId,
      action: 'rubric.version',
      targetType: 'rubric',
      targetId: rubric.id,
      projectId,
      data: { version: version.version },
    });
    return { rubricId: rubric.id, versionId: version.id, version: version.version };
  });
}

export async function getRubricVersion(versionId: string): Promise<{ id: string; version: number; definition: RubricDefinition } | null> {
  const row = await db().rubricVersion.findUnique({ where: { id: versionId }, select: { id: true, version: true, definition: true } });
  return row ? { id: row.id, version: row.version, definition: rubricDefinition.parse(row.definition) } : null;
}
