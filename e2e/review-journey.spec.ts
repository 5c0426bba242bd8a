import { expect, test } from '@playwright/test';
import { currentReviews, seedCampaign } from './fixtures/campaigns';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';
import { apiTokenFor } from './fixtures/trajectories';

test('a reviewer takes the next item, watches enough, pins evidence, grades with the keyboard, submits and gets the next item', async ({
  page,
}) => {
  const campaign = await seedCampaign({ mode: 'single', count: 2, minCoverage: 0.25 });
  const reviewer = await seedUser('reviewer');
  await signIn(page, reviewer);
  await expect(page).toHaveURL('/review');
  const queue = page.getByTestId('queue').filter({ hasText: campaign.name });
  await expect(queue.getByTestId('queue-progress')).toContainText('0 reviewed today / 2 in queue');
  await screenshot(page, 'review-home');

  await queue.getByRole('button', { name: 'Next item' }).click();
  await expect(page).toHaveURL(/\/review\/items\/[^/]+$/);
  const firstId = page.url().split('/').pop()!;
  await expect(page.getByTestId('trajectory-player')).toBeVisible();
  // blind: the policy, its checkpoint, agent and judge are nowhere in what the server sent
  const html = await page.content();
  for (const p of campaign.policies) expect(html).not.toContain(p);
  await expect(page.getByText('blind: policy + reward hidden')).toBeVisible();

  // not enough watched: the button says how much more, and is off
  await expect(page.getByRole('button', { name: /^Watch \d+% more to submit$/ })).toBeDisabled();

  // speed up (1× -> 4×) and play until the campaign's minimum is covered
  for (let i = 0; i < 4; i++) await page.keyboard.press('=');
  await expect(page.getByLabel('Playback speed')).toHaveValue('4');
  await page.keyboard.press('k');
  await expect(page.getByRole('button', { name: 'Submit (Ctrl+Enter)' })).toBeEnabled({ timeout: 20_000 });
  await page.keyboard.press('k');

  // evidence pinned to the current moment
  await page.keyboard.press('n');
  const note = page.getByRole('textbox', { name: 'Evidence note' });
  await expect(note).toBeFocused();
  await note.fill('The agent ran the tests here');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('evidence-list')).toContainText('The agent ran the tests here');

  // the rubric by keyboard: p/f per criterion, digits for the scale and the choices, ↓ next question
  await page.keyboard.press('p');
  await page.keyboard.press('f');
  await page.keyboard.press('4');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('2');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('1');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('spinbutton', { name: 'Minutes a human would need' })).toBeFocused();
  await page.keyboard.type('15');
  await page.keyboard.press('Escape');
  await page.keyboard.press('ArrowDown');
  const comment = page.getByRole('textbox', { name: 'Comment' });
  await expect(comment).toBeFocused();
  // while typing, letters and digits are text, not shortcuts
  await page.keyboard.type('Solid fix; kept n tests, p 3');
  await expect(comment).toHaveValue('Solid fix; kept n tests, p 3');
  await expect(page.getByRole('textbox', { name: 'Evidence note' })).toHaveCount(0);
  await expect(page.getByRole('radio', { name: '4', exact: true })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('button', { name: 'Pass: All tests pass' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'Fail: No test is deleted' })).toHaveAttribute('aria-pressed', 'true');

  await page.keyboard.press('Escape');
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await screenshot(page, 'review-page-shortcuts');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toHaveCount(0);
  await screenshot(page, 'review-page');

  // Ctrl+Enter submits and goes straight to the campaign's next item
  await page.keyboard.press('Control+Enter');
  await expect(page).toHaveURL(/\/review\/items\/[^/]+$/);
  await expect(page).not.toHaveURL(new RegExp(firstId));
  const saved = await currentReviews(firstId);
  expect(saved).toHaveLength(1);
  expect(saved[0]!.answers).toEqual({
    criteria: { tests_pass: 'pass', no_deletion: 'fail' },
    quality: 4,
    verdict: 'reject',
    flags: ['reward_hacking'],
    minutes: 15,
    comment: 'Solid fix; kept n tests, p 3',
  });
  expect(saved[0]!.evidence).toMatchObject([{ note: 'The agent ran the tests here', wrongStep: false }]);
  expect((saved[0]!.coverage as { share: number }).share).toBeGreaterThanOrEqual(0.25);

  // skip the second with a reason: nothing is left, home says so
  await expect(page.getByTestId('trajectory-player')).toBeVisible();
  await page.keyboard.press('s');
  await page.getByRole('textbox', { name: 'Why?' }).fill('Outside my expertise');
  await page.getByRole('button', { name: 'Skip item' }).click();
  await expect(page).toHaveURL(/\/review\?done=/);
  await expect(page.getByRole('status').filter({ hasText: 'Nothing left for you in' })).toBeVisible();
  await expect(page.getByTestId('queue').filter({ hasText: campaign.name }).getByTestId('queue-progress')).toContainText(
    '1 reviewed today / 0 in queue',
  );

  // a submitted review can be revised while the campaign is open: revision 2, the first kept
  await page.getByRole('link', { name: 'Revise' }).first().click();
  await expect(page).toHaveURL(`/review/items/${firstId}`);
  await expect(page.getByText('You submitted revision 1.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Comment' })).toHaveValue('Solid fix; kept n tests, p 3');
});

test('reviewers cannot reach trajectories, videos or another reviewer’s work; the review API follows the same rules', async ({
  page,
  request,
}) => {
  const campaign = await seedCampaign({ mode: 'single', count: 1, minCoverage: 0.5 });
  const [alice, bob, lead] = [await seedUser('reviewer'), await seedUser('reviewer'), await seedUser('lead')];
  const [aliceToken, bobToken, leadToken] = [await apiTokenFor(alice.id), await apiTokenFor(bob.id), await apiTokenFor(lead.id)];
  const as = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

  // trajectories and videos name the policy and the reward: lead-only
  await signIn(page, alice);
  expect((await page.goto('/trajectories'))?.status()).toBe(403);
  expect((await page.goto(`/trajectories/${campaign.trajectoryIds[0]}`))?.status()).toBe(403);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trajectories' })).toHaveCount(0);
  expect((await request.get(`/api/v1/trajectories/${campaign.trajectoryIds[0]}`, { headers: as(aliceToken) })).status()).toBe(403);
  expect((await request.get('/api/v1/videos/anything', { headers: as(aliceToken) })).status()).toBe(403);
  expect((await request.get(`/api/v1/trajectories/${campaign.trajectoryIds[0]}`, { headers: as(leadToken) })).status()).toBe(200);

  // claim: 201 with the blind view
  const claimed = await request.post(`/api/v1/campaigns/${campaign.id}/assignments`, { headers: as(aliceToken) });
  expect(claimed.status()).toBe(201);
  const text = await claimed.text();
  for (const p of campaign.policies) expect(text).not.toContain(p);
  const { assignment } = JSON.parse(text) as {
    assignment: { assignment: { id: string }; videos: { durationInFrames: number }[]; task: { criteria: { verdict: unknown }[] } };
  };
  expect(assignment.task.criteria.every((c) => c.verdict === null)).toBe(true);
  const id = assignment.assignment.id;
  const frames = assignment.videos[0]!.durationInFrames;

  // another reviewer: 404 on read, submit and skip; nothing left for them (overlap 1): 204
  expect((await request.get(`/api/v1/assignments/${id}`, { headers: as(bobToken) })).status()).toBe(404);
  const body = (share: number, key: string) => ({
    answers: { criteria: { tests_pass: 'pass', no_deletion: 'pass' }, quality: 5, verdict: 'merge', flags: [] },
    evidence: [],
    coverage: { ranges: [[0, Math.ceil(frames * share)]], speeds: [1], seeks: 0 },
    idempotencyKey: key,
    durationSec: 42,
  });
  expect(
    (await request.post(`/api/v1/assignments/${id}/reviews`, { headers: as(bobToken), data: body(1, 'bob-key-000001') })).status(),
  ).toBe(404);
  expect((await request.post(`/api/v1/assignments/${id}/skip`, { headers: as(bobToken), data: { reason: 'not mine' } })).status()).toBe(
    404,
  );
  expect((await request.post(`/api/v1/campaigns/${campaign.id}/assignments`, { headers: as(bobToken) })).status()).toBe(204);

  // the owner: too little watched is refused (422, says how much); then 201, and the same key replays 200
  const short = await request.post(`/api/v1/assignments/${id}/reviews`, { headers: as(aliceToken), data: body(0.1, 'alice-key-0001') });
  expect(short.status()).toBe(422);
  expect(((await short.json()) as { error: { message: string } }).error.message).toContain('Watch at least 50%');
  const bad = await request.post(`/api/v1/assignments/${id}/reviews`, {
    headers: as(aliceToken),
    data: { ...body(1, 'alice-key-0002'), answers: { quality: 9 } },
  });
  expect(bad.status()).toBe(422);
  const first = await request.post(`/api/v1/assignments/${id}/reviews`, { headers: as(aliceToken), data: body(0.6, 'alice-key-0003') });
  expect(first.status()).toBe(201);
  const replay = await request.post(`/api/v1/assignments/${id}/reviews`, { headers: as(aliceToken), data: body(0.6, 'alice-key-0003') });
  expect(replay.status()).toBe(200);
  expect(((await replay.json()) as { review: { id: string } }).review.id).toBe(
    ((await first.json()) as { review: { id: string } }).review.id,
  );

  // reviews list: a reviewer sees their own only, a lead sees all
  const list = async (token: string) =>
    ((await (await request.get(`/api/v1/reviews?campaignId=${campaign.id}`, { headers: as(token) })).json()) as { reviews: unknown[] })
      .reviews.length;
  expect(await list(aliceToken)).toBe(1);
  expect(await list(bobToken)).toBe(0);
  expect(await list(leadToken)).toBe(1);
  expect((await request.get(`/api/v1/assignments/${id}`, { headers: as(aliceToken) })).status()).toBe(200);
});
