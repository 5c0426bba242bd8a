import { db } from '../../db/client';
import { parseProjectSettings, type ProjectSettings } from '../project-schemas';
import type { AuditStep } from '../../auth/queries/audit';

const projectSelect = { id: true, slug: true, name: true, description: true, createdAt: true } as const;

/** Idempotent: returns the project with this slug (a valid one: projectSlugSchema), creating it when absent. */
export async function ensureProject(input: { slug: string; name: string; description?: string }) {
  const slug = input.slug;
  return db().project.upsert({
    where: { slug },
    create: { slug, name: input.name, description: input.description ?? '', settings: parseProjectSettings({}) },
    update: {},
    select: projectSelect,
  });
}

/** Creates the project (a valid slug: projectSlugSchema) unless its slug is taken; says whether this call created it (so only its creator becomes its lead). */
export async function createProjectIfAbsent(slug: string): Promise<{ project: { id: string; slug: string }; created: boolean }> {
  try {
    const project = await db().project.create({
      data: { slug, name: slug, settings: parseProjectSettings({}) },
      select: { id: true, slug: true },
    });
    return { project, created: true };
  } catch (error) {
    if ((error as { code?: string }).code !== 'P2002') throw error;
  }
  const existing = await db().project.findUniqueOrThrow({ where: { slug }, select: { id: true, slug: true } });
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

/** The project with this slug (a valid one: projectSlugSchema), or null. */
export async function projectBySlug(slug: string) {
  return db().project.findUnique({ where: { slug }, select: projectSelect });
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
  return parseProjectSettings(row?.settings);
}

/** Every project with its parsed settings (admin page), or those of `projectIds` (the projects a lead leads; null: every one). */
export async function listProjectSettings(projectIds: string[] | null = null) {
  const rows = await db().project.findMany({
    where: projectIds === null ? {} : { id: { in: projectIds } },
    select: { id: true, slug: true, name: true, settings: true },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map((r) => ({ id: r.id, slug: r.slug, name: r.name, settings: parseProjectSettings(r.settings) }));
}

/**
 * In one transaction: reads the project's stored settings, writes `next(stored)` and runs
 * `audit` (the use-case's audit row). Null when there is no such project (nothing written).
 */
export async function rewriteProjectSettings(
  projectId: string,
  next: (stored: unknown) => ProjectSettings,
  audit: AuditStep,
): Promise<ProjectSettings | null> {
  return db().$transaction(async (tx) => {
    const row = await tx.project.findUnique({ where: { id: projectId }, select: { settings: true } });
    if (!row) return null;
    const settings = next(row.settings);
    await tx.project.update({ where: { id: projectId }, data: { settings } });
    await audit(tx);
    return settings;
  });
}
