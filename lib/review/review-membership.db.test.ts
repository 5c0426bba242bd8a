import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectAccess } from '../auth/project-access';
import type { SessionUser } from '../auth/session-user';
import { userForApiToken } from '../auth/queries/api-tokens';
import { createApiToken } from '../auth/create-api-token';
import { revokeApiToken } from '../auth/revoke-api-token';
import { createUser } from '../auth/create-user';
import { createCampaign } from '../campaigns/create-campaign';
import { saveRubricVersion } from '../campaigns/save-rubric-version';
import { db } from '../db/client';
import { claimNextItem } from './claim-next-item';
import { resetDatabase } from '../db/test/reset';
import { ensureProject } from '../trajectories/queries/projects';
import { storeTrajectory } from '../ingest/store-trajectory';
import { buildTrajectory } from '../formats/build-trajectory';
import { prepareTrajectory } from '../ingest/prepare-trajectory';
import { submitReview, submitReviewBody } from './submit-review';
import { viewAssignment } from './view-assignment';
import { codeOf } from '../db/test/error-code';

/**
 * Issue 17: the claim and the submit check the caller's project membership in their own first
 * statement (no separate guard read of the campaign's project), by the one rule of
 * lib/auth/project-access.ts; API token auth is one statement that also touches lastUsedAt.
 * These are the answers the guard gave before (404 for a project the caller does not reach,
 * whatever else comes with the request), now from the hot path itself.
 */

const rubric = { title: 'r', questions: [{ id: 'quality', type: 'likert', prompt: 'quality', points: 5 }] };
const watched = { ranges: [[0, 100]] as [number, number][], speeds: [1], seeks: 0 };

async function project(slug: string) {
  const p = await ensureProject({ slug, name: slug });
  for (let i = 0; i < 3; i++) {
    const t = buildTrajectory({
      format: 'openai',
      task: { name: `${slug}-t${i}`, instruction: 'do it' },
      policy: { model: 'm' },
      steps: [{ source: 'agent', text: `run ${i}` }],
    });
    await storeTrajectory(p.id, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null });
  }
  const version = await saveRubricVersion(p.id, 'r', rubric, null);
  const campaign = await createCampaign(
    p.id,
    { name: 'c', mode: 'single', rubricVersionId: version.versionId, overlap: 2, minCoverage: 0, open: true },
    null,
  );
  return { projectId: p.id, campaignId: campaign.id };
}

async function reviewer(memberOf: string[]): Promise<SessionUser> {
  const u = await createUser({
    email: `r-${randomUUID().slice(0, 8)}@m.test`,
    name: 'r',
    role: 'reviewer',
    password: 'long enough password',
  });
  return {
    ...u,
    access: projectAccess(
      'reviewer',
      memberOf.map((projectId) => ({ projectId, role: 'reviewer' as const })),
    ),
  };
}

describe('membership in the claim and submit statements', () => {
  let a: { projectId: string; campaignId: string };
  let b: { projectId: string; campaignId: string };

  beforeAll(async () => {
    await resetDatabase();
    a = await project('a');
    b = await project('b');
  }, 120_000);

  it('claims only in a project the caller reviews in; another project answers NOT_FOUND like an absent campaign', async () => {
    const member = await reviewer([a.projectId]);
    const claim = await claimNextItem(a.campaignId, member, new Date());
    expect(claim).not.toBeNull();
    expect(await codeOf(claimNextItem(b.campaignId, member, new Date()))).toBe('NOT_FOUND');
    await expect(claimNextItem('no-such-campaign', member, new Date())).rejects.toThrow('No such campaign');
    await expect(claimNextItem(b.campaignId, member, new Date())).rejects.toThrow('No such campaign');
    // a closed campaign of another project still answers NOT_FOUND (membership before status), not 409
    await db().campaign.update({ where: { id: b.campaignId }, data: { status: 'closed' } });
    expect(await codeOf(claimNextItem(b.campaignId, member, new Date()))).toBe('NOT_FOUND');
    await db().campaign.update({ where: { id: b.campaignId }, data: { status: 'open' } });
    // a token narrowed to A reaches only A, whatever the user's other memberships
    const both = await reviewer([a.projectId, b.projectId]);
    const narrowed = { ...both, access: { ...both.access, narrowedTo: a.projectId } };
    expect(await codeOf(claimNextItem(b.campaignId, narrowed, new Date()))).toBe('NOT_FOUND');
    expect(await claimNextItem(b.campaignId, both, new Date())).not.toBeNull();
    // nothing was claimed by the refused calls
    expect(await db().assignment.count({ where: { reviewerId: member.id } })).toBe(1);
  });

  it('submits only on an own assignment in a project the caller still reviews in; ownership and membership come before the body', async () => {
    const member = await reviewer([a.projectId]);
    const claim = (await claimNextItem(a.campaignId, member, new Date()))!;
    const input = { assignmentId: claim.assignmentId, idempotencyKey: randomUUID(), answers: { quality: 4 }, coverage: watched };
    // removed from the project after claiming: the submit answers NOT_FOUND, with a good body or a bad one
    const removed = { ...member, access: projectAccess('reviewer', []) };
    expect(await codeOf(submitReview(removed, input, new Date()))).toBe('NOT_FOUND');
    expect(await codeOf(submitReviewBody(removed, claim.assignmentId, {}, new Date()))).toBe('NOT_FOUND');
    // another reviewer, member of the project, with the owner's key: NOT_FOUND too (ownership first)
    const other = await reviewer([a.projectId]);
    expect(await codeOf(submitReview(other, input, new Date()))).toBe('NOT_FOUND');
    expect(await codeOf(submitReviewBody(other, claim.assignmentId, { idempotencyKey: input.idempotencyKey }, new Date()))).toBe(
      'NOT_FOUND',
    );
    // the owner: a bad body is a 422 naming the body's field; a good one is stored, and its retry answers the same review
    await expect(submitReviewBody(member, claim.assignmentId, { answers: { quality: 4 } }, new Date())).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: expect.stringMatching(/^body idempotencyKey: /),
    });
    const { assignmentId: _id, ...body } = input;
    const made = await submitReviewBody(member, claim.assignmentId, body, new Date());
    expect(made).toMatchObject({ revision: 1, duplicate: false });
    expect(await submitReview(member, input, new Date())).toEqual({ ...made, duplicate: true });
    expect(await db().review.count({ where: { assignmentId: claim.assignmentId } })).toBe(1);
    // the same key sent for another assignment of the caller is a conflict, not a second label
    const second = (await claimNextItem(a.campaignId, member, new Date()))!;
    expect(await codeOf(submitReview(member, { ...input, assignmentId: second.assignmentId }, new Date()))).toBe('CONFLICT');
  });
});

describe('the blind view checks membership on its own statement', () => {
  it('answers the owner in a project they review in; NOT_FOUND once they left it, to anyone else, and for an unknown id', async () => {
    await resetDatabase();
    const a = await project('view-a');
    const member = await reviewer([a.projectId]);
    const claim = (await claimNextItem(a.campaignId, member, new Date()))!;
    expect((await viewAssignment(claim.assignmentId, member.id, { access: member.access })).assignment.id).toBe(claim.assignmentId);
    expect(await codeOf(viewAssignment(claim.assignmentId, member.id, { access: projectAccess('reviewer', []) }))).toBe('NOT_FOUND');
    const narrowedAway = { ...member.access, narrowedTo: 'another-project' };
    expect(await codeOf(viewAssignment(claim.assignmentId, member.id, { access: narrowedAway }))).toBe('NOT_FOUND');
    const other = await reviewer([a.projectId]);
    expect(await codeOf(viewAssignment(claim.assignmentId, other.id, { access: other.access }))).toBe('NOT_FOUND');
    expect(await codeOf(viewAssignment('no-such-assignment', member.id, { access: member.access }))).toBe('NOT_FOUND');
  }, 60_000);
});

describe('API token auth in one statement', () => {
  beforeAll(async () => {
    await resetDatabase();
  }, 120_000);

  it('touches lastUsedAt at most once a minute, never for a revoked token, and a revocation holds from the next request', async () => {
    const u = await createUser({ email: 'tok@m.test', name: 't', role: 'reviewer', password: 'long enough password' });
    const { id, token } = await createApiToken(u.id, { name: 'bench' });
    const lastUsed = async () => (await db().apiToken.findUniqueOrThrow({ where: { id }, select: { lastUsedAt: true } })).lastUsedAt;
    expect(await lastUsed()).toBeNull();
    const t0 = new Date('2026-12-01T10:00:00.000Z');
    expect((await userForApiToken(token, t0))?.id).toBe(u.id);
    expect(await lastUsed()).toEqual(t0);
    // within the minute: not written again
    expect((await userForApiToken(token, new Date(t0.getTime() + 59_000)))?.id).toBe(u.id);
    expect(await lastUsed()).toEqual(t0);
    const t1 = new Date(t0.getTime() + 61_000);
    await userForApiToken(token, t1);
    expect(await lastUsed()).toEqual(t1);
    await revokeApiToken(u.id, id, new Date(t1.getTime() + 1000));
    const later = new Date(t1.getTime() + 120_000);
    expect(await userForApiToken(token, later)).toBeNull();
    expect(await lastUsed()).toEqual(t1);
    // expired and disabled: refused, not touched
    const expiring = await createApiToken(u.id, { name: 'short', expiresInDays: 1 }, t0);
    expect(await userForApiToken(expiring.token, new Date(t0.getTime() + 2 * 86_400_000))).toBeNull();
    expect((await db().apiToken.findUniqueOrThrow({ where: { id: expiring.id }, select: { lastUsedAt: true } })).lastUsedAt).toBeNull();
    const fresh = await createApiToken(u.id, { name: 'fresh' });
    await db().user.update({ where: { id: u.id }, data: { disabledAt: new Date() } });
    expect(await userForApiToken(fresh.token)).toBeNull();
    expect((await db().apiToken.findUniqueOrThrow({ where: { id: fresh.id }, select: { lastUsedAt: true } })).lastUsedAt).toBeNull();
  });
});
