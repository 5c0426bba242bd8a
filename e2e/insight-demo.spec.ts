import { expect, test } from '@playwright/test';
import { seedDemoCampaignsInto } from './fixtures/lead-campaigns';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';
import { uniqueName } from './fixtures/trajectories';

/** What a newcomer sees on the insight pages after `npm start`: the demo checkpoint sweep and its reviews. */
test('the demo data gives a ranked environment table and a checkpoint comparison, every figure with its interval and n', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const project = uniqueName('demo-insight');
  await seedDemoCampaignsInto(project);
  const lead = await seedUser('lead');
  await signIn(page, lead);

  await page.goto(`/insight/environments?project=${project}`);
  const rows = page.getByTestId('environment-row');
  await expect(rows).toHaveCount(2);
  for (const env of ['terminal-bench', 'physics-derivations']) await expect(rows.filter({ hasText: env })).toHaveCount(1);
  // a rate with its 95% interval and sample size, in each ranked row
  for (let i = 0; i < 2; i++) await expect(rows.nth(i)).toContainText(/\d+% \[\d+%–\d+%\] n=\d+/);
  await screenshot(page, 'insight-demo-environments');

  await page.goto(`/insight/policies?project=${project}`);
  await expect(page.getByTestId('policy-row')).toHaveCount(3);
  await screenshot(page, 'insight-demo-policies');

  const a = encodeURIComponent('acme-coder-7b@ckpt-1000');
  const b = encodeURIComponent('acme-coder-7b@ckpt-2000');
  await page.goto(`/insight/compare?project=${project}&a=${a}&b=${b}`);
  const win = page.getByTestId('win-rate');
  await expect(win).toContainText(/n=\d+ comparisons/);
  await expect(win).toContainText(/\[\d+%/);
  await expect(page.getByTestId('verdict')).toBeVisible();
  await expect(page.getByTestId('compare-row').first()).toBeVisible();
  await screenshot(page, 'insight-demo-compare');
});
