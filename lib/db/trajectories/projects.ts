import { z } from 'zod';
import { AppError } from '../../errors';
import { db } from '../infra/client';

export const projectSlugSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'project names are lowercase letters, digits and dashes');

export const projectSettingsSchema = z.object({
  /** render a video for each new trajectory after import */
  autoRender: z.boolean().default(true),
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

export async function ensureEnvironment(projectId: string, name: string, description = '') {
  return db().environment.upsert({
    where: { projectId_name: { projectId, name } },
    create: { projectId, name, description },
    update: {},
    select: { id: true, name: true },
  });
}

export async function findProjectBySlug(slug: string) {
  const project = await db().project.findUnique({ where: { slug }, select: projectSelect });
  if (!project) throw new AppError('NOT_FOUND', `No project named ${slug}`);
  return project;
}

/** Projects with their counts, for the studio's overview. */
export async function listProjectsWithCounts() {
  const rows = await db().project.findMany({
    select: {
      ...projectSelect,
      _count: { select: { environments: true, tasks: true, trajectories: true, campaigns: true } },
    },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map(({ _count, ...p }) => ({ ...p, counts: _count }));
}

/** JSON-safe project summaries: the shape of GET /api/v1/projects and of the lead page's prefetched query. */
export async function listProjectSummaries() {
  const rows = await listProjectsWithCounts();
  return rows.map((p) => ({ ...p, createdAt: p.createdAt.toISOString() }));
}
export type ProjectSummary = Awaited<ReturnType<typeof listProjectSummaries>>[number];

export async function projectSettings(projectId: string): Promise<ProjectSettings> {
  const row = await db().project.findUnique({ where: { id: projectId }, select: { settings: true } });
  return projectSettingsSchema.parse(row?.settings ?? {});
}

/** Every project with its parsed settings (admin page). */
export async function listProjectSettings() {
  const rows = await db().project.findMany({ select: { id: true, slug: true, name: true, settings: true }, orderBy: { createdAt: 'asc' } });
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
