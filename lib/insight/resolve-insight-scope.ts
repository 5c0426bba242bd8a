import { AppError } from '../errors';
import { insightProjects, type InsightProject } from './queries/insight-projects';
import { insightEnvironments } from './queries/insight-policies';

/**
 * The named project, or (none named) the first project that has trajectories, among the
 * caller's visible projects (`projectIds`; null: every project). One they do not lead is "No
 * project named …", the same answer as a project that does not exist (details.field 'project':
 * pages answer it with their 404).
 */
export async function resolveInsightProject(
  slug: string | undefined,
  projectIds: string[] | null,
): Promise<{ project: InsightProject | null; projects: InsightProject[] }> {
  const { projects, firstWithTrajectoriesId } = await insightProjects(projectIds, !slug);
  if (slug) {
    const project = projects.find((p) => p.slug === slug);
    if (!project) throw new AppError('NOT_FOUND', `No project named ${slug}`, { details: { field: 'project' } });
    return { project, projects };
  }
  return { project: projects.find((p) => p.id === firstWithTrajectoriesId) ?? projects[0] ?? null, projects };
}

/** The project's environments and the one named (none named: null); NOT_FOUND for a name it does not have. */
export async function resolveInsightEnvironment(projectId: string, name: string | undefined) {
  const environments = await insightEnvironments(projectId);
  if (!name) return { environment: null, environments };
  // by name (the pages' links), or by id (the trajectory list's links)
  const environment = environments.find((e) => e.name === name) ?? environments.find((e) => e.id === name);
  if (!environment) throw new AppError('NOT_FOUND', `No environment named ${name} in this project`);
  return { environment, environments };
}
