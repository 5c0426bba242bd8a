import { projectIdOf, type ProjectScopedKind } from './queries/memberships';
import { requireProjectRole, type ProjectRole } from './project-access';
import type { SessionUser } from './session-user';

const what: Record<ProjectScopedKind, string> = {
  trajectory: 'trajectory',
  task: 'task',
  campaign: 'campaign',
  campaignItem: 'campaign item',
  assignment: 'assignment',
  export: 'export',
  video: 'video',
  sink: 'training sink',
};

/**
 * The guard for anything asked for by id: looks up the project it belongs to and checks the
 * caller's role there (lib/auth/project-access.ts). Absent, or in a project the caller does not
 * reach: NOT_FOUND (the same answer, so ids of other projects tell nothing); a lower role in
 * their own project: FORBIDDEN. Returns the project id.
 */
export async function requireProjectRoleFor(user: SessionUser, kind: ProjectScopedKind, id: string, min: ProjectRole): Promise<string> {
  const projectId = await projectIdOf(kind, id);
  requireProjectRole(user.access, projectId, min, what[kind]);
  return projectId!;
}
