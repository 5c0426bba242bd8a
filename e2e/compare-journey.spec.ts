import { expect, test } from '@playwright/test';
import { assignmentSwapped, seedCampaign, storedComparisons } from './fixtures/campaigns';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';

test('a reviewer compares two runs side by side and submits a preference with rationale and criteria', async ({ page }) => {
  const campaign = await seedCampaign({ mode: 'pairwise', minCoverage: 0.2 });
  const reviewer = await seedUser('reviewer');
  await signIn(page, reviewer);
  const queue = page.getByTestId('queue').filter({ hasText: campaign.name });
  await expect(queue.getByTestId('queue-progress')).toContainText('0 reviewed today / 1 in queue');
  await queue.getByRole('button', { name: 'Next item' }).click();
  await expect(page).toHaveURL(/\/review\/compare\/[^/]+$/);
  const id = page.url().split('/').pop()!;
  const html = await page.content();
  for (const p of campaign.policies) expect(html).not.toContain(p);
  // one large player shows the left run or the right (v switches); the other keeps its place off screen
  await expect(page.getByTestId('side-left').getByTestId('trajectory-player')).toBeVisible();
  await expect(page.getByTestId('side-right').getByTestId('trajectory-player')).toBeHidden();
  await expect(page.getByRole('button', { name: /^Watch .* to submit$/ })).toBeDisabled();

  // one control bar drives both players; only the run on screen is watched
  for (let i = 0; i < 4; i++) await page.keyboard.press('=');
  await expect(page.getByLabel('Speed of both')).toHaveValue('4');
  await page.keyboard.press('k');
  // the left run watched enough: only the right is missing now
  await expect(page.getByRole('button', { name: /^Watch \d+% more of the right to submit$/ })).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press('k');
  await expect(page.getByTestId('coverage-left')).toHaveText(/watched [1-9]/);
  await expect(page.getByTestId('coverage-right')).toHaveText(/watched 0%/);
  await page.keyboard.press('v');
  await expect(page.getByTestId('side-right').getByTestId('trajectory-player')).toBeVisible();
  await page.getByLabel('Seek both videos').fill('0');
  await page.keyboard.press('k');
  await expect(page.getByRole('button', { name: 'Submit (Ctrl+Enter)' })).toBeEnabled({ timeout: 20_000 });
  await page.keyboard.press('k');
  await expect(page.getByTestId('coverage-right')).toHaveText(/watched [1-9]/);
  await page.keyboard.press('v');
  await expect(page.getByTestId('side-left').getByTestId('trajectory-player')).toBeVisible();

  // seeking by time moves both
  await page.getByLabel('Seek both videos').fill('2');
  await expect(page.getByTestId('side-left').getByTestId('player-time')).toContainText('0:02');
  await expect(page.getByTestId('side-right').getByTestId('player-time')).toContainText('0:02');

  // preference 2 = left better; per-criterion verdicts by keyboard; a note on the left
  await page.keyboard.press('2');
  await page.keyboard.press('p');
  await page.keyboard.press('f');
  await page.keyboard.press('p');
  await page.keyboard.press('p');
  await page.keyboard.press('n');
  await page.getByRole('textbox', { name: 'Evidence note' }).fill('Left reruns the tests before finishing');
  await page.keyboard.press('Enter');
  await page.getByRole('textbox', { name: /Rationale/ }).fill('Left verified its fix by rerunning the tests; right did not.');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('radio', { name: /Left better/ })).toHaveAttribute('aria-checked', 'true');
  await screenshot(page, 'compare-page');

  await page.keyboard.press('Control+Enter');
  await expect(page).toHaveURL(/\/review\?done=/);
  await expect(page.getByRole('status').filter({ hasText: 'Nothing left for you in' })).toBeVisible();

  // stored un-randomised: A/B whatever side A was shown on
  const swapped = await assignmentSwapped(id);
  const rows = await storedComparisons(id);
  expect(rows).toHaveLength(1);
  expect(rows[0]!.preference).toBe(swapped ? 1 : -1);
  const criteria = rows[0]!.criteria as { a: Record<string, string>; b: Record<string, string>; evidence: { side: string }[] };
  const left = { tests_pass: 'pass', no_deletion: 'pass' };
  const right = { tests_pass: 'fail', no_deletion: 'pass' };
  expect(criteria.a).toEqual(swapped ? right : left);
  expect(criteria.b).toEqual(swapped ? left : right);
  expect(criteria.evidence[0]!.side).toBe(swapped ? 'b' : 'a');
});
