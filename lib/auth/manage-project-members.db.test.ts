import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { visibleProjectIds } from './project-access';
import { requireProjectRoleFor } from './require-project-role';
import type { SessionUser } from './session-user';
import { listAgreementCampaigns } from '../agreement/queries/agreement-data';
import { listCampaigns } from '../campaigns/queries/campaign-list';
import { db } from '../db/client';
import { reviewerQueues } from '../review/queries/review-queue';
import { resetDatabase } from '../db/test/reset';
import { seedLabelledProject, type SeededLabels } from '../db/test/seed-labels';
import { listProjectSummaries } from '../trajectories/queries/projects';
import { listTrajectories } from '../trajectories/list-trajectories';
import { createApiToken } from './create-api-token';
import { createUser } from './create-user';
import { removeProjectMember, setProjectMember } from './manage-project-members';
import { userForApiToken } from './queries/api-tokens';
import { sessionUserFor } from './queries/memberships';
import { codeOf } from '../db/test/error-code';

async function person(role: 'admin' | 'lead' | 'reviewer') {
  return createUser({
    email: `${role}-${Math.random().toString(36).slice(2)}@members.test`,
    name: role,
    role,
    password: 'long enough password',
  });
}
const as = async (user: { id: string; email: string; name: string; role: 'admin' | 'lead' | 'reviewer'; expertise: string[] }) =>
  sessionUserFor(user, null);

describe('project membership (the guard, scoped queries, admin changes, narrowed tokens)', () => {
  let a: SeededLabels;
  let b: SeededLabels;
  let admin: SessionUser;
  let leadA: SessionUser;
  let reviewerA: SessionUser;
  let leadB: SessionUser;

  beforeAll(async () => {
    await resetDatabase();
    a = await seedLabelledProject({ slug: 'physics', tasks: 1, evalTasks: 0 });
    b = await seedLabelledProject({ slug: 'software', tasks: 1, evalTasks: 0 });
    const [ad, la, ra, lb] = [await person('admin'), await person('lead'), await person('reviewer'), await person('lead')];
    await setProjectMember(ad.id, { projectId: a.projectId, userId: la.id, role: 'lead' });
    await setProjectMember(ad.id, { projectId: a.projectId, userId: ra.id, role: 'reviewer' });
    await setProjectMember(ad.id, { projectId: b.projectId, userId: lb.id, role: 'lead' });
    [admin, leadA, reviewerA, leadB] = [await as(ad), await as(la), await as(ra), await as(lb)];
  }, 120_000);

  it('answers 404 for ids of another project, 403 for too low a role in one of yours, and passes members', async () => {
    const trajectoryA = (await db().trajectory.findFirstOrThrow({ where: { projectId: a.projectId }, select: { id: true } })).id;
    const assignmentA = (
      await db().assignment.findFirstOrThrow({ where: { item: { campaignId: a.singleCampaignId } }, select: { id: true } })
    ).id;
    expect(await requireProjectRoleFor(leadA, 'campaign', a.singleCampaignId, 'lead')).toBe(a.projectId);
    expect(await requireProjectRoleFor(admin, 'campaign', b.singleCampaignId, 'lead')).toBe(b.projectId);
    expect(await codeOf(requireProjectRoleFor(leadB, 'campaign', a.singleCampaignId, 'lead'))).toBe('NOT_FOUND');
    expect(await codeOf(requireProjectRoleFor(leadB, 'trajectory', trajectoryA, 'lead'))).toBe('NOT_FOUND');
    expect(await codeOf(requireProjectRoleFor(leadB, 'assignment', assignmentA, 'reviewer'))).toBe('NOT_FOUND');
    expect(await codeOf(requireProjectRoleFor(reviewerA, 'campaign', a.singleCampaignId, 'lead'))).toBe('FORBIDDEN');
    expect(await codeOf(requireProjectRoleFor(reviewerA, 'campaign', a.singleCampaignId, 'reviewer'))).toBeNull();
    expect(await codeOf(requireProjectRoleFor(reviewerA, 'campaign', b.singleCampaignId, 'reviewer'))).toBe('NOT_FOUND');
    // an absent id reads the same as another project's
    await expect(requireProjectRoleFor(leadB, 'campaign', 'no-such-id', 'lead')).rejects.toThrow('No such campaign');
    await expect(requireProjectRoleFor(leadB, 'campaign', a.singleCampaignId, 'lead')).rejects.toThrow('No such campaign');
  });

  it('lists only the visible projects in every listing query', async () => {
    const ids = visibleProjectIds(leadA.access, 'lead');
    expect(ids).toEqual([a.projectId]);
    expect((await listProjectSummaries(ids)).map((p) => p.slug)).toEqual(['physics']);
    expect((await listProjectSummaries(visibleProjectIds(admin.access, 'lead'))).map((p) => p.slug)).toEqual(['physics', 'software']);
    expect(new Set((await listCampaigns({ projectIds: ids })).map((c) => c.project.slug))).toEqual(new Set(['physics']));
    expect(await listCampaigns({ projectIds: ids, projectId: b.projectId })).toEqual([]);
    expect(new Set((await listAgreementCampaigns(ids)).map((c) => c.projectName))).toEqual(new Set(['physics']));
    const list = await listTrajectories({}, ids);
    expect(new Set(list.rows.map((r) => r.projectSlug))).toEqual(new Set(['physics']));
    expect(list.facets.projects.map((p) => p.slug)).toEqual(['physics']);
    await expect(listTrajectories({ project: 'software' }, ids)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'No project named software',
    });
    // the review queue: only campaigns of the reviewer's projects (both are open)
    const queues = await reviewerQueues(
      { id: reviewerA.id, expertise: [], projectIds: visibleProjectIds(reviewerA.access, 'reviewer') },
      new Date(),
    );
    expect(new Set(queues.map((q) => q.project.slug))).toEqual(new Set(['physics']));
    expect(await reviewerQueues({ id: reviewerA.id, expertise: [], projectIds: [] }, new Date())).toEqual([]);
  });

  it('lets an admin add, re-role and remove members, each change audited; refuses what cannot be', async () => {
    const someone = await person('lead');
    expect(await setProjectMember(admin.id, { projectId: b.projectId, userId: someone.id, role: 'reviewer' })).toEqual({
      role: 'reviewer',
      previous: null,
    });
    expect(await setProjectMember(admin.id, { projectId: b.projectId, userId: someone.id, role: 'lead' })).toEqual({
      role: 'lead',
      previous: 'reviewer',
    });
    expect(visibleProjectIds((await as(someone)).access, 'lead')).toEqual([b.projectId]);
    await removeProjectMember(admin.id, { projectId: b.projectId, userId: someone.id });
    expect(visibleProjectIds((await as(someone)).access, 'reviewer')).toEqual([]);
    const audit = await db().auditLog.findMany({
      where: { targetId: someone.id, action: { startsWith: 'project_member.' } },
      orderBy: { id: 'asc' },
      select: { action: true, actorId: true, projectId: true, data: true },
    });
    expect(audit).toEqual([
      { action: 'project_member.add', actorId: admin.id, projectId: b.projectId, data: { role: 'reviewer' } },
      { action: 'project_member.role', actorId: admin.id, projectId: b.projectId, data: { role: 'lead', previous: 'reviewer' } },
      { action: 'project_member.remove', actorId: admin.id, projectId: b.projectId, data: {} },
    ]);
    await expect(setProjectMember(admin.id, { projectId: a.projectId, userId: reviewerA.id, role: 'lead' })).rejects.toMatchObject({
      code: 'BAD_INPUT',
      details: { field: 'role' },
    });
    await expect(setProjectMember(admin.id, { projectId: a.projectId, userId: admin.id, role: 'reviewer' })).rejects.toMatchObject({
      code: 'BAD_INPUT',
      details: { field: 'userId' },
    });
    await expect(setProjectMember(admin.id, { projectId: 'nope', userId: someone.id, role: 'reviewer' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(removeProjectMember(admin.id, { projectId: b.projectId, userId: someone.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('narrows a token to one project of its user, and refuses a project the user does not reach', async () => {
    const both = await person('lead');
    await setProjectMember(admin.id, { projectId: a.projectId, userId: both.id, role: 'lead' });
    await setProjectMember(admin.id, { projectId: b.projectId, userId: both.id, role: 'reviewer' });
    const wide = await userForApiToken((await createApiToken(both.id, { name: 'wide' })).token);
    expect(visibleProjectIds(wide!.access, 'reviewer')!.sort()).toEqual([a.projectId, b.projectId].sort());
    const narrow = await userForApiToken((await createApiToken(both.id, { name: 'narrow', projectId: b.projectId })).token);
    expect(narrow!.access.narrowedTo).toBe(b.projectId);
    expect(visibleProjectIds(narrow!.access, 'reviewer')).toEqual([b.projectId]);
    expect(await codeOf(requireProjectRoleFor(narrow!, 'campaign', a.singleCampaignId, 'reviewer'))).toBe('NOT_FOUND');
    expect(await codeOf(requireProjectRoleFor(narrow!, 'campaign', b.singleCampaignId, 'reviewer'))).toBeNull();
    await expect(createApiToken(leadA.id, { name: 'elsewhere', projectId: b.projectId })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      details: { field: 'projectId' },
    });
    // admins may narrow to any project
    const adminToken = await userForApiToken((await createApiToken(admin.id, { name: 'admin narrow', projectId: a.projectId })).token);
    expect(visibleProjectIds(adminToken!.access, 'lead')).toEqual([a.projectId]);
  });

  it('backfills on upgrade: every existing lead and reviewer becomes a member of every existing project with their role', async () => {
    const dir = path.join(import.meta.dirname, '../../prisma/migrations');
    const { readdir } = await import('node:fs/promises');
    const name = (await readdir(dir)).find((d) => d.endsWith('_project_membership'))!;
    const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
    const backfill = sql.slice(sql.indexOf('INSERT INTO "project_member"'));
    await db().projectMember.deleteMany({});
    await db().$executeRawUnsafe(backfill);
    const users = await db().user.findMany({ select: { id: true, role: true } });
    const rows = await db().projectMember.findMany({ select: { projectId: true, userId: true, role: true } });
    const nonAdmins = users.filter((u) => u.role !== 'admin');
    expect(rows).toHaveLength(nonAdmins.length * 2);
    for (const u of nonAdmins)
      for (const projectId of [a.projectId, b.projectId]) expect(rows).toContainEqual({ projectId, userId: u.id, role: u.role });
    expect(rows.some((r) => r.userId === admin.id)).toBe(false);
  });
});
