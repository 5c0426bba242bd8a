import { expect, test } from '@playwright/test';
import { seedCampaignRuns } from './fixtures/lead-campaigns';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';
import { uniqueName } from './fixtures/trajectories';

/** Issue 42: an agent reviewer's review shows on the lead's campaign page as an agent's, and moves no human progress. */
test('the campaign page lists agent reviews apart, badged "agent", with what the agent read', async ({ page }) => {
  const lead = await seedUser('lead');
  const project = uniqueName('agents');
  await seedCampaignRuns(project);
  const { ensureProject } = await import('../lib/trajectories/queries/projects');
  const { campaignOnRubric } = await import('../lib/db/test/test-campaign');
  const { projectAccess } = await import('../lib/auth/project-access');
  const { claimAgentItem } = await import('../lib/review/claim-agent-item');
  const { recordAgentReading } = await import('../lib/review/record-agent-reading');
  const { submitAgentReview } = await import('../lib/review/submit-agent-review');
  const { id: projectId } = await ensureProject({ slug: project, name: project });
  const rubric = {
    title: 'Agent check',
    questions: [
      { id: 'criteria', type: 'criteria', prompt: 'Criteria' },
      { id: 'overall', type: 'likert', prompt: 'Overall', points: 5 },
    ],
  };
  const campaign = await campaignOnRubric(projectId, rubric, { mode: 'single', overlap: 1, name: uniqueName('Agent campaign') });
  // an agent of the lead (through lib, the code the MCP tools run) reads two steps, fetches a still and submits
  const agent = {
    id: lead.id,
    email: lead.email,
    name: lead.name,
    role: lead.role,
    expertise: [],
    access: projectAccess('lead', [{ projectId, role: 'lead' as const }]),
  };
  const claim = (await claimAgentItem(agent, { campaignId: campaign.id, model: 'claude-e2e' }))!;
  await recordAgentReading(agent, { claimId: claim.claimId, trajectoryId: claim.trajectoryIds[0]!, steps: [0, 1], still: { step: 1 } });
  await submitAgentReview(agent, {
    claimId: claim.claimId,
    model: 'claude-e2e',
    answers: { criteria: { tests_pass: 'pass', no_test_edits: 'pass' }, overall: 4 },
  });

  await signIn(page, lead);
  await page.goto(`/lead/campaigns/${campaign.id}`);
  await expect(page.getByRole('heading', { name: 'Agent reviews (not counted as human)' })).toBeVisible();
  const row = page.getByTestId('agent-review-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByText('agent', { exact: true })).toBeVisible();
  await expect(row).toContainText('claude-e2e');
  await expect(row.getByRole('cell').nth(4)).toHaveText('2'); // steps read
  await expect(row.getByRole('cell').nth(5)).toHaveText('1'); // stills fetched
  // no human progress: no reviewer, no review toward k
  await expect(page.getByText('Nobody has claimed an item yet.')).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Reviews done of items × k' })).toHaveAttribute('aria-valuenow', '0');
  await screenshot(page, 'campaign-agent-reviews');
});
