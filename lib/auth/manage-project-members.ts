import { z } from 'zod';
import { listProjectMembers, removeProjectMember, setProjectMember, type ProjectMembers } from './queries/memberships';
import { findUserByEmail } from './queries/users';
import { projectBySlug, projectSlugSchema } from '../trajectories/queries/projects';
import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { memberAddCommand, userCreateCommand } from './member-commands';
import { projectRoleSchema, type ProjectRole } from './project-access';
import type { UserRecord } from './session-user';

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
