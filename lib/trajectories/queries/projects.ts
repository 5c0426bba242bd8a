import { z } from 'zod';
import { AppError } from '../../errors';
import { db } from '../../db/client';

export const projectSlugSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'project names are lowercase letters, digits and dashes');

export const projectSettingsSchema = z.object({
  /** render a video for each new trajectory after import */
  autoRender: z.boolean().default(true),
  /**
   * whether someone may review items whose trajectories they uploaded (through the API); off by default:
   * the claim never hands them out and a submit on one is refused; on, each such review is audited (`review.self`)
   */
  allowSelfReview: z.boolean().default(false),
});
export type ProjectSettings = z.infer<typeof projectSettingsSchema>;

const projectSelect = { id: true, slug: true, name: true, description: true, createdAt: true } as const;

/** Idempotent: returns the project with this slug, creating it when absent. */
export async function ensureProject(input: { slug: string; name: string; description?: string }) {
  const slug = projectSlugSchema.parse(input.slug);
  return db().project.upsert({
    where: { slug },
    create: { slug, name: input.name, description: input.description ?? '', settings: projectSettingsSchema.parse({}) },
    update: {},
    select: projectSelect,
  });
}

/** Creates the project unless its slug is taken; says whether this call created it (so only its creator becomes its lead). */
export async function createProjectIfAbsent(slug: string): Promise<{ project: { id: string; slug: string }; created: boolean }> {
  const parsed = projectSlugSchema.parse(slug);
  try {
    const project = await db().project.create({
      data: { slug: parsed, name: parsed, settings: projectSettingsSchema.parse({}) },
      select: { id: true, slug: true },
    });
    return { project, created: true };
  } catch (error) {
    if ((error as { code?: string }).code !== 'P2002') throw error;
  }
  const existing = await db().project.findUniqueOrThrow({ where: { slug: parsed }, select: { id: true, slug: true } });
  return { project: existing, created: false };
}

export async function ensureEnvironment(projectId: string, name: string, description = '') {
  return db().environment.upsert({
    where: { projectId_name: { projectId, name } },
    create: { projectId, name, description },
    update: {},
    select: { id: true, name: true },
  });
}

/** The project with this slug; NOT_FOUND when absent or, given `projectIds` (the caller's visible ones), not among them. */
export async function findProjectBySlug(slug: string, projectIds: string[] | null) {
  const project = await db().project.findUnique({ where: { slug }, select: projectSelect });
  if (!project || (projectIds !== null && !projectIds.includes(project.id))) throw new AppError('NOT_FOUND', `No project named ${slug}`);
  return project;
}

/** The project with this slug, or null (no error): imports use it to decide between joining and creating. */
export async function projectBySlug(slug: string) {
  return db().project.findUnique({ where: { slug: projectSlugSchema.parse(slug) }, select: projectSelect });
}

/** Projects with their counts, for the studio's overview: the visible ones (`projectIds`, null: every project). */
export async function listProjectsWithCounts(projectIds: string[] | null) {
  const rows = await db().project.findMany({
    where: projectIds === null ? {} : { id: { in: projectIds } },
    select: {
      ...projectSelect,
      // members: a project made outside the UI (witness import) has none until an admin adds some; the overview says so
      _count: { select: { environments: true, tasks: true, trajectories: true, campaigns: true, members: true } },
    },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map(({ _count, ...p }) => ({ ...p, counts: _count }));
}

/** JSON-safe project summaries: the shape of GET /api/v1/projects and of the lead page's prefetched query. */
export async function listProjectSummaries(projectIds: string[] | null) {
  const rows = await listProjectsWithCounts(projectIds);
  return rows.map((p) => ({ ...p, createdAt: p.createdAt.toISOString() }));
}
export type ProjectSummary = Awaited<ReturnType<typeof listProjectSummaries>>[number];

export async function projectSettings(projectId: string): Promise<ProjectSettings> {
  const row = await db().project.findUnique({ where: { id: projectId }, select: { settings: true } });
  return projectSettingsSchema.parse(row?.settings ?? {});
}

/** Every project with its parsed settings (admin page), or those of `projectIds` (the projects a lead leads; null: every one). */
export async function listProjectSettings(projectIds: string[] | null = null) {
  const rows = await db().project.findMany({
    where: projectIds === null ? {} : { id: { in: projectIds } },
    select: { id: true, slug: true, name: true, settings: true },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map((r) => ({ id: r.id, slug: r.slug, name: r.name, settings: projectSettingsSchema.parse(r.settings ?? {}) }));
}

/** Changes some settings of a project, keeping the others. */
export async function updateProjectSettings(
  projectId: string,
  patch: Partial<ProjectSettings>,
  actorId: string | null,
): Promise<ProjectSettings> {
  return db().$transaction(async (tx) => {
    const row = await tx.project.findUnique({ where: { id: projectId }, select: { settings: true } });
    if (!row) throw new AppError('NOT_FOUND', 'No such project');
    const settings = projectSettingsSchema.parse({ ...projectSettingsSchema.parse(row.settings ?? {}), ...patch });
    await tx.project.update({ where: { id: projectId }, data: { settings } });
    await tx.auditLog.create({
      data: { projectId, actorId, action: 'project.settings', targetType: 'project', targetId: projectId, data: patch },
    });
    return settings;
  });
}
