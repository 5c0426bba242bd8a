import { db } from '../../db/client';

export interface InsightProject {
  id: string;
  slug: string;
  name: string;
}

/**
 * The caller's visible projects (`projectIds`; null: every project), oldest first, and (with
 * `firstWithTrajectories`) the id of the first of them that has a trajectory: one index probe per
 * project (counting them all read 100k rows at bench scale).
 */
export async function insightProjects(
  projectIds: string[] | null,
  firstWithTrajectories: boolean,
): Promise<{ projects: InsightProject[]; firstWithTrajectoriesId: string | null }> {
  const visible = projectIds === null ? {} : { id: { in: projectIds } };
  const [projects, withTrajectories] = await Promise.all([
    db().project.findMany({ where: visible, select: { id: true, slug: true, name: true }, orderBy: { createdAt: 'asc' } }),
    firstWithTrajectories
      ? db().project.findFirst({ where: { ...visible, trajectories: { some: {} } }, select: { id: true }, orderBy: { createdAt: 'asc' } })
      : null,
  ]);
  return { projects, firstWithTrajectoriesId: withTrajectories?.id ?? null };
}
