import 'server-only';
import { headers } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { cache } from 'react';
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
