import { addCreatorAsLead } from '../auth/manage-project-members';
import { requireProjectRole } from '../auth/project-access';
import type { SessionUser } from '../auth/session-user';
import { AppError } from '../errors';
import { createProjectIfAbsent, ensureProject, projectBySlug } from '../trajectories/queries/projects';
import type { ImportOptions } from './import-trajectories';

/** Where an import stores: `importTrajectories`' project options, and `resolvedId` once the import made or found the project. */
export type ImportProject = Pick<ImportOptions, 'existingProjectId'> & {
  projectId: () => Promise<string>;
  /** the project's id once the import asked for it (it stored something), else null */
  resolvedId: () => string | null;
};

/**
 * `witness import --project SLUG` (a parsed slug): the project is made (with no members) when the
 * first trajectory is stored, so a failed import leaves no project behind; files imported
 * completely into it before are skipped unparsed.
 */
export function importProjectNamed(slug: string): ImportProject {
  let resolved: string | null = null;
  return {
    projectId: async () => (resolved = (await ensureProject({ slug, name: slug })).id),
    resolvedId: () => resolved,
    existingProjectId: async () => (await projectBySlug(slug))?.id ?? null,
  };
}

/**
 * POST /api/v1/trajectories?project=SLUG (a parsed slug), membership (issue 14): an existing
 * project takes imports from its leads only (another project: NOT_FOUND, as if absent; checked
 * now, before the body is read); a new one is made by the first import that stores something, and
 * its creator becomes its lead (one made meanwhile by someone else is checked like an existing one).
 * A token narrowed to one project never makes another (NOT_FOUND).
 */
export async function importProjectFor(user: SessionUser, slug: string): Promise<ImportProject> {
  const existing = await projectBySlug(slug);
  if (existing) requireProjectRole(user.access, existing.id, 'lead', `project named ${slug}`);
  else if (user.access.narrowedTo !== null) throw new AppError('NOT_FOUND', `No such project named ${slug}`);
  let resolved: string | null = null;
  return {
    projectId: async () => {
      if (existing) return (resolved = existing.id);
      const { project, created } = await createProjectIfAbsent(slug);
      if (created) await addCreatorAsLead(project.id, user);
      else requireProjectRole(user.access, project.id, 'lead', `project named ${slug}`); // created meanwhile by someone else
      return (resolved = project.id);
    },
    resolvedId: () => resolved,
    // files imported completely into the project before are skipped unparsed (a new project has none)
    existingProjectId: async () => existing?.id ?? null,
  };
}
