import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';
import { uniqueName } from './fixtures/trajectories';

test('a lead builds a DPO dataset from a pairwise campaign, watches it finish, downloads it; the eval guard refuses a mixed export', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const { seedLabelledProject } = await import('../lib/db/test/seed-labels');
  const seeded = await seedLabelledProject({ slug: uniqueName('datasets'), tasks: 3, evalTasks: 1 });
  const lead = await seedUser('lead');
  await signIn(page, lead);

  await page.getByRole('navigation').getByRole('link', { name: 'Datasets' }).click();
  await expect(page).toHaveURL(/\/lead\/datasets/);
  await page.goto(`/lead/datasets?project=${seeded.slug}`);
  await expect(page.getByRole('heading', { name: 'Datasets', level: 1 })).toBeVisible();

  // the guard, from the UI: "everything" would include the eval task
  await page.getByLabel('Format').selectOption('trl-dpo');
  await page.getByLabel('Split').selectOption('');
  await page.getByRole('button', { name: 'Build dataset' }).click();
  await expect(page.getByRole('form', { name: 'New dataset export' }).getByRole('alert')).toContainText(
    /Refused: \d+ items? belongs? to eval-split tasks.*held-out-0/,
  );
  // the refusal says how many and links them: the project's eval-split trajectories, no ids in the message
  await expect(
    page.getByRole('form', { name: 'New dataset export' }).getByRole('alert').getByRole('link', { name: 'the eval-split trajectories' }),
  ).toHaveAttribute('href', /\/trajectories\?project=.*&split=eval/);
  await screenshot(page, 'datasets-guard-refused');
  await expect(page.getByTestId('export-row')).toHaveCount(0);

  // a training export of the pairwise campaign
  // the export form's own fields (the page also has "Train on these labels", with selects of its own)
  const exportForm = page.getByRole('form', { name: 'New dataset export' });
  await exportForm.getByLabel('Campaign').selectOption({ label: 'Pairs (pairwise)' });
  await exportForm.getByLabel('Split').selectOption('train');
  await page.getByRole('button', { name: 'Build dataset' }).click();
  const row = page.getByTestId('export-row').first();
  await expect(row).toBeVisible();
  await expect(row).toHaveAttribute('data-status', 'done', { timeout: 90_000 });
  await expect(row).toContainText('trl-dpo');
  await expect(row.locator('td').nth(3)).toHaveText('3');
  await screenshot(page, 'datasets-export-done');

  const downloadPromise = page.waitForEvent('download');
  await row.getByRole('link', { name: 'Download JSONL' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^witness-trl-dpo-[0-9a-f]{12}\.jsonl$/);
  const lines = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(lines).toHaveLength(3);
  for (const l of lines) {
    expect(Object.keys(l)).toEqual(['prompt', 'chosen', 'rejected', 'tools', 'witness']);
    expect(l.witness).toMatchObject({ campaign_id: seeded.pairwiseCampaignId, split: 'train', purpose: 'training' });
    expect(l.chosen.at(-1).content).toMatch(/^Fixed task-\d properly\.$/);
  }

  const card = await page.request.get(
    await row
      .getByRole('link', { name: 'Card' })
      .getAttribute('href')
      .then((h) => h!),
  );
  expect(card.status()).toBe(200);
  expect(await card.text()).toContain('# Training dataset: trl-dpo');

  // downloads need a lead's sign-in
  const href = (await row.getByRole('link', { name: 'Download JSONL' }).getAttribute('href'))!;
  expect((await request.get(href, { headers: { cookie: '' } })).status()).toBe(401);
});
