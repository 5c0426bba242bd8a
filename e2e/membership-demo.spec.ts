import { expect, test } from '@playwright/test';
import { demoUsers } from '../prisma/seed/demo-users';
import { DEMO_SUPPORT_PROJECT } from '../prisma/seed/seed-demo-support';
import './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';

/**
 * The demo's two teams (prisma/seed/seed-demo.ts): lead@ leads the terminal-and-physics project,
 * quinn@ the support desk. Each signs in and sees only their own project; the other one's slug
 * is a 404. The admin sees both, with their members, and moves a reviewer between them.
 */
const login = (email: string) => {
  const u = demoUsers.find((d) => d.email === email)!;
  return { email: u.email, password: u.password };
};

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const { seedDemo } = await import('./../prisma/seed/seed-demo');
  const seeded = await seedDemo();
  // seedDemo gives its memberships only to demo users with none (an admin's later changes stick); in a full e2e run
  // other specs have already put the demo's people into their own projects (fixtures/lead-campaigns.ts), so give
  // them their demo projects here, as a fresh start does
  const { db } = await import('../lib/db/client');
  const projectIds = { demo: seeded.projectId, 'support-desk': seeded.supportProjectId };
  for (const u of demoUsers) {
    const user = await db().user.findUniqueOrThrow({ where: { email: u.email }, select: { id: true } });
    const data = Object.entries(u.projects).map(([slug, role]) => ({
      projectId: projectIds[slug as keyof typeof projectIds],
      userId: user.id,
      role: role!,
    }));
    if (data.length) await db().projectMember.createMany({ data, skipDuplicates: true });
  }
});

test('each demo lead sees only their own project', async ({ page, browser }) => {
  await signIn(page, login('lead@witness.local'));
  await page.goto('/lead');
  // the demo project's card and never the support desk's (in a full e2e run the demo's people also belong to
  // the e2e projects other specs seed demo campaigns into: fixtures/lead-campaigns.ts)
  const cards = page.getByTestId('project-card');
  await expect(cards.filter({ hasText: 'Demo: terminal and physics agents' })).toHaveCount(1);
  await expect(cards.filter({ hasText: DEMO_SUPPORT_PROJECT.name })).toHaveCount(0);
  await expect(page.getByText(DEMO_SUPPORT_PROJECT.name)).toHaveCount(0);
  await screenshot(page, 'membership-lead-demo');
  expect((await page.goto(`/trajectories?project=${DEMO_SUPPORT_PROJECT.slug}`))?.status()).toBe(404);
  expect((await page.goto(`/insight/environments?project=${DEMO_SUPPORT_PROJECT.slug}`))?.status()).toBe(404);
  await page.goto('/trajectories');
  await expect(page.getByText('support-chat')).toHaveCount(0);

  const quinn = await (await browser.newContext()).newPage();
  await signIn(quinn, login('quinn@witness.local'));
  await quinn.goto('/lead');
  await expect(quinn.getByTestId('project-card')).toHaveCount(1);
  await expect(quinn.getByTestId('project-card')).toContainText(DEMO_SUPPORT_PROJECT.name);
  await expect(quinn.getByText('Support replies: correct and kind').first()).toBeVisible();
  await expect(quinn.getByText('Demo: terminal and physics agents')).toHaveCount(0);
  await screenshot(quinn, 'membership-lead-support');
  expect((await quinn.goto('/trajectories?project=demo'))?.status()).toBe(404);
  await quinn.goto('/lead/campaigns');
  await expect(quinn.getByText('Nightly terminal batch')).toHaveCount(0);

  // the support reviewer's queue holds only the support campaign
  const rio = await (await browser.newContext()).newPage();
  await signIn(rio, login('rio@witness.local'));
  await rio.goto('/review');
  await expect(rio.getByTestId('queue')).toHaveCount(1);
  await expect(rio.getByTestId('queue')).toContainText('Support replies: correct and kind');
});

test('the admin sees both projects with their members and adds a reviewer to the support desk (audited)', async ({ page }) => {
  await signIn(page, login('admin@witness.local'));
  await page.goto('/admin');
  const support = page.getByTestId(`members-${DEMO_SUPPORT_PROJECT.slug}`);
  // the demo's people (other specs' users join every project: the e2e one-team default, fixtures/seed.ts)
  const demoPeople = (list: typeof support) => list.getByTestId('member').filter({ hasText: '@witness.local' });
  await expect(demoPeople(support)).toHaveCount(2);
  await expect(demoPeople(page.getByTestId('members-demo'))).toHaveCount(6);
  // one add form for every project (the page grows with projects plus people, not their product)
  await page.getByLabel('Project to add to').selectOption({ label: DEMO_SUPPORT_PROJECT.slug });
  await page.getByLabel('User to add').selectOption({ label: 'kit@witness.local' });
  await page.getByRole('button', { name: 'Add member' }).click();
  await expect(demoPeople(support)).toHaveCount(3);
  await screenshot(page, 'membership-admin');
  const { db } = await import('../lib/db/client');
  const kit = await db().user.findUniqueOrThrow({ where: { email: 'kit@witness.local' }, select: { id: true } });
  const audit = await db().auditLog.findFirst({ where: { action: 'project_member.add', targetId: kit.id }, select: { data: true } });
  expect(audit?.data).toEqual({ role: 'reviewer' });
  await support.getByRole('button', { name: 'Remove kit@witness.local' }).click();
  await expect(demoPeople(support)).toHaveCount(2);
});

test('a token narrowed to one project on the tokens page reaches that project only', async ({ page, request }) => {
  await signIn(page, login('admin@witness.local'));
  await page.goto('/settings/tokens');
  await page.getByLabel('Token name').fill('support trainer');
  await page.getByLabel('Projects').selectOption({ label: `Only ${DEMO_SUPPORT_PROJECT.name}` });
  await page.getByRole('button', { name: 'Create token' }).click();
  const token = await page.getByTestId('new-token').inputValue();
  await page.reload();
  await expect(page.getByRole('row', { name: /support trainer/ }).getByTestId('token-project')).toHaveText(DEMO_SUPPORT_PROJECT.name);
  await screenshot(page, 'membership-token');
  const headers = { authorization: `Bearer ${token}` };
  const projects = (await (await request.get('/api/v1/projects', { headers })).json()) as { projects: { slug: string }[] };
  expect(projects.projects.map((p) => p.slug)).toEqual([DEMO_SUPPORT_PROJECT.slug]);
  expect((await request.get(`/api/v1/campaigns?project=${DEMO_SUPPORT_PROJECT.slug}`, { headers })).status()).toBe(200);
  expect((await request.get('/api/v1/campaigns?project=demo', { headers })).status()).toBe(404);
  expect((await request.get('/api/v1/insight/environments?project=demo', { headers })).status()).toBe(404);
});
