import { rubricDefinition, type RubricDefinition } from '../../review/rubric';
import { db } from '../../db/client';

export interface RubricChoice {
  rubricId: string;
  name: string;
  versionId: string;
  version: number;
  definition: RubricDefinition;
  createdAt: string;
  /** campaigns created with any version of this rubric */
  campaigns: number;
}

/** The latest version of every rubric in a project, for reuse in the campaign form (JSON-safe). */
export async function listLatestRubrics(projectId: string): Promise<RubricChoice[]> {
  const rubrics = await db().rubric.findMany({
    where: { projectId },
    select: {
      id: true,
      name: true,
      versions: {
        select: { id: true, version: true, definition: true, createdAt: true, _count: { select: { campaigns: true } } },
        orderBy: { version: 'desc' },
      },
    },
    orderBy: { name: 'asc' },
  });
  return rubrics.flatMap((r) => {
    const latest = r.versions[0];
    if (!latest) return [];
    const parsed = rubricDefinition.safeParse(latest.definition);
    if (!parsed.success) return [];
    return [
      {
        rubricId: r.id,
        name: r.name,
        versionId: latest.id,
        version: latest.version,
        definition: parsed.data,
        createdAt: latest.createdAt.toISOString(),
        campaigns: r.versions.reduce((n, v) => n + v._count.campaigns, 0),
      },
    ];
  });
}

/** The newest version of the project's rubric with this name, or null. */
export async function latestRubricVersion(projectId: string, name: string) {
  const row = await db().rubricVersion.findFirst({
    where: { rubric: { projectId, name } },
    orderBy: { version: 'desc' },
    select: { id: true, version: true, definition: true },
  });
  return row;
}

/** A rubric version of this project (null when it belongs elsewhere or does not exist). */
export async function rubricVersionInProject(projectId: string, versionId: string) {
  return db().rubricVersion.findFirst({
    where: { id: versionId, rubric: { projectId } },
    select: { id: true, version: true, definition: true, rubric: { select: { name: true } } },
  });
}
