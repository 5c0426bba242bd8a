import { z } from 'zod';
import { projectAccess, projectRoleSchema, type ProjectRole } from '../project-access';
import type { SessionUser, UserRecord } from '../session-user';
import { AppError } from '../../errors';
import { parseInput } from '../../parse-input';
import { db } from '../../db/client';
import { writeAudit } from './audit';

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

export const membershipInput = z.object({
  projectId: z.string().trim().min(1, 'pick a project').max(64),
  userId: z.string().trim().min(1, 'pick a user').max(64),
  role: projectRoleSchema,
});
export const removeMembershipInput = membershipInput.omit({ role: true });

/**
 * Adds a member or changes their role (admin only; audited with the project). A global
 * reviewer can only review in a project: only global leads may lead one. Admins need no
 * membership (they reach every project). Idempotent: the same role again changes and audits
 * nothing. `actorId` null: the command line (`witness member add`, `witness import --lead`),
 * whose `reason` goes into the audit entry.
 */
export async function setProjectMember(
  actorId: string | null,
  raw: z.input<typeof membershipInput>,
  reason?: string,
): Promise<{ role: ProjectRole; previous: ProjectRole | null }> {
  const input = parseInput(membershipInput, raw, '');
  return db().$transaction(async (tx) => {
    const [project, user] = await Promise.all([
      tx.project.findUnique({ where: { id: input.projectId }, select: { id: true } }),
      tx.user.findUnique({ where: { id: input.userId }, select: { id: true, role: true, email: true } }),
    ]);
    if (!project) throw new AppError('NOT_FOUND', 'No such project', { details: { field: 'projectId' } });
    if (!user) throw new AppError('NOT_FOUND', 'No such user', { details: { field: 'userId' } });
    if (user.role === 'admin')
      throw new AppError('BAD_INPUT', `${user.email} is an admin and reaches every project already`, { details: { field: 'userId' } });
    if (input.role === 'lead' && user.role !== 'lead')
      throw new AppError('BAD_INPUT', `${user.email} is a reviewer: only users with the lead role can lead a project`, {
        details: { field: 'role' },
      });
    const existing = await tx.projectMember.findUnique({
      where: { projectId_userId: { projectId: input.projectId, userId: input.userId } },
      select: { role: true },
    });
    if (existing?.role === input.role) return { role: input.role, previous: existing.role };
    await tx.projectMember.upsert({
      where: { projectId_userId: { projectId: input.projectId, userId: input.userId } },
      create: { projectId: input.projectId, userId: input.userId, role: input.role },
      update: { role: input.role },
    });
    await writeAudit(tx, {
      actorId,
      action: existing ? 'project_member.role' : 'project_member.add',
      targetType: 'user',
      targetId: input.userId,
      projectId: input.projectId,
      data: { role: input.role, ...(existing ? { previous: existing.role } : {}), ...(reason ? { reason } : {}) },
    });
    return { role: input.role, previous: existing?.role ?? null };
  });
}

/** Removes a member from a project (admin only; audited). Their claims there stop at once: every edge checks membership. */
export async function removeProjectMember(actorId: string | null, raw: z.input<typeof removeMembershipInput>): Promise<void> {
  const input = parseInput(removeMembershipInput, raw, '');
  await db().$transaction(async (tx) => {
    const removed = await tx.projectMember.deleteMany({ where: { projectId: input.projectId, userId: input.userId } });
    if (removed.count === 0) throw new AppError('NOT_FOUND', 'This user is not a member of this project');
    await writeAudit(tx, {
      actorId,
      action: 'project_member.remove',
      targetType: 'user',
      targetId: input.userId,
      projectId: input.projectId,
    });
  });
}

/** Makes the user who created a project its lead (an import that created it); admins need no row. */
export async function addCreatorAsLead(projectId: string, user: UserRecord): Promise<void> {
  if (user.role === 'admin') return;
  await db().$transaction(async (tx) => {
    const created = await tx.projectMember.createMany({ data: [{ projectId, userId: user.id, role: 'lead' }], skipDuplicates: true });
    if (created.count > 0)
      await writeAudit(tx, {
        actorId: user.id,
        action: 'project_member.add',
        targetType: 'user',
        targetId: user.id,
        projectId,
        data: { role: 'lead', reason: 'created the project' },
      });
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
