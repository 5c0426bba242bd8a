import 'server-only';
import { headers } from 'next/headers';
import { forbidden, notFound, redirect } from 'next/navigation';
import { cache } from 'react';
import type { ProjectRole } from '@/lib/auth/project-access';
import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import type { ProjectScopedKind } from '@/lib/auth/queries/memberships';
import { canAccess, roleHome, type Area } from '@/lib/auth/roles';
import type { SessionUser } from '@/lib/auth/session-user';
import { sessionUserFromHeaders } from '@/lib/auth/sign-in';
import { AppError } from '@/lib/errors';

/** The signed-in user for this request (one lookup per request), or null. */
export const currentUser = cache(async (): Promise<SessionUser | null> => sessionUserFromHeaders(await headers()));

/**
 * For pages: the user when their role may see `area`. Not signed in: to sign-in. Signed in
 * with the wrong role: HTTP 403 and app/forbidden.tsx (the page's data is never loaded).
 */
export async function requirePageUser(area: Area): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) redirect('/sign-in');
  if (!canAccess(user.role, area)) forbidden();
  return user;
}

/**
 * For pages about one thing (a campaign, a trajectory, an assignment): the user when their role in
 * its project is at least `min`. Absent or in a project they do not reach: the 404 page; a lower
 * role in their own project: 403. Returns the project id.
 */
export async function requirePageProjectRole(user: SessionUser, kind: ProjectScopedKind, id: string, min: ProjectRole): Promise<string> {
  try {
    return await requireProjectRoleFor(user, kind, id, min);
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') notFound();
    if (error instanceof AppError && error.code === 'FORBIDDEN') forbidden();
    throw error;
  }
}

/** For server actions: the user when allowed, else an AppError the action wrapper maps. */
export async function requireActionUser(area: Area): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) throw new AppError('UNAUTHENTICATED', 'Your session has ended. Sign in again.');
  if (!canAccess(user.role, area)) throw new AppError('FORBIDDEN', 'Your role cannot do this.');
  return user;
}

export function homeFor(user: SessionUser): string {
  return roleHome[user.role];
}
