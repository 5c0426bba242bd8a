import { AppError } from '../errors';
import { projectBySlug } from './queries/projects';

/** The project with this slug; NOT_FOUND when absent or, given `projectIds` (the caller's visible ones), not among them. */
export async function findProjectBySlug(slug: string, projectIds: string[] | null) {
  const project = await projectBySlug(slug);
  if (!project || (projectIds !== null && !projectIds.includes(project.id))) throw new AppError('NOT_FOUND', `No project named ${slug}`);
  return project;
}

/** The project with this slug, or null (no refusal): `witness import --lead` makes its lead only when the import made or found it. */
export async function findProjectNamed(slug: string) {
  return projectBySlug(slug);
}
