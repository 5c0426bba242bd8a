import { projectAccess, type ProjectRole } from '../project-access';
import type { SessionUser, UserRecord } from '../session-user';
import { db } from '../../db/client';
import type { AuditStep } from './audit';

/** The signed-in user with the projects they reach (their memberships; a narrowed token: one project). */
export async function sessionUserFor(user: UserRecord, narrowedTo: string | null): Promise<SessionUser> {
  const memberships =
    user.role === 'admin' ? [] : await db().projectMember.findMany({ where: { userId: user.id }, select: { projectId: true, role: true } });
  return { ...user, access: projectAccess(user.role, memberships, narrowedTo) };
}

/** Every project with its members (the admin page), or the one project with this id (`witness member list --project`). */
export async function listProjectMembers(projectId?: string) {
  return db().project.findMany({
    where: projectId === undefined ? {} : { id: projectId },
    select: {
      id: true,
      slug: true,
      name: true,
      members: {
        select: { role: true, createdAt: true, user: { select: { id: true, email: true, name: true, role: true, disabledAt: true } } },
        orderBy: [{ role: 'asc' }, { user: { email: 'asc' } }],
      },
    },
    orderBy: { createdAt: 'asc' },
  });
}
export type ProjectMembers = Awaited<ReturnType<typeof listProjectMembers>>[number];

/** Whether a project with this id exists. */
export async function projectExists(projectId: string): Promise<boolean> {
  return (await db().project.findUnique({ where: { id: projectId }, select: { id: true } })) !== null;
}

/**
 * Gives the user this role in the project (adding them or changing their role) with the caller's
 * audit entry (given the role before, null: was not a member), in one transaction. The same role
 * again writes nothing.
 */
export async function saveProjectMember(
  member: { projectId: string; userId: string; role: ProjectRole },
  audit: AuditStep<{ previous: ProjectRole | null }>,
): Promise<{ role: ProjectRole; previous: ProjectRole | null }> {
  const { projectId, userId, role } = member;
  return db().$transaction(async (tx) => {
    const existing = await tx.projectMember.findUnique({ where: { projectId_userId: { projectId, userId } }, select: { role: true } });
    if (existing?.role === role) return { role, previous: existing.role };
    await tx.projectMember.upsert({
      where: { projectId_userId: { projectId, userId } },
      create: { projectId, userId, role },
      update: { role },
    });
    await audit(tx, { previous: existing?.role ?? null });
    return { role, previous: existing?.role ?? null };
  });
}

/** Deletes the user's membership of the project with the caller's audit entry, in one transaction; false when there was none. */
export async function deleteProjectMember(projectId: string, userId: string, audit: AuditStep): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const removed = await tx.projectMember.deleteMany({ where: { projectId, userId } });
    if (removed.count === 0) return false;
    await audit(tx);
    return true;
  });
}

/** Makes the user a lead of the project unless they are a member already; the caller's audit entry goes with an added row. */
export async function addLeadUnlessMember(projectId: string, userId: string, audit: AuditStep): Promise<void> {
  await db().$transaction(async (tx) => {
    const created = await tx.projectMember.createMany({ data: [{ projectId, userId, role: 'lead' }], skipDuplicates: true });
    if (created.count > 0) await audit(tx);
  });
}

/** Seeding (the demo): gives a user these memberships when they have none yet; a user with any membership is left as is. */
export async function ensureFirstMemberships(userId: string, memberships: { projectId: string; role: ProjectRole }[]): Promise<boolean> {
  if (memberships.length === 0) return false;
  return db().$transaction(async (tx) => {
    if ((await tx.projectMember.count({ where: { userId } })) > 0) return false;
    await tx.projectMember.createMany({ data: memberships.map((m) => ({ ...m, userId })), skipDuplicates: true });
    return true;
  });
}

/** The things an edge is asked for by id, each in exactly one project. */
export const projectScopedKinds = ['trajectory', 'task', 'campaign', 'assignment', 'export', 'video', 'sink', 'campaignItem'] as const;
export type ProjectScopedKind = (typeof projectScopedKinds)[number];

/** The project a thing belongs to, or null when there is no such thing. */
export async function projectIdOf(kind: ProjectScopedKind, id: string): Promise<string | null> {
  const client = db();
  switch (kind) {
    case 'trajectory':
      return (await client.trajectory.findUnique({ where: { id }, select: { projectId: true } }))?.projectId ?? null;
    case 'task':
      return (await client.task.findUnique({ where: { id }, select: { projectId: true } }))?.projectId ?? null;
    case 'campaign':
      return (await client.campaign.findUnique({ where: { id }, select: { projectId: true } }))?.projectId ?? null;
    case 'campaignItem':
      return (
        (await client.campaignItem.findUnique({ where: { id }, select: { campaign: { select: { projectId: true } } } }))?.campaign
          .projectId ?? null
      );
    case 'assignment':
      return (
        (await client.assignment.findUnique({ where: { id }, select: { item: { select: { campaign: { select: { projectId: true } } } } } }))
          ?.item.campaign.projectId ?? null
      );
    case 'export':
      return (await client.export.findUnique({ where: { id }, select: { projectId: true } }))?.projectId ?? null;
    case 'video':
      return (
        (await client.video.findUnique({ where: { id }, select: { trajectory: { select: { projectId: true } } } }))?.trajectory.projectId ??
        null
      );
    case 'sink':
      return (await client.trainingSink.findUnique({ where: { id }, select: { projectId: true } }))?.projectId ?? null;
  }
}
