import { z } from 'zod';
import { writeAudit } from './queries/audit';
import {
  addLeadUnlessMember,
  deleteProjectMember,
  listProjectMembers,
  projectExists,
  saveProjectMember,
  type ProjectMembers,
} from './queries/memberships';
import { findUserByEmail, findUserById } from './queries/users';
import { projectBySlug } from '../trajectories/queries/projects';
import { projectSlugSchema } from '../trajectories/project-schemas';
import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { memberAddCommand, userCreateCommand } from './member-commands';
import { projectRoleSchema, type ProjectRole } from './project-access';
import type { UserRecord } from './session-user';

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
  const [project, user] = await Promise.all([projectExists(input.projectId), findUserById(input.userId)]);
  if (!project) throw new AppError('NOT_FOUND', 'No such project', { details: { field: 'projectId' } });
  if (!user) throw new AppError('NOT_FOUND', 'No such user', { details: { field: 'userId' } });
  if (user.role === 'admin')
    throw new AppError('BAD_INPUT', `${user.email} is an admin and reaches every project already`, { details: { field: 'userId' } });
  if (input.role === 'lead' && user.role !== 'lead')
    throw new AppError('BAD_INPUT', `${user.email} is a reviewer: only users with the lead role can lead a project`, {
      details: { field: 'role' },
    });
  return saveProjectMember(input, (tx, { previous }) =>
    writeAudit(tx, {
      actorId,
      action: previous ? 'project_member.role' : 'project_member.add',
      targetType: 'user',
      targetId: input.userId,
      projectId: input.projectId,
      data: { role: input.role, ...(previous ? { previous } : {}), ...(reason ? { reason } : {}) },
    }),
  );
}

/** Removes a member from a project (admin only; audited). Their claims there stop at once: every edge checks membership. */
export async function removeProjectMember(actorId: string | null, raw: z.input<typeof removeMembershipInput>): Promise<void> {
  const input = parseInput(removeMembershipInput, raw, '');
  const removed = await deleteProjectMember(input.projectId, input.userId, (tx) =>
    writeAudit(tx, {
      actorId,
      action: 'project_member.remove',
      targetType: 'user',
      targetId: input.userId,
      projectId: input.projectId,
    }),
  );
  if (!removed) throw new AppError('NOT_FOUND', 'This user is not a member of this project');
}

/** Makes the user who created a project its lead (an import that created it); admins need no row. */
export async function addCreatorAsLead(projectId: string, user: UserRecord): Promise<void> {
  if (user.role === 'admin') return;
  await addLeadUnlessMember(projectId, user.id, (tx) =>
    writeAudit(tx, {
      actorId: user.id,
      action: 'project_member.add',
      targetType: 'user',
      targetId: user.id,
      projectId,
      data: { role: 'lead', reason: 'created the project' },
    }),
  );
}

/**
 * Project membership by name, from a terminal (`witness member add|list|remove`, `witness import
 * --lead`): a project by its slug and a user by their email, resolved here with errors that name
 * which one is missing, then the same use-cases the Admin page's actions call
 * (`setProjectMember`, `removeProjectMember`: validated, idempotent, audited). The command line
 * has no signed-in user: the audit entries' actor is null and their `reason` says the command.
 */
const projectField = projectSlugSchema;
const userField = z.email('expected an email address').transform((e) => e.toLowerCase());

const addInput = z.object({ project: projectField, user: userField, role: projectRoleSchema });
const removeInput = addInput.omit({ role: true });

export interface MemberChange {
  project: string;
  user: string;
  role: ProjectRole;
  /** the role before (null: was not a member); equal to `role`: nothing changed */
  previous: ProjectRole | null;
}

async function projectNamed(slug: string) {
  const project = await projectBySlug(slug);
  if (!project) throw new AppError('NOT_FOUND', `No project named ${slug}`, { details: { field: 'project' } });
  return project;
}

async function userWithEmail(email: string, role: ProjectRole | 'lead|reviewer' = 'lead|reviewer'): Promise<UserRecord> {
  const user = await findUserByEmail(email);
  if (!user)
    throw new AppError('NOT_FOUND', `No user with email ${email}: create one first with \`${userCreateCommand(email, role)}\``, {
      details: { field: 'user' },
    });
  return user;
}

/** Makes the user a member of the project with this role, or changes their role there; the same role again changes nothing. */
export async function addProjectMember(
  raw: z.input<typeof addInput>,
  options: { actorId?: string | null; reason?: string } = {},
): Promise<MemberChange> {
  const input = parseInput(addInput, raw, '');
  const [project, user] = [await projectNamed(input.project), await userWithEmail(input.user, input.role)];
  const saved = await setProjectMember(
    options.actorId ?? null,
    { projectId: project.id, userId: user.id, role: input.role },
    options.reason ?? 'witness member add',
  );
  return { project: project.slug, user: user.email, ...saved };
}

/** Removes the user from the project; NOT_FOUND, naming both, when they are not a member. */
export async function removeProjectMemberByName(
  raw: z.input<typeof removeInput>,
  options: { actorId?: string | null } = {},
): Promise<{ project: string; user: string; removed: ProjectRole }> {
  const input = parseInput(removeInput, raw, '');
  const [project, user] = [await projectNamed(input.project), await userWithEmail(input.user)];
  const [members] = await listProjectMembers(project.id);
  const member = members?.members.find((m) => m.user.id === user.id);
  if (!member) throw new AppError('NOT_FOUND', `${user.email} is not a member of project ${project.slug}`, { details: { field: 'user' } });
  await removeProjectMember(options.actorId ?? null, { projectId: project.id, userId: user.id });
  return { project: project.slug, user: user.email, removed: member.role };
}

/** Every project with its members, or the one named (NOT_FOUND when there is no such project). */
export async function listMembersByProject(slug?: string): Promise<ProjectMembers[]> {
  if (slug === undefined) return listProjectMembers();
  const project = await projectNamed(parseInput(projectField, slug, 'project'));
  return listProjectMembers(project.id);
}

/**
 * The user `witness import --lead EMAIL` will make the project's lead, checked before anything is
 * imported: they must exist and be allowed to lead (global role lead; an admin already reaches
 * every project as its lead and needs no membership).
 */
export async function userWhoCanLead(email: string): Promise<UserRecord> {
  const user = await userWithEmail(parseInput(userField, email, '--lead'), 'lead');
  if (user.role === 'reviewer')
    throw new AppError(
      'BAD_INPUT',
      `${user.email} is a reviewer: only users with the lead role can lead a project (add them as a reviewer with \`${memberAddCommand({ user: user.email, role: 'reviewer' })}\`)`,
      { details: { field: 'lead' } },
    );
  return user;
}

/** After an import: makes the user the project's lead (idempotent, audited); an admin needs no membership (null). */
export async function makeProjectLead(
  project: { id: string; slug: string },
  user: UserRecord,
  reason: string,
): Promise<MemberChange | null> {
  if (user.role === 'admin') return null;
  const saved = await setProjectMember(null, { projectId: project.id, userId: user.id, role: 'lead' }, reason);
  return { project: project.slug, user: user.email, ...saved };
}

/** Whether the project exists and nobody is a member of it yet (only admins reach it): `witness import` says how to add its lead. */
export async function projectHasNoMembers(projectId: string): Promise<boolean> {
  return (await listProjectMembers(projectId))[0]?.members.length === 0;
}
