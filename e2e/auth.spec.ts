import { expect, test } from '@playwright/test';
import { seedUser, sessionCount } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';

test.describe('sign-in and roles', () => {
  for (const [role, home, heading] of [
    ['admin', '/admin', 'Admin'],
    ['lead', '/lead', 'Campaigns'],
    ['reviewer', '/review', 'My queue'],
  ] as const) {
    test(`a ${role} signs in and lands on the ${role} home`, async ({ page }) => {
      const user = await seedUser(role);
      await signIn(page, user);
      await expect(page).toHaveURL(home);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.getByTestId('role-badge')).toBeVisible();
      await expect(
        page.getByRole('button', { name: `Account menu for ${user.email}` }).or(page.getByLabel(`Account menu for ${user.email}`)),
      ).toBeVisible();
      expect(await sessionCount(user.id)).toBe(1);
      await screenshot(page, `home-${role}`);
    });
  }

  test('a reviewer is refused lead and admin pages by the server (403), and the nav hides them', async ({ page }) => {
    const reviewer = await seedUser('reviewer', ['physics']);
    await signIn(page, reviewer);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'My queue' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Campaigns' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Admin' })).toHaveCount(0);

    for (const path of ['/lead', '/admin']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(403);
      await expect(page.getByRole('heading', { name: 'This page is not for your role' })).toBeVisible();
    }
    await screenshot(page, 'forbidden-reviewer');
    // no lead data leaked into the refused page
    await expect(page.getByText('Review campaigns')).toHaveCount(0);
  });

  test('a lead is refused the admin page, but may open the reviewer queue', async ({ page }) => {
    const lead = await seedUser('lead');
    await signIn(page, lead);
    expect((await page.goto('/admin'))?.status()).toBe(403);
    expect((await page.goto('/review'))?.status()).toBe(200);
  });

  test('signing out ends the session on the server', async ({ page }) => {
    const user = await seedUser('lead');
    await signIn(page, user);
    expect(await sessionCount(user.id)).toBe(1);
    await page.getByLabel(`Account menu for ${user.email}`).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL('/sign-in');
    expect(await sessionCount(user.id)).toBe(0);
    await page.goto('/lead');
    await expect(page).toHaveURL('/sign-in');
  });

  test('a wrong password shows a clear error and makes no session', async ({ page, context }) => {
    const user = await seedUser('reviewer');
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('form').getByRole('alert')).toHaveText('Wrong email or password.');
    await expect(page).toHaveURL('/sign-in');
    await expect(page.getByLabel('Email')).toHaveValue(user.email);
    expect(await sessionCount(user.id)).toBe(0);
    expect((await context.cookies()).filter((c) => c.name.includes('session_token'))).toHaveLength(0);
    await screenshot(page, 'sign-in-wrong-password');
  });

  test('a client cannot pick its own address for the per-address sign-in limit: a forged X-Forwarded-For is replaced by the peer', async ({
    page,
  }) => {
    const user = await seedUser('reviewer');
    const forged = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    await page.setExtraHTTPHeaders({ 'X-Forwarded-For': forged });
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('form').getByRole('alert')).toHaveText('Wrong email or password.');
    const { attemptsIn } = await import('../lib/auth/queries/rate-limits');
    const counted = async (address: string) => (await attemptsIn(`sign-in:client:${address}`, 15 * 60_000, new Date())).count;
    expect(await counted(forged)).toBe(0);
    expect(await counted('127.0.0.1')).toBeGreaterThanOrEqual(1); // the studio listens on 127.0.0.1 in the e2e run
  });

  test('signed-out visitors are sent to sign-in from every studio page', async ({ page }) => {
    for (const path of ['/', '/admin', '/lead', '/review', '/trajectories', '/settings/tokens']) {
      await page.goto(path);
      await expect(page, path).toHaveURL('/sign-in');
    }
  });
});
