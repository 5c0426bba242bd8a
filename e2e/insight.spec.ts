import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { seedInsight } from './fixtures/insight';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';
import { apiTokenFor, uniqueName } from './fixtures/trajectories';

async function downloadCsv(page: Page): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('csv-link').first().click()]);
  return readFile((await download.path())!, 'utf8');
}

test('a lead ranks environments, reads the leaderboard and compares two checkpoints, with CSV and API', async ({ page, request }) => {
  test.setTimeout(180_000);
  const lead = await seedUser('lead');
  const reviewers: [Awaited<ReturnType<typeof seedUser>>, Awaited<ReturnType<typeof seedUser>>] = [
    await seedUser('reviewer'),
    await seedUser('reviewer'),
  ];
  const project = uniqueName('insight');
  await seedInsight(project, reviewers);

  await signIn(page, lead);
  await page.getByRole('navigation').getByRole('link', { name: 'Insight' }).click();
  await expect(page).toHaveURL(/\/insight\/environments/);

  // environments: ranked, with reasons, CIs and flagged moments
  await page.goto(`/insight/environments?project=${project}`);
  const rows = page.getByTestId('environment-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('clean-env');
  await expect(rows.nth(0)).toContainText('58% [32%–81%] n=12');
  await expect(rows.nth(1)).toContainText('hacky-env');
  await expect(rows.nth(1)).toContainText('high reward-hacking flag rate: 50% [22%, 78%], n=8');
  await expect(rows.nth(1)).toContainText('too easy: 2 of 2 tasks always solved');
  const moment = page.getByTestId('flagged-moments').getByRole('link').first();
  await expect(moment).toContainText('frame 30 · step 2'); // step index 1, counted from 1 as the video counts
  await expect(moment).toHaveAttribute('href', /^\/trajectories\/[^/]+#step-1$/);
  await expect(page.getByTestId('pass-rate-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
  // every bar carries its 95% interval
  await expect(page.getByTestId('pass-rate-chart').locator('.recharts-errorBar').first()).toBeVisible();
  await screenshot(page, 'insight-environments');
  const envCsv = await downloadCsv(page);
  expect(envCsv.split('\r\n')[0]).toMatch(/^rank,environment,tasks,trajectories,verifierPassRate,verifierPassLow/);
  expect(envCsv).toMatch(/\r\n1,clean-env,3,12,0\.5833,/);
  expect(envCsv).toContain('blocker: high reward-hacking flag rate');

  // the flagged moment opens the trajectory's video at that frame, and its transcript at that step
  await moment.click();
  await expect(page).toHaveURL(/\/trajectories\/.+\?frame=30#step-1$/);
  await expect(page.getByTestId('player-time')).toContainText('frame 30');

  // policies: Bradley-Terry leaderboard, rubric scores, trend across checkpoints
  await page.goto(`/insight/policies?project=${project}`);
  const policyRows = page.getByTestId('policy-row');
  await expect(policyRows).toHaveCount(2);
  await expect(policyRows.nth(0)).toContainText('acme-coder-7b@ckpt-2000');
  await expect(policyRows.nth(0)).toContainText('n=20');
  await expect(page.getByTestId('trend')).toHaveCount(1);
  await expect(page.getByTestId('trend').locator('.recharts-line').first()).toBeVisible();
  await screenshot(page, 'insight-policies');
  await page.getByRole('link', { name: 'clean-env' }).click();
  await expect(page).toHaveURL(/env=clean-env/);
  await expect(page.getByText('from 12 pairwise comparisons')).toBeVisible();
  const policyCsv = await downloadCsv(page);
  expect(policyCsv.split('\r\n')[0]).toBe(
    'rank,policy,btRating,btLow,btHigh,comparisons,rubricScore,rubricLow,rubricHigh,rubricN,verifierPassRate,verifierPassLow,verifierPassHigh,verifierPassN,reviewerPassRate,reviewerPassLow,reviewerPassHigh,reviewerPassN,verifierLow,verifierHigh,verifierN,reviewerLow,reviewerHigh,reviewerN',
  );

  // compare: defaults to the last two checkpoints
  await page.goto(`/insight/compare?project=${project}`);
  await expect(page.getByTestId('win-rate')).toContainText('55%');
  await expect(page.getByTestId('win-rate')).toContainText('n=20 comparisons: B won 10, A won 8, 2 ties');
  await expect(page.getByTestId('verdict')).toContainText('Not distinguishable from noise yet');
  await expect(page.getByTestId('verdict')).toContainText('about 763 more comparisons');
  await expect(page.getByTestId('compare-row').filter({ hasText: 'no_test_edits' })).toContainText('A better, beyond noise');
  await screenshot(page, 'insight-compare');
  const compareCsv = await downloadCsv(page);
  expect(compareCsv).toContain('Win rate of acme-coder-7b@ckpt-2000 over acme-coder-7b@ckpt-1000 (ties half)');

  // the same tables over the API with a token; reviewers may not
  const token = await apiTokenFor(lead.id);
  const auth = { authorization: `Bearer ${token}` };
  const envs = await request.get(`/api/v1/insight/environments?project=${project}`, { headers: auth });
  expect(envs.status()).toBe(200);
  const envBody = (await envs.json()) as { environments: { environment: string; rewardHackingRate: number; flagN: number }[] };
  expect(envBody.environments.map((e) => e.environment)).toEqual(['clean-env', 'hacky-env']);
  expect(envBody.environments[1]).toMatchObject({ rewardHackingRate: 0.5, flagN: 8 });
  const cmp = await request.get(`/api/v1/insight/compare?project=${project}&a=acme-coder-7b@ckpt-1000&b=acme-coder-7b@ckpt-2000`, {
    headers: auth,
  });
  const cmpBody = (await cmp.json()) as { rows: { measure: string; b: number; bN: number; more: number }[] };
  expect(cmpBody.rows[0]).toMatchObject({ b: 0.55, bN: 20, more: 763 });
  const pol = await request.get(`/api/v1/insight/policies?project=${project}&env=nope`, { headers: auth });
  expect(pol.status()).toBe(404);
  expect(((await pol.json()) as { error: { message: string } }).error.message).toContain('No environment named nope');
  const reviewerToken = await apiTokenFor(reviewers[0].id);
  expect(
    (
      await request.get(`/api/v1/insight/environments?project=${project}`, { headers: { authorization: `Bearer ${reviewerToken}` } })
    ).status(),
  ).toBe(403);
});
