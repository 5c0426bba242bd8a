import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { projectAccess } from '../auth/project-access';
import type { SessionUser } from '../auth/session-user';
import { db } from '../db/client';
import { resetDatabase } from '../db/test/reset';
import { seedLabelledProject } from '../db/test/seed-labels';
import { claimAgentItem } from '../review/claim-agent-item';
import { submitAgentReview } from '../review/submit-agent-review';
import { agreementDashboard } from './dashboard';
import { loadAgreementData } from './queries/agreement-data';
import { summarizeCampaignAgreement } from './summarize-campaign-agreement';

/** Issue 42: agreement is human-only unless asked (`includeAgents`: each agent model one rater, `agent:<model>`). */

async function lead(projectId: string): Promise<SessionUser> {
  const id = randomUUID();
  const u = await db().user.create({ data: { id, email: `${id}@x.test`, name: 'Lead', role: 'reviewer' } });
  return { ...u, expertise: [], access: projectAccess('reviewer', [{ projectId, role: 'lead' }]) };
}

/** An agent of `user` reviews every item of the campaign, with `answers` (single) or `preference` (pairwise). */
async function agentReviewsAll(user: SessionUser, campaignId: string, model: string, answersOf: (kind: string) => unknown) {
  for (;;) {
    const claim = await claimAgentItem(user, { campaignId, model });
    if (!claim) return;
    await submitAgentReview(user, { claimId: claim.claimId, model, answers: answersOf(claim.kind) });
  }
}

const labelClock = async (campaignId: string) =>
  (await db().campaignReviewerStat.aggregate({ where: { campaignId }, _sum: { labelChanges: true } }))._sum.labelChanges;

describe('agreement with agent reviewers', () => {
  beforeEach(resetDatabase);

  it('a campaign’s human alpha is unchanged by agent reviews; includeAgents adds each model as a rater', async () => {
    const seeded = await seedLabelledProject({ tasks: 3, evalTasks: 0 });
    const user = await lead(seeded.projectId);
    const human = async (campaignId: string) =>
      agreementDashboard((await loadAgreementData(campaignId))!, { parts: ['questions'] }).questions;
    const before = { single: await human(seeded.singleCampaignId), pairwise: await human(seeded.pairwiseCampaignId) };
    const clock = await labelClock(seeded.singleCampaignId);

    // agents that disagree with the humans: any that counted would move alpha
    await agentReviewsAll(user, seeded.singleCampaignId, 'contrarian', () => ({ quality: 3, verdict: 'accept' }));
    await agentReviewsAll(user, seeded.pairwiseCampaignId, 'contrarian', () => ({
      preference: 0,
      rationale: 'they look about the same to me',
      criteria: { left: {}, right: {} },
    }));
    expect(await db().agentReview.count()).toBe(6 + 3);
    expect(await human(seeded.singleCampaignId)).toEqual(before.single);
    expect(await human(seeded.pairwiseCampaignId)).toEqual(before.pairwise);
    // the campaign's label clock did not move: its stored (human) agreement snapshot stays current
    expect(await labelClock(seeded.singleCampaignId)).toBe(clock);

    const withAgents = await summarizeCampaignAgreement(user, { campaignId: seeded.singleCampaignId, includeAgents: true });
    expect(withAgents).toMatchObject({ includeAgents: true, state: 'current', campaign: { items: 6, reviewed: 6 } });
    const quality = withAgents.criteria.find((c) => c.key === 'quality')!;
    const humanQuality = before.single.find((q) => q.key === 'quality')!;
    expect(humanQuality.nRaters).toBe(2);
    expect(quality).toMatchObject({ reviewers: 3, ratings: humanQuality.nRatings + 6 });
    expect(quality.coefficient).not.toBe(humanQuality.value);
    const pairs = await summarizeCampaignAgreement(user, { campaignId: seeded.pairwiseCampaignId, includeAgents: true });
    expect(pairs.criteria.find((c) => c.kind === 'preference')).toMatchObject({ reviewers: 3 });
  });
});
