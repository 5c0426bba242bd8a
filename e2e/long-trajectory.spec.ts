import { expect, test } from '@playwright/test';
import { buildTrajectory } from '../lib/formats/build-trajectory';
import type { CastEvent, Step } from '../lib/formats/trajectory';
import { storeTrajectoryDirect, uniqueName } from './fixtures/trajectories';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';

/**
 * A long run's page (the shape of bench/pages-bench-data.ts's 1,000-step run, smaller): a light
 * shell (the video's head, the first transcript page), the Player loading its scenes from
 * GET /api/v1/trajectories/ID/video as the playhead needs them, the props derived by a worker
 * (never by the page).
 */
const STEPS = 300;

function longRun() {
  const steps: Array<Partial<Step> & Pick<Step, 'source' | 'text'>> = [{ source: 'user', text: 'Fix the failing build; show each step.' }];
  for (let i = 1; i < STEPS; i++)
    steps.push({
      source: 'agent',
      text: `Step ${i}: the log shows **error ${i}**; with $n = ${i}$ the loop runs $O(n^2)$ times, so I change it.`,
      reasoning: `Check step ${i}: $\\sum_k k = ${i}$.`,
      toolCalls: [{ id: `c${i}`, name: 'bash', arguments: { command: `make -j2 test-${i}` } }],
      observations: [{ toolCallId: `c${i}`, content: `observation-marker-${i}\n${'test ok\n'.repeat(10)}`, isError: false }],
      castTime: i * 4,
    });
  const events: CastEvent[] = [];
  for (let k = 0; k < 30 * STEPS; k++) events.push([(k / 30) * 4, 'o', `\x1b[32m[${k}]\x1b[0m building target ${k % 977}\r\n`]);
  return buildTrajectory({
    format: 'harbor',
    task: { name: uniqueName('long-build'), instruction: 'Fix the failing build.' },
    policy: { model: 'e2e-model' },
    steps,
    extra: { terminal: { version: 2, width: 100, height: 30, title: null, events } },
  });
}

test('a long run: light page, video prepared by a worker and loaded part by part, transcript paged', async ({ page }) => {
  test.setTimeout(180_000);
  const lead = await seedUser('lead');
  const id = await storeTrajectoryDirect(uniqueName('long'), longRun());
  await signIn(page, lead);

  const videoRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes(`/api/v1/trajectories/${id}/video`)) videoRequests.push(new URL(r.url()).search);
  });
  const response = await page.goto(`/trajectories/${id}`);
  // the page carries no step of the video beyond its head: no observation text of a far step
  const html = await response!.text();
  expect(html).not.toContain('observation-marker-250');
  // the server typesets the first steps of the page; the later ones, and every reasoning, are their plain text until needed
  const steps = page.getByTestId('step');
  await expect(steps.nth(1).locator('.katex').first()).toBeVisible();
  expect(html.match(/data-typeset="when-near"/g)?.length).toBe(40);
  // props not stored yet: a worker derives them, the Player appears when they are
  const player = page.getByTestId('trajectory-player');
  await expect(player).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('player-time')).toContainText('frame 0');
  await screenshot(page, 'long-trajectory-poster');

  // the transcript: the first 50 steps, and pages
  await expect(steps).toHaveCount(50);
  // a far step is typeset as it comes near the view, its reasoning when opened
  const far = steps.nth(45);
  await far.scrollIntoViewIfNeeded();
  await expect(far.locator('.katex').first()).toBeVisible();
  await expect(far.locator('[data-typeset="when-near"]')).toHaveCount(0);
  await far.getByText('Reasoning').click();
  await expect(far.locator('details .katex')).toHaveCount(1);
  await expect(far.locator('details')).not.toContainText('\\sum');
  await screenshot(page, 'long-trajectory-far-step');
  await page.evaluate(() => window.scrollTo(0, 0));
  const pager = page.getByRole('navigation', { name: 'Transcript pages' }).first();
  await expect(pager).toContainText(`Steps 1–50 of ${STEPS}`);

  // plays at once (the title card needs only the head)
  await player.getByLabel(/Proof-of-work video/).focus();
  await page.keyboard.press('k');
  await expect(page.getByTestId('player-time')).toContainText(/frame [1-9]\d*/, { timeout: 10_000 });
  await page.keyboard.press('k');

  // a far chapter: its part is loaded on the seek, and drawn
  const chapters = page.getByRole('navigation', { name: 'Steps in the video' });
  // the list shows the rows around its view: scroll it to the chapter first
  await expect(chapters.locator('li[data-step]')).not.toHaveCount(STEPS);
  // the skim video of 1,000 steps is a bounded selection (~90 s): the chapter rows are the steps it shows, the rest named
  await expect(page.getByTestId('omitted-steps')).toContainText(`of ${STEPS.toLocaleString('en-US')} steps`);
  await expect(page.getByTestId('omitted-steps')).toContainText('are not in the video: read them in the transcript');
  await chapters.locator('ol').evaluate((el) => (el.scrollTop = el.scrollHeight));
  const farChapter = chapters.locator('li[data-step]').last();
  const farLabel = (await farChapter.getByRole('button').innerText()).match(/#[\d,]+/)![0];
  expect(Number(farLabel.slice(1).replaceAll(',', ''))).toBeGreaterThan(100);
  await farChapter.getByRole('button').click();
  await expect(chapters.locator('[aria-current="step"]')).toContainText(farLabel);
  await expect(page.getByTestId('video-part-loading')).toHaveCount(0, { timeout: 20_000 });
  const parts = videoRequests.filter((q) => /[?&]part=[1-9]/.test(q));
  expect(parts.length).toBeGreaterThan(0);
  // each part fetched once, on the seek that needed it (the bounded skim video of 1,000 steps is a part or two now)
  const head = (await (await page.request.get(`/api/v1/trajectories/${id}/video?pacing=skim`)).json()) as { parts: unknown[] };
  expect(parts.length).toBeLessThanOrEqual(head.parts.length);
  expect(new Set(parts).size).toBe(parts.length);
  await screenshot(page, 'long-trajectory-far-chapter');

  // the next transcript page
  await pager.getByRole('link', { name: /Next 50/ }).click();
  await expect(page.getByRole('navigation', { name: 'Transcript pages' }).first()).toContainText(`Steps 51–100 of ${STEPS}`);
  await expect(page.getByTestId('step').first()).toContainText('#51'); // as the pager counts: steps 51-100
});
