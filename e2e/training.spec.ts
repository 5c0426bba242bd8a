import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';
import { uniqueName } from './fixtures/trajectories';

/**
 * Issue 41's studio pages: a lead starts a run with "Train on these labels" on a campaign page,
 * watches it on its run page (the agent's log lines and metric points arrive while the page is
 * open), sees it in the runs list, and reads the hill climb: the lineage, the labels behind the
 * checkpoint (campaigns, reviewers, reviewer-hours, stale), the eval pass rate with its interval
 * and the curves; the review and dataset pages link back to the run. The agent's side is written
 * through lib/ here (the trainer agent's own tests drive the API).
 */
test('a lead trains on a campaign’s labels, watches the run, and reads the hill climb', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { seedLabelledProject } = await import('../lib/db/test/seed-labels');
  const { db } = await import('../lib/db/client');
  const seeded = await seedLabelledProject({ slug: uniqueName('training'), tasks: 3, evalTasks: 1 });
  const base = await db().policy.findFirstOrThrow({ where: { projectId: seeded.projectId, name: { contains: 'good' } } });
  const lead = await seedUser('lead');
  await signIn(page, lead);

  // the nav's Training entry; no runs yet
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Training' }).click();
  await expect(page).toHaveURL(/\/training$/);
  await expect(page.getByRole('heading', { name: 'Training', level: 1 })).toBeVisible();

  // "Train on these labels" on the pairwise campaign: an unknown routing label is refused inline, then the run starts
  await page.goto(`/lead/campaigns/${seeded.pairwiseCampaignId}`);
  const train = page.getByTestId('train-on-labels');
  await train.locator('summary').click();
  const form = page.getByRole('form', { name: 'Train on these labels' });
  await form.getByLabel('Recipe').selectOption('trl-dpo');
  await form.getByLabel('Base policy').selectOption(base.name);
  await form.getByLabel('Agent labels (k=v, comma-separated)').fill('gpu');
  await form.getByRole('button', { name: 'Train on these labels' }).click();
  await expect(form.getByRole('alert')).toContainText('agent labels are k=v pairs');
  await form.getByLabel('Agent labels (k=v, comma-separated)').fill('gpu=cpu');
  await form.getByLabel('Base model URI (optional)').fill('/models/tiny');
  await form.getByRole('button', { name: 'Train on these labels' }).click();
  await expect(page).toHaveURL(/\/training\/runs\/[^/]+$/, { timeout: 60_000 });
  const runId = page.url().split('/').pop()!;
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'queued');
  await expect(page.getByTestId('label-set')).toContainText('Rows3');
  await expect(page.getByTestId('label-campaigns')).toContainText('Pairs');
  await expect(page.getByText('gpu=cpu')).toBeVisible();
  // what was chosen before the refusal is still what started
  await expect(page.getByText(`on ${base.name}`, { exact: true })).toBeVisible();

  // the agent claims it and streams its first lines and points
  const losses = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => [
      { runId, name: 'loss', step: from + i, value: 0.7 * Math.exp(-(from + i) / 400) + 0.05 },
      { runId, name: 'rewards/accuracies', step: from + i, value: Math.min(1, 0.5 + (from + i) / 2000) },
    ]).flat();
  await db().trainingRun.update({
    where: { id: runId },
    data: {
      status: 'running',
      attempts: 1,
      agentName: 'gpu-box-1',
      startedAt: new Date(),
      leaseToken: randomUUID(),
      leaseExpiresAt: new Date(Date.now() + 600_000),
      logTail: 'loading /models/tiny\nstep 0 loss 0.75',
    },
  });
  await db().trainingRunMetric.createMany({ data: losses(0, 600) });
  await page.reload();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'running');
  await expect(page.getByTestId('run-live')).toBeVisible();
  await expect(page.getByTestId('metric-chart')).toHaveCount(2);
  await expect(page.locator('[data-metric="loss"]')).toContainText('200 pts · last 0.207');
  // more arrives while the page is open: it refreshes itself (every 2 s)
  await db().trainingRunMetric.createMany({ data: losses(600, 1000) });
  await db().trainingRun.update({ where: { id: runId }, data: { logTail: 'loading /models/tiny\nstep 0 loss 0.75\nstep 999 loss 0.06' } });
  await expect(page.getByTestId('log-tail')).toContainText('step 999 loss 0.06', { timeout: 15_000 });
  await expect(page.locator('[data-metric="loss"]')).toContainText('last 0.108', { timeout: 15_000 });
  await page.waitForTimeout(500);
  await screenshot(page, 'training-run-running');

  // the checkpoint is registered, the run succeeds, its eval trajectories land; a review it trained on is revised since
  const checkpoint = await db().policy.create({
    data: {
      projectId: seeded.projectId,
      name: `${base.name}+${runId.slice(0, 8)}`,
      parentId: base.id,
      trainingRunId: runId,
      checkpoint: `/out/${runId}`,
    },
  });
  await db().trainingRun.update({
    where: { id: runId },
    data: {
      status: 'succeeded',
      checkpointName: checkpoint.name,
      checkpointUri: `/out/${runId}`,
      finishedAt: new Date(),
      leaseToken: null,
    },
  });
  const evalTask = await db().task.findFirstOrThrow({ where: { projectId: seeded.projectId, split: 'eval' } });
  const evalRuns = (policyId: string, passes: number, of: number) =>
    Array.from({ length: of }, (_, i) => ({
      projectId: seeded.projectId,
      taskId: evalTask.id,
      policyId,
      sourceFormat: 'openai',
      contentHash: randomUUID(),
      stepCount: 1,
      verifierReward: i < passes ? 1 : 0,
    }));
  await db().trajectory.createMany({ data: [...evalRuns(checkpoint.id, 15, 20), ...evalRuns(base.id, 8, 20)] });
  const trained = await db().trainingRunLabel.findFirstOrThrow({ where: { runId }, orderBy: { reviewId: 'asc' } });
  const revised = await db().pairwiseComparison.update({ where: { id: trained.reviewId }, data: { isCurrent: false } });

  await page.reload();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
  await expect(page.getByTestId('run-live')).toHaveCount(0);
  await expect(page.getByTestId('run-checkpoint')).toContainText(checkpoint.name);
  await expect(page.getByTestId('stale-count')).toContainText('1 revised since');
  await expect(page.getByTestId('stale-reviews').getByRole('link')).toHaveAttribute(
    'href',
    `/lead/campaigns/${seeded.pairwiseCampaignId}/adjudication/${revised.campaignItemId}`,
  );
  await page.waitForTimeout(500);
  await screenshot(page, 'training-run-succeeded');

  // the runs list, then the hill climb
  await page.goto(`/training?project=${seeded.slug}`);
  const row = page.locator(`[data-run="${runId}"]`);
  await expect(row).toContainText('trl-dpo');
  await expect(row).toContainText(checkpoint.name);
  await expect(row).toContainText('1/3');
  await expect(row.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
  await screenshot(page, 'training-runs');
  await page.getByRole('link', { name: 'Hill climb' }).click();
  await expect(page).toHaveURL(new RegExp(`/training/hill-climb\\?project=${seeded.slug}`));
  const lineage = page.getByTestId('lineage-row');
  await expect(lineage).toHaveCount(2);
  await expect(lineage.nth(0)).toHaveAttribute('data-checkpoint', base.name);
  const ck = page.locator(`[data-checkpoint="${checkpoint.name}"]`);
  await expect(ck).toContainText('Pairs');
  await expect(ck.getByTestId('stale')).toHaveText('(1 stale)');
  // 15 of 20 pass: 75% with its Wilson interval [53%, 89%]; the base 8 of 20
  await expect(ck.getByTestId('pass-rate')).toHaveText('75% [53%, 89%] n=20');
  await expect(lineage.nth(0).getByTestId('pass-rate')).toHaveText('40% [22%, 61%] n=20');
  await expect(ck.getByTestId('human-win')).toContainText('n=0');
  await expect(page.getByTestId('hill-climb-chart').locator('.recharts-line')).toHaveCount(1);
  await expect(page.getByTestId('hill-climb-curves').getByTestId('metric-chart')).toHaveCount(2);
  await page.waitForTimeout(500);
  await screenshot(page, 'training-hill-climb');
  await page.getByRole('link', { name: 'human win rate' }).click();
  await expect(page.getByText('No canary comparison yet')).toBeVisible();

  // lineage from the review and the dataset: the revised item lists the run, stale; the frozen export names it
  await page.goto(`/lead/campaigns/${seeded.pairwiseCampaignId}/adjudication/${revised.campaignItemId}`);
  await expect(page.getByTestId('trained-on-run')).toContainText(checkpoint.name);
  await expect(page.getByTestId('stale-on-run')).toHaveText('1 stale');
  await page.goto(`/lead/datasets?project=${seeded.slug}`);
  await expect(page.getByTestId('export-runs').getByRole('link', { name: checkpoint.name })).toHaveAttribute(
    'href',
    `/training/runs/${runId}`,
  );

  // a project-wide run from the datasets page, cancelled while queued
  await page.getByTestId('train-on-labels').locator('summary').click();
  const wide = page.getByRole('form', { name: 'Train on these labels' });
  await wide.getByLabel('Base policy').selectOption(base.name);
  await wide.getByRole('button', { name: 'Train on these labels' }).click();
  await expect(page).toHaveURL(/\/training\/runs\/[^/]+$/, { timeout: 60_000 });
  expect(page.url()).not.toContain(runId);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'queued');
  await page.getByRole('button', { name: 'Cancel run' }).click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'cancelled');
});
