import { expect, test } from '@playwright/test';
import type { Trajectory } from '../lib/formats/trajectory';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';
import { apiTokenFor, postTrajectory, storeTrajectoryDirect, storedCriteria, uniqueName } from './fixtures/trajectories';

function neighbour(name: string, reward: number | null, split: 'train' | 'eval'): Trajectory {
  return {
    format: 'harbor',
    externalId: null,
    task: { name, instruction: `Do ${name}`, acceptanceCriteria: [], environment: 'bash-sandbox', split, metadata: {} },
    policy: { model: 'qwen3-coder', checkpoint: 'ckpt-1200', agent: 'terminus-2' },
    steps: [
      {
        index: 0,
        source: 'agent',
        text: 'ls',
        reasoning: null,
        toolCalls: [],
        observations: [],
        timestamp: null,
        castTime: null,
        usage: null,
      },
    ],
    verifier: reward === null ? null : { reward, components: {} },
    judgeScores: reward === null ? [] : [{ judge: 'gpt-judge', score: reward, label: null, explanation: null }],
    usage: null,
    terminal: null,
    submission: null,
    exitStatus: null,
    startedAt: null,
    endedAt: null,
    metadata: {},
  };
}

const longOutput = Array.from({ length: 60 }, (_, i) => `drwxr-xr-x  2 root root 4096 Jan  1 00:00 dir-${String(i).padStart(2, '0')}`).join(
  '\n',
);

test('a lead imports a trajectory through the API, finds it by project and reads its steps', async ({ page, request }) => {
  const lead = await seedUser('lead');
  const token = await apiTokenFor(lead.id);
  const project = uniqueName('e2e-proj');
  const task = uniqueName('list-files');
  const answer = await postTrajectory(request, token, project, {
    model: 'gpt-4.1-mini',
    metadata: { task_id: task, reward: 1, agent: 'e2e-agent' },
    messages: [
      { role: 'system', content: 'You are a careful shell agent. Use the bash tool.' },
      { role: 'user', content: 'List the directories under /srv and tell me how many there are.' },
      {
        role: 'assistant',
        content: 'I will list /srv first.',
        reasoning_content: 'The user wants a count; ls -l then count lines.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command": "ls -l /srv", "timeout": 30}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: longOutput },
      { role: 'assistant', content: 'There are 60 directories under /srv (dir-00 to dir-59).' },
    ],
  });
  const id = answer.trajectories[0]!.id;
  // a few neighbours in the same project, so the list has something to filter
  for (const [i, reward, split] of [
    [1, 0, 'train'],
    [2, 0.5, 'eval'],
    [3, null, 'train'],
  ] as const) {
    await storeTrajectoryDirect(project, neighbour(`${task}-other-${i}`, reward, split));
  }

  await signIn(page, lead);
  await page.goto('/trajectories');
  await page.getByLabel('Project').selectOption(project);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(new RegExp(`project=${project}`));
  await expect(page.getByTestId('trajectory-row')).toHaveCount(4);
  await screenshot(page, 'trajectories-list');
  await page.getByLabel('Verifier reward').selectOption('scored');
  await page.getByLabel('Reward from').fill('1');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/reward=scored&rewardMin=1/);
  const row = page.getByTestId('trajectory-row').filter({ hasText: task });
  await expect(page.getByTestId('trajectory-row')).toHaveCount(1);
  await expect(row).toContainText('gpt-4.1-mini / e2e-agent');

  await row.getByRole('link', { name: task }).click();
  await expect(page).toHaveURL(`/trajectories/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: task })).toBeVisible();
  await expect(page.getByTestId('step')).toHaveCount(5);
  await expect(page.getByTestId('verifier-reward')).toHaveText('1');
  // a shell call reads as its command (code, with line numbers), its other arguments under it; not escaped JSON
  await expect(page.getByTestId('tool-call').getByTestId('tool-call-code')).toContainText('ls -l /srv');
  await expect(page.getByTestId('tool-call')).not.toContainText('"command"');
  await page.getByText('Reasoning').click();
  await expect(page.getByText('The user wants a count')).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'trajectory-detail');
  const output = page.getByTestId('observation');
  await expect(output).toContainText('dir-23');
  await expect(output).not.toContainText('dir-59'); // long output starts truncated
  await page.getByRole('button', { name: /Show all \(60 lines/ }).click();
  await expect(output).toContainText('dir-59');

  const api = await request.get(`/api/v1/trajectories/${id}`, { headers: { authorization: `Bearer ${token}` } });
  expect(api.status()).toBe(200);
  const body = await api.json();
  expect(body.trajectory).toMatchObject({ id, task: { name: task }, policy: { model: 'gpt-4.1-mini' } });
  expect(body.trajectory.steps).toHaveLength(5);
  expect((await request.get('/api/v1/trajectories/nope', { headers: { authorization: `Bearer ${token}` } })).status()).toBe(404);
});

test('agent output with HTML and ANSI escapes is shown as text in the list, detail and raw source', async ({ page, request }) => {
  const lead = await seedUser('lead');
  const token = await apiTokenFor(lead.id);
  const project = uniqueName('e2e-xss');
  const task = `${uniqueName('xss')} <img src=x onerror="window.__pwned=3">`;
  const answer = await postTrajectory(request, token, project, {
    model: 'evil-model',
    metadata: { task_id: task },
    messages: [
      { role: 'user', content: 'Print something <script>window.__pwned=1</script>' },
      {
        role: 'assistant',
        content: 'Here: <img src=x onerror="window.__pwned=2"> and \u001b[31mRED\u001b[0m',
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'bash', arguments: '{"command": "echo \\"<script>window.__pwned=4</script>\\""}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '\u001b[1;32m<script>window.__pwned=5</script>\u001b[0m' },
    ],
  });
  const id = answer.trajectories[0]!.id;
  const pwned = () => page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);

  await signIn(page, lead);
  await page.goto(`/trajectories?project=${project}`);
  await expect(page.getByTestId('trajectory-row')).toContainText('<img src=x onerror="window.__pwned=3">');
  expect(await pwned()).toBeUndefined();

  await page.goto(`/trajectories/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(task);
  const steps = page.getByTestId('step');
  await expect(steps.nth(0)).toContainText('Print something <script>window.__pwned=1</script>');
  await expect(steps.nth(1)).toContainText('Here: <img src=x onerror="window.__pwned=2"> and ␛[31mRED␛[0m');
  await expect(steps.nth(1).getByTestId('tool-call')).toContainText('<script>window.__pwned=4</script>');
  await expect(steps.nth(2)).toContainText('␛[1;32m<script>window.__pwned=5</script>␛[0m');
  await screenshot(page, 'trajectory-untrusted');
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await expect(page.locator('script', { hasText: '__pwned' })).toHaveCount(0);
  expect(await pwned()).toBeUndefined();

  await page.getByRole('link', { name: 'Raw source' }).click();
  await expect(page).toHaveURL(`/trajectories/${id}?view=source`);
  const raw = page.getByTestId('raw-source');
  await expect(raw).toContainText('<script>window.__pwned=1</script>');
  await expect(raw).toContainText('<img src=x onerror=\\"window.__pwned=2\\">');
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  expect(await pwned()).toBeUndefined();
  await screenshot(page, 'trajectory-raw-source');
});

test('a reviewer is refused the trajectory page; a lead edits a criterion and it is saved', async ({ page, browser }) => {
  const project = uniqueName('e2e-crit');
  const task = uniqueName('criteria-task');
  const id = await storeTrajectoryDirect(project, {
    format: 'harbor',
    externalId: null,
    task: {
      name: task,
      instruction: 'Make the failing test pass without deleting it.',
      acceptanceCriteria: [
        { key: 'tests-pass', text: 'All tests pass', origin: 'verifier', verdict: true },
        { key: 'no-deletion', text: 'No test is deleted', origin: 'task', verdict: false },
      ],
      environment: 'python-repo',
      split: 'eval',
      metadata: {},
    },
    policy: { model: 'm', checkpoint: 'ckpt-1', agent: 'terminus-2' },
    steps: [
      {
        index: 0,
        source: 'agent',
        text: 'pytest -q',
        reasoning: null,
        toolCalls: [],
        observations: [],
        timestamp: null,
        castTime: null,
        usage: null,
      },
    ],
    verifier: { reward: 0, components: { tests: 0 } },
    judgeScores: [],
    usage: null,
    terminal: null,
    submission: 'diff --git a/t.py b/t.py\n--- a/t.py\n+++ b/t.py\n@@ -1 +1 @@\n-assert False\n+assert True',
    exitStatus: 'completed',
    startedAt: null,
    endedAt: null,
    metadata: {},
  });

  // reviewers never open trajectory pages: they name the policy and the reward (blind review)
  const reviewer = await seedUser('reviewer');
  const reviewerContext = await browser.newContext();
  const reviewerPage = await reviewerContext.newPage();
  await signIn(reviewerPage, reviewer);
  expect((await reviewerPage.goto(`/trajectories/${id}`))?.status()).toBe(403);
  await expect(reviewerPage.getByText('ckpt-1')).toHaveCount(0);
  await reviewerContext.close();

  const lead = await seedUser('lead');
  await signIn(page, lead);
  await page.goto(`/trajectories/${id}`);
  await page.getByRole('button', { name: 'Edit criteria' }).click();
  await page.getByRole('textbox', { name: 'Criterion 1', exact: true }).fill('All unit tests pass');
  await page.getByRole('button', { name: '+ Add criterion' }).click();
  await page.getByRole('textbox', { name: 'Criterion 3', exact: true }).fill('The fix is minimal');
  await screenshot(page, 'trajectory-criteria-edit');
  await page.getByRole('button', { name: 'Save criteria' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Criteria saved.' })).toBeVisible();
  await page.reload();
  const criteria = page.getByTestId('criteria');
  await expect(criteria).toContainText('All unit tests pass');
  await expect(criteria).toContainText('The fix is minimal');
  expect(await storedCriteria(id)).toEqual([
    { key: 'tests-pass', text: 'All unit tests pass', origin: 'verifier', verdict: true },
    { key: 'no-deletion', text: 'No test is deleted', origin: 'task', verdict: false },
    { key: 'the-fix-is-minimal', text: 'The fix is minimal', origin: 'manual', verdict: null },
  ]);
});

test('links prefetch a page when the pointer comes to them, not when they come into view', async ({ page }) => {
  const lead = await seedUser('lead');
  const project = uniqueName('prefetch');
  for (let i = 0; i < 3; i++) await storeTrajectoryDirect(project, neighbour(`${project}-task-${i}`, 1, 'train'));
  await signIn(page, lead);
  // Next's router prefetches carry the RSC header; a navigation's own request comes after the click
  const prefetched: string[] = [];
  page.on('request', (r) => {
    if (r.headers()['rsc'] === '1') prefetched.push(new URL(r.url()).pathname);
  });
  await page.goto(`/trajectories?project=${project}`);
  const rows = page.getByTestId('trajectory-row');
  await expect(rows).toHaveCount(3);
  await page.waitForLoadState('networkidle');
  // the rows and the menu are in view: nothing asked of the server for them
  expect(prefetched).toEqual([]);
  const first = rows.first().getByRole('link');
  const href = (await first.getAttribute('href'))!;
  await first.hover();
  await expect.poll(() => prefetched).toContain(href);
  // one prefetch may be several requests for the same page (Next 16's segment cache asks for the
  // route tree, then its segments): what counts is which pages were asked for, only the hovered one
  expect([...new Set(prefetched.filter((p) => p.startsWith('/trajectories/')))]).toEqual([href]);
  await first.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
});
