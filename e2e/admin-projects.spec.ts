import { expect, test } from '@playwright/test';
import { ensureProject, projectSettings } from '../lib/trajectories/queries/projects';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';
import { uniqueName } from './fixtures/trajectories';

test('an admin switches a project from rendering after import to not, and it sticks', async ({ page }) => {
  const admin = await seedUser('admin');
  const slug = uniqueName('auto-render').toLowerCase();
  const project = await ensureProject({ slug, name: `Project ${slug}` });
  await signIn(page, admin);
  await page.goto('/admin');
  const row = page.getByTestId(`project-${slug}`);
  const toggle = row.getByRole('switch', { name: 'Render videos after import' });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(row.getByText('Off')).toBeVisible();
  await expect.poll(async () => (await projectSettings(project.id)).autoRender).toBe(false);
  await screenshot(page, 'admin-projects');
  await page.reload();
  await expect(page.getByTestId(`project-${slug}`).getByRole('switch', { name: 'Render videos after import' })).not.toBeChecked();
});

test('a lead cannot reach the admin page', async ({ page }) => {
  const lead = await seedUser('lead');
  await signIn(page, lead);
  const response = await page.goto('/admin');
  expect(response?.status()).toBe(403);
});
