import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';
import { uniqueName } from './fixtures/trajectories';

const fixtures = path.resolve('lib/formats/fixtures');

test('a lead drops a folder of runs (a Harbor trial and loose files) and files on the Import page, re-drops them, and opens what came in (issue 44)', async ({
  page,
}) => {
  // a real folder on disk: a Harbor trial folder (one input, it must travel whole) beside loose runs
  const root = await mkdtemp(path.join(tmpdir(), 'witness-e2e-import-'));
  const runs = path.join(root, 'runs');
  await cp(path.join(fixtures, 'harbor', 'trial-basic'), path.join(runs, 'trial-basic'), { recursive: true });
  await cp(path.join(fixtures, 'atif', 'basic.json'), path.join(runs, 'atif-basic.json'));
  await cp(path.join(fixtures, 'tau2', 'simulation.json'), path.join(runs, 'loose', 'simulation.json'));
  // an OpenAI conversation; an ATIF run the server refuses (a tool call's arguments a string); an empty file the page refuses
  const loose = ['openai/weather-conversation.json', 'atif/bad-arguments.json', 'atif/empty.json'].map((f) => path.join(fixtures, f));

  const lead = await seedUser('lead');
  const project = uniqueName('e2e-import-page');
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, lead);
  await page.goto('/trajectories');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import' }).click();
  await expect(page).toHaveURL(/\/import$/);
  await expect(page.getByRole('heading', { name: 'Import', exact: true })).toBeVisible();
  await page.getByLabel('Project').fill(project);

  const rows = page.getByTestId('import-row');
  const row = (label: string) => rows.filter({ hasText: label });
  // first drop: the folder travels as one zip; the server keeps the trial whole (3 trajectories: the trial, the ATIF run, the tau2 simulation)
  await page.getByTestId('folder-input').setInputFiles(runs);
  await expect(rows).toHaveCount(1);
  await expect(row('runs/')).toContainText('(9 files)');
  await expect(page.getByRole('heading', { name: 'Import finished' })).toBeVisible({ timeout: 30_000 });
  await expect(row('runs/')).toHaveAttribute('data-outcome', 'imported');
  await expect(row('runs/').getByTestId('import-outcome')).toHaveText('imported 3');
  await expect(row('runs/').getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByTestId('import-summary')).toHaveText('3 imported · 0 skipped as unchanged · 0 failed');

  // loose files: zipped together in one batch (one request), one row each with its own result: a file no importer reads
  // failed with where and what (the batch's report mapped back to the file), the empty one refused before sending
  await page.getByTestId('file-input').setInputFiles(loose);
  await expect(rows).toHaveCount(3);
  await expect(page.getByRole('heading', { name: 'Import finished' })).toBeVisible({ timeout: 30_000 });
  await expect(row('weather-conversation.json').getByTestId('import-outcome')).toHaveText('imported 1');
  await expect(row('bad-arguments.json')).toHaveAttribute('data-outcome', 'failed');
  await expect(row('bad-arguments.json').getByTestId('import-errors')).toHaveText(
    'bad-arguments.json /steps/3/tool_calls/0/arguments: expected object, received string',
  );
  await expect(row('empty.json')).toHaveAttribute('data-outcome', 'failed');
  await expect(row('empty.json')).toContainText('empty file: nothing to import');
  await expect(page.getByTestId('import-summary')).toHaveText('1 imported · 0 skipped as unchanged · 2 failed');
  await screenshot(page, 'import-page-first-drop');

  // the same files again: nothing created, each said to be skipped as unchanged
  await page.getByTestId('file-input').setInputFiles(loose);
  await expect(row('weather-conversation.json')).toHaveAttribute('data-outcome', 'skipped');
  await expect(row('weather-conversation.json').getByTestId('import-outcome')).toHaveText('skipped 1 as unchanged');
  await expect(row('bad-arguments.json')).toHaveAttribute('data-outcome', 'failed');
  await page.getByTestId('folder-input').setInputFiles(runs);
  await expect(row('runs/')).toHaveAttribute('data-outcome', 'skipped');
  await expect(row('runs/').getByTestId('import-outcome')).toHaveText('skipped 3 as unchanged');
  await expect(page.getByTestId('import-summary')).toHaveText('0 imported · 3 skipped as unchanged · 0 failed');
  await expect(page.getByTestId('import-next')).toContainText('Nothing new: every file was imported before.');
  await screenshot(page, 'import-page');

  // on to the trajectories of the project: the three of the folder, and the OpenAI conversation
  await page.getByRole('link', { name: 'Open the 3 trajectories' }).click();
  await expect(page).toHaveURL(new RegExp(`/trajectories\\?project=${project}$`));
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(1 + 4);

  // and "make a campaign from these" starts the new-campaign form on the project
  await page.goto('/import');
  await page.getByLabel('Project').fill(project);
  await page.getByTestId('folder-input').setInputFiles(runs);
  await page.getByRole('link', { name: 'Make a campaign from these' }).click();
  await expect(page).toHaveURL(new RegExp(`/lead/campaigns/new\\?project=${project}$`));
  await expect(page.getByRole('combobox', { name: 'Project' })).toHaveValue(project);
});
