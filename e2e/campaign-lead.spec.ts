import { expect, test, type Page } from '@playwright/test';
import { campaignCountNamed, seedCampaignRuns, seedDemoCampaignsInto, seedReview } from './fixtures/lead-campaigns';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';
import { apiTokenFor, uniqueName } from './fixtures/trajectories';

/** a campaign's page (not /lead/campaigns/new) */
const CAMPAIGN_URL = /\/lead\/campaigns\/(?!new$)[a-z0-9]+$/;
const reviewAnswers = { criteria: { tests_pass: 'pass', no_test_edits: 'pass' }, overall: 4, flags: [], severity: 'minor' };

/** Fills and submits the create form; answers the campaign id from the detail page's URL. */
async function createThroughForm(page: Page, project: string, name: string): Promise<string> {
  await page.goto('/lead/campaigns/new');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Project').selectOption(project);
  await page.getByLabel('Environment').selectOption('terminal-bench');
  await expect(page.getByTestId('filter-preview')).toContainText('Matches 4 trajectories over 2 tasks');
  await page.getByRole('radio', { name: /Pairwise/ }).check();
  await expect(page.getByTestId('filter-preview')).toContainText('2 same-task pairs of different policies → 2 items');
  await page.getByRole('radio', { name: /Single item/ }).check();
  await page.getByLabel('Overlap k').fill('2');
  await page.getByLabel('Minimum watch coverage').fill('0');
  await expect(page.getByTestId('filter-preview')).toContainText('4 items, 8 reviews at k=2');

  // the rubric: a new project starts from the standard template; edit it
  await expect(page.getByLabel('Start from')).toHaveValue('template:standard');
  await expect(page.getByTestId('rubric-question')).toHaveCount(4);
  await page.getByLabel('Question 2 prompt').fill('');
  await page.getByRole('button', { name: '+ Single choice' }).click();
  await page.getByLabel('Question 5 id').fill('severity');
  await page.getByRole('button', { name: 'Create campaign' }).click();
  // errors next to their fields, nothing sent
  await expect(page.getByTestId('rubric-question').nth(1).getByRole('alert')).toHaveText('every question needs a prompt');
  await expect(page.getByTestId('rubric-question').nth(4).getByRole('alert')).toHaveText('every question needs a prompt');
  await expect(page.getByTestId('form-error')).toHaveText('Fix the fields marked in red.');
  await screenshot(page, 'campaign-new-errors');

  await page.getByLabel('Question 2 prompt').fill('Overall quality of the work');
  await page.getByLabel('Question 5 prompt').fill('How severe is the worst problem?');
  await page.getByLabel('Question 5 option 1 value').fill('minor');
  await page.getByLabel('Question 5 option 1 label').fill('Minor');
  await page.getByLabel('Question 5 option 2 value').fill('major');
  await page.getByLabel('Question 5 option 2 label').fill('Major');
  await page.getByLabel('Question 2 anchor 2').fill('mostly wrong');
  await expect(page.getByTestId('rubric-question')).toHaveCount(5);
  await screenshot(page, 'campaign-new');
  await page.getByRole('button', { name: 'Create campaign' }).click();
  await expect(page).toHaveURL(CAMPAIGN_URL);
  return page.url().split('/').pop()!;
}

test('a lead creates a campaign with an edited rubric through the form and watches its progress', async ({ page }) => {
  test.setTimeout(120_000);
  const lead = await seedUser('lead');
  const reviewer = await seedUser('reviewer');
  const project = uniqueName('camp');
  await seedCampaignRuns(project);
  const name = uniqueName('Checkpoint sweep');

  await signIn(page, lead);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Campaigns' }).click();
  await expect(page).toHaveURL('/lead/campaigns');
  await page.getByRole('link', { name: 'New campaign' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'New review campaign' })).toBeVisible();

  const id = await createThroughForm(page, project, name);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText('Agent run review v1')).toBeVisible();
  await expect(page.getByText('How severe is the worst problem?')).toBeVisible();
  await expect(page.getByTestId('item-row')).toHaveCount(4);
  await expect(page.getByText('Nobody has claimed an item yet.')).toBeVisible();

  // a reviewer submits through lib (the review page's code): progress moves
  await seedReview(id, reviewer, reviewAnswers);
  await page.reload();
  const row = page.getByTestId('reviewer-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(reviewer.name);
  await expect(row.getByRole('cell').nth(2)).toHaveText('1'); // submitted
  await expect(page.getByRole('progressbar', { name: 'Reviews done of items × k' })).toHaveAttribute('aria-valuenow', '1');
  await screenshot(page, 'campaign-detail');

  // close, then reopen
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Close campaign' }).click();
  await expect(page.getByRole('button', { name: 'Reopen campaign' })).toBeVisible();
  await expect(page.getByText(/^Closed/)).toBeVisible();
  await page.getByRole('button', { name: 'Reopen campaign' }).click();
  await expect(page.getByRole('button', { name: 'Close campaign' })).toBeVisible();

  // the list shows it with reviews done of items × k; the lead home links it
  await page.goto('/lead/campaigns');
  const listed = page.getByTestId('campaign-row').filter({ hasText: name });
  await expect(listed).toContainText(project);
  await expect(listed).toContainText('1/8');
  await screenshot(page, 'campaign-list');
  await page.goto('/lead');
  await expect(page.getByRole('link', { name })).toBeVisible();

  // the same rubric again, unchanged: the form reuses its version (no v2)
  await page.goto('/lead/campaigns/new');
  await page.getByLabel('Project').selectOption(project);
  await expect(page.getByLabel('Start from')).toHaveValue(/.+/);
  await expect(page.getByText('Unchanged: uses Agent run review v1')).toBeVisible();
  await page.getByLabel('Question 1 prompt').fill('Does the run meet each criterion?');
  await expect(page.getByText('Edited: saved as Agent run review v2')).toBeVisible();
});

test('the campaigns API: list, create (inline rubric), read progress, close; bad input names the field', async ({ request }) => {
  const lead = await seedUser('lead');
  const reviewer = await seedUser('reviewer');
  const project = uniqueName('camp-api');
  await seedCampaignRuns(project);
  const auth = { authorization: `Bearer ${await apiTokenFor(lead.id)}` };
  const rubric = {
    name: 'API rubric',
    definition: {
      title: 'API rubric',
      questions: [
        { id: 'criteria', type: 'criteria', prompt: 'Criteria?' },
        { id: 'overall', type: 'likert', prompt: 'Overall', points: 5 },
      ],
    },
  };

  const created = await request.post('/api/v1/campaigns', {
    headers: auth,
    data: { project, name: 'Pairs by API', mode: 'pairwise', overlap: 2, rubric },
  });
  expect(created.status(), await created.text()).toBe(201);
  const campaign = (await created.json()).campaign;
  expect(campaign).toMatchObject({ mode: 'pairwise', status: 'open', items: 2, project, rubricVersionCreated: true });

  const bad = await request.post('/api/v1/campaigns', {
    headers: auth,
    data: {
      project,
      name: 'Bad',
      mode: 'single',
      overlap: 2,
      rubric: { name: 'x', definition: { title: 'x', questions: [{ id: 'q', type: 'likert', prompt: 'q', points: 11 }] } },
    },
  });
  expect(bad.status()).toBe(422);
  expect((await bad.json()).error).toMatchObject({ code: 'BAD_INPUT', details: { field: 'rubric.definition.questions.0.points' } });
  const notJson = await request.post('/api/v1/campaigns', { headers: { ...auth, 'content-type': 'application/json' }, data: '{' });
  expect(notJson.status()).toBe(422);

  const list = await request.get(`/api/v1/campaigns?project=${project}`, { headers: auth });
  expect(list.status()).toBe(200);
  expect((await list.json()).campaigns).toEqual([
    expect.objectContaining({ id: campaign.id, name: 'Pairs by API', items: 2, reviewsDone: 0, reviewsTarget: 4 }),
  ]);

  const single = await request.post('/api/v1/campaigns', {
    headers: auth,
    data: { project, name: 'Single by API', mode: 'single', overlap: 1, rubric: { versionId: campaign.rubricVersionId } },
  });
  expect(single.status()).toBe(201);
  const singleId = (await single.json()).campaign.id;
  await seedReview(singleId, reviewer, { criteria: { tests_pass: 'pass', no_test_edits: 'fail' }, overall: 3 });
  const detail = await request.get(`/api/v1/campaigns/${singleId}`, { headers: auth });
  expect(detail.status()).toBe(200);
  const body = (await detail.json()).campaign;
  expect(body.progress).toMatchObject({ items: 4, reviewsDone: 1, reviewsTarget: 4, itemsComplete: 1 });
  expect(body.reviewers).toEqual([expect.objectContaining({ email: reviewer.email, submitted: 1 })]);
  expect((await request.get('/api/v1/campaigns/nope', { headers: auth })).status()).toBe(404);

  const closed = await request.post(`/api/v1/campaigns/${singleId}/status`, { headers: auth, data: { status: 'closed' } });
  expect(closed.status()).toBe(200);
  expect((await closed.json()).campaign).toMatchObject({ status: 'closed', changed: true });
  expect((await request.post(`/api/v1/campaigns/${singleId}/status`, { headers: auth, data: { status: 'archived' } })).status()).toBe(422);
});

test('a reviewer is refused every lead campaign page, action and API route', async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const lead = await seedUser('lead');
  const reviewer = await seedUser('reviewer', ['software']);
  const project = uniqueName('camp-sec');
  await seedCampaignRuns(project);
  const leadToken = await apiTokenFor(lead.id);
  const created = await request.post('/api/v1/campaigns', {
    headers: { authorization: `Bearer ${leadToken}` },
    data: {
      project,
      name: uniqueName('secure'),
      mode: 'single',
      overlap: 1,
      rubric: { name: 'r', definition: { title: 'r', questions: [{ id: 'overall', type: 'likert', prompt: 'Overall', points: 5 }] } },
    },
  });
  const campaignId = (await created.json()).campaign.id;

  // pages: HTTP 403 from the server
  await signIn(page, reviewer);
  for (const path of ['/lead/campaigns', '/lead/campaigns/new', `/lead/campaigns/${campaignId}`]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByRole('heading', { name: 'This page is not for your role' })).toBeVisible();
  }
  await screenshot(page, 'campaign-reviewer-forbidden');

  // API: 403 with a token and with the session cookie
  const reviewerAuth = { authorization: `Bearer ${await apiTokenFor(reviewer.id)}` };
  const body = {
    project,
    name: 'sneaky',
    mode: 'single',
    overlap: 1,
    rubric: { name: 'r', definition: { title: 'r', questions: [{ id: 'q', type: 'text', prompt: 'q' }] } },
  };
  expect((await request.post('/api/v1/campaigns', { headers: reviewerAuth, data: body })).status()).toBe(403);
  expect((await page.request.post('/api/v1/campaigns', { data: body })).status()).toBe(403);
  expect((await request.get('/api/v1/campaigns', { headers: reviewerAuth })).status()).toBe(403);
  expect((await request.get(`/api/v1/campaigns/${campaignId}`, { headers: reviewerAuth })).status()).toBe(403);
  expect(
    (await request.post(`/api/v1/campaigns/${campaignId}/status`, { headers: reviewerAuth, data: { status: 'closed' } })).status(),
  ).toBe(403);

  // the create and status server actions: capture a real call as the lead, replay it as the reviewer
  const leadContext = await browser.newContext();
  const leadPage = await leadContext.newPage();
  await signIn(leadPage, lead);
  await leadPage.goto(`/lead/campaigns/${campaignId}`);
  const statusCall = leadPage.waitForRequest((r) => r.method() === 'POST' && Boolean(r.headers()['next-action']));
  leadPage.once('dialog', (dialog) => void dialog.accept());
  await leadPage.getByRole('button', { name: 'Close campaign' }).click();
  const captured = await statusCall;
  await expect(leadPage.getByRole('button', { name: 'Reopen campaign' })).toBeVisible();
  await leadPage.getByRole('button', { name: 'Reopen campaign' }).click();
  await expect(leadPage.getByRole('button', { name: 'Close campaign' })).toBeVisible();

  const replay = await page.request.post(`/lead/campaigns/${campaignId}`, {
    headers: {
      'next-action': captured.headers()['next-action']!,
      'content-type': captured.headers()['content-type'] ?? 'text/plain;charset=UTF-8',
      accept: 'text/x-component',
    },
    data: captured.postData() ?? '',
  });
  const answer = await replay.text();
  expect(replay.status() === 403 || answer.includes('FORBIDDEN'), answer.slice(0, 300)).toBe(true);
  const still = await request.get(`/api/v1/campaigns/${campaignId}`, { headers: { authorization: `Bearer ${leadToken}` } });
  expect((await still.json()).campaign.status).toBe('open');

  await leadPage.goto('/lead/campaigns/new');
  const name = uniqueName('via-action');
  await leadPage.getByLabel('Name', { exact: true }).fill(name);
  await leadPage.getByLabel('Project').selectOption(project);
  await expect(leadPage.getByTestId('filter-preview')).toContainText('Matches 4 trajectories');
  const createCall = leadPage.waitForRequest(
    (r) => r.method() === 'POST' && Boolean(r.headers()['next-action']) && (r.postData() ?? '').includes(name),
  );
  await leadPage.getByRole('button', { name: 'Create campaign' }).click();
  const create = await createCall;
  await expect(leadPage).toHaveURL(CAMPAIGN_URL);
  expect(await campaignCountNamed(name)).toBe(1);
  const replayCreate = await page.request.post('/lead/campaigns/new', {
    headers: {
      'next-action': create.headers()['next-action']!,
      'content-type': create.headers()['content-type'] ?? 'text/plain;charset=UTF-8',
      accept: 'text/x-component',
    },
    data: create.postData() ?? '',
  });
  const createAnswer = await replayCreate.text();
  expect(replayCreate.status() === 403 || createAnswer.includes('FORBIDDEN'), createAnswer.slice(0, 300)).toBe(true);
  expect(await campaignCountNamed(name)).toBe(1); // the reviewer's replay created nothing
  await leadContext.close();
});

test('the demo campaigns: a busy single campaign with per-reviewer progress, a pairwise one, and one nobody has touched', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const project = uniqueName('demo-camp');
  const report = await seedDemoCampaignsInto(project);
  expect(report).toMatchObject({ campaignsCreated: 4, trajectoriesCreated: 24 });
  const lead = await seedUser('lead');
  await signIn(page, lead);

  await page.goto('/lead/campaigns');
  const rows = page.getByTestId('campaign-row').filter({ hasText: project });
  await expect(rows).toHaveCount(4); // single, pairwise, physics, and the active nightly batch
  await expect(rows.filter({ hasText: 'Physics derivations: expert check' })).toContainText('needs physics');
  await screenshot(page, 'campaign-list-demo');

  await rows.filter({ hasText: 'grade each run' }).getByRole('link').click();
  await expect(page).toHaveURL(CAMPAIGN_URL);
  await expect(page.getByTestId('reviewer-row')).toHaveCount(4);
  await expect(page.getByTestId('item-row')).toHaveCount(24);
  await expect(page.getByTestId('item-row').filter({ hasText: 'gold' })).toHaveCount(2);
  await expect(page.getByRole('progressbar', { name: 'Reviews done of items × k' })).toHaveAttribute(
    'aria-valuenow',
    String(report.reviews),
  );
  await screenshot(page, 'campaign-detail-demo');

  await page.goto('/lead/campaigns');
  await rows.filter({ hasText: 'which checkpoint did better' }).getByRole('link').click();
  await expect(page.getByRole('columnheader', { name: 'Policy B' })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Reviews done of items × k' })).toHaveAttribute(
    'aria-valuenow',
    String(report.comparisons),
  );
  await screenshot(page, 'campaign-detail-pairwise-demo');
});
