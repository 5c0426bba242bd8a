import { z } from 'zod';
import { AppError } from '../errors';
import type { Role } from './roles';

/**
 * Project membership: who reaches which project, as what. Pure rules, the one way every edge
 * scopes by project (pages, server actions, /api/v1 routes, downloads).
 *
 * - An admin reaches every project as its lead (no membership row needed).
 * - Anyone else reaches the projects they are a member of, with their role there: a `lead`
 *   manages it (trajectories, campaigns, agreement, datasets, insight) and reviews in it, a
 *   `reviewer` only claims and reviews in its campaigns.
 * - An API token narrowed to one project (at creation) reaches that project only, with its
 *   user's role there.
 * A project the caller does not reach answers 404, as if it did not exist; a project they reach
 * with too low a role answers 403.
 */
export const projectRoles = ['lead', 'reviewer'] as const;
export const projectRoleSchema = z.enum(projectRoles);
export type ProjectRole = z.infer<typeof projectRoleSchema>;

export interface ProjectAccess {
  /** admins: every project */
  everyProject: boolean;
  /** the caller's memberships (projectId -> role); empty for admins, who need none */
  memberships: ReadonlyArray<{ projectId: string; role: ProjectRole }>;
  /** an API token narrowed to one project: nothing else is reachable (null: not narrowed) */
  narrowedTo: string | null;
}

export function projectAccess(
  role: Role,
  memberships: ReadonlyArray<{ projectId: string; role: ProjectRole }>,
  narrowedTo: string | null = null,
): ProjectAccess {
  return { everyProject: role === 'admin', memberships: role === 'admin' ? [] : memberships, narrowedTo };
}

const rank: Record<ProjectRole, number> = { reviewer: 1, lead: 2 };

/** The caller's role in a project, or null when they do not reach it. */
export function roleInProject(access: ProjectAccess, projectId: string): ProjectRole | null {
  if (access.narrowedTo !== null && access.narrowedTo !== projectId) return null;
  if (access.everyProject) return 'lead';
  return access.memberships.find((m) => m.projectId === projectId)?.role ?? null;
}

/** Whether the caller has at least `min` in the project. */
export function hasProjectRole(access: ProjectAccess, projectId: string, min: ProjectRole): boolean {
  const role = roleInProject(access, projectId);
  return role !== null && rank[role] >= rank[min];
}

/**
 * The ids of the projects where the caller has at least `min`, for queries that list; null
 * means every project (an admin, not narrowed). Never an empty "everything": [] is nothing.
 */
export function visibleProjectIds(access: ProjectAccess, min: ProjectRole): string[] | null {
  if (access.everyProject) return access.narrowedTo === null ? null : [access.narrowedTo];
  return access.memberships
    .filter((m) => rank[m.role] >= rank[min] && (access.narrowedTo === null || m.projectId === access.narrowedTo))
    .map((m) => m.projectId);
}

/**
 * The guard: passes when the caller has at least `min` in the project; a project they do not
 * reach is NOT_FOUND (`what` names the thing asked for, e.g. "campaign"), a lower role in a
 * project they belong to is FORBIDDEN.
 */
export function requireProjectRole(access: ProjectAccess, projectId: string | null | undefined, min: ProjectRole, what: string): void {
  const role = projectId ? roleInProject(access, projectId) : null;
  if (role === null) throw new AppError('NOT_FOUND', `No such ${what}`);
  if (rank[role] < rank[min]) throw new AppError('FORBIDDEN', `Only the project's leads can do this (you review in it).`);
}
