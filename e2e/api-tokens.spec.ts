import { expect, test } from '@playwright/test';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';

test('a user creates an API token (shown once) and a machine client uses it; revoked tokens stop working', async ({ page, request }) => {
  const user = await seedUser('lead');
  await signIn(page, user);
  await page.goto('/settings/tokens');
  await page.getByLabel('Token name').fill('trainer on gpu-01');
  await page.getByRole('button', { name: 'Create token' }).click();
  const token = await page.getByTestId('new-token').inputValue();
  expect(token).toMatch(/^wit_[A-Za-z0-9_-]{43}$/);
  await screenshot(page, 'api-tokens');

  const me = await request.get('/api/v1/me', { headers: { authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);
  expect((await me.json()).user).toMatchObject({ email: user.email, role: 'lead' });

  const anonymous = await request.get('/api/v1/me', { headers: { cookie: '' } });
  expect(anonymous.status()).toBe(401);
  expect((await anonymous.json()).error.code).toBe('UNAUTHENTICATED');

  await page.reload();
  await expect(page.getByRole('cell', { name: 'trainer on gpu-01' })).toBeVisible();
  await expect(page.getByText(token)).toHaveCount(0); // never shown again
  await page.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('revoked')).toBeVisible();
  expect((await request.get('/api/v1/me', { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401);
});

test('an admin invites a reviewer, who sets a password and lands on the reviewer home', async ({ page, browser }) => {
  const admin = await seedUser('admin');
  await signIn(page, admin);
  const email = `invited-${Date.now()}@e2e.test`;
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Role').selectOption('reviewer');
  await page.getByLabel('Expertise tags').fill('physics');
  await page.getByRole('button', { name: 'Invite' }).click();
  const link = await page.getByRole('status').locator('input').inputValue();
  expect(link).toContain('/invite/');
  await screenshot(page, 'admin-invite');

  const fresh = await browser.newContext();
  const invitee = await fresh.newPage();
  await invitee.goto(link);
  await expect(invitee.getByText(`${email} is invited as Reviewer (physics)`)).toBeVisible();
  await invitee.getByLabel('Your name').fill('Ivy Invited');
  await invitee.getByLabel('Password (10+ characters)').fill('a good long password');
  await invitee.getByLabel('Password again').fill('a good long password');
  await invitee.getByRole('button', { name: 'Create my account' }).click();
  await expect(invitee).toHaveURL('/review');
  await expect(invitee.getByRole('heading', { name: 'My queue' })).toBeVisible();

  // the link works once
  const again = await (await browser.newContext()).newPage();
  await again.goto(link);
  await expect(again.getByRole('heading', { name: 'This invitation is not valid' })).toBeVisible();
  await fresh.close();
});
