import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { buildTrajectory } from '../lib/formats/build-trajectory';
import { demoRubric } from './fixtures/campaigns';
import { oneTeam, seedUser } from './fixtures/seed'; // also points DATABASE_URL at the e2e database before lib/db loads
import { playerText } from './fixtures/player-text';
import { screenshot, signIn } from './fixtures/sign-in';
import { storeTrajectoryDirect, uniqueName } from './fixtures/trajectories';

/*
 * Issue 43 §1 and §2 in the browser: a review cannot be earned by leaving the page open, what was
 * read is kept by the server across a reload; the review page keeps the player and the transcript
 * on one screen at 1440x900 (nothing scrolls the window), and the compare page shows one large
 * player, both transcripts and the form without scrolling, the video's card text at >= 12 px.
 */

/** The demo physicist (prisma/seed/demo-users.ts). */
const PHYSICIST = { email: 'physicist@witness.local', password: 'witness-demo-physics' };
const HOOP = 'physics-derivations/bead-on-rotating-hoop_acme-coder-7b-ckpt-2000.json';

/**
 * The demo's rotating-hoop runs (prisma/seed/demo, imported as `witness start` imports them) in a
 * project of their own, under a campaign set like the demo's "Physics derivations: expert check"
 * (prisma/seed/seed-demo-campaigns.ts): physics rubric, 80% watched or read, read pacing, physicists only.
 */
async function hoopCampaign(): Promise<{ name: string }> {
  const { ensureProject, ensureEnvironment } = await import('../lib/trajectories/queries/projects');
  const { ensureUser } = await import('../lib/auth/create-user');
  const { demoUsers } = await import('../prisma/seed/demo-users');
  const { DEMO_DIR } = await import('../prisma/seed/seed-demo-trajectories');
  const { collectInputs } = await import('../lib/ingest/collect-inputs');
  const { importTrajectories } = await import('../lib/ingest/import-trajectories');
  const { rubricTemplates } = await import('../lib/review/rubric-templates');
  const { saveRubricVersion } = await import('../lib/campaigns/save-rubric-version');
  const { createCampaign } = await import('../lib/campaigns/create-campaign');
  const { db } = await import('../lib/db/client');
  const slug = uniqueName('e2e-hoop');
  const project = await ensureProject({ slug, name: slug });
  await oneTeam();
  const physicist = demoUsers.find((u) => u.email === PHYSICIST.email)!;
  const { user } = await ensureUser(physicist);
  await db().projectMember.createMany({ data: [{ projectId: project.id, userId: user.id, role: 'reviewer' }], skipDuplicates: true });
  await ensureEnvironment(project.id, 'physics-derivations', 'Physics derivations');
  const result = await importTrajectories(
    collectInputs([path.join(DEMO_DIR, HOOP)], { format: 'auto', maxBytes: 64 * 1024 * 1024, readStdin: async () => '' }),
    {
      projectId: project.id,
      format: 'auto',
      environment: 'physics-derivations',
      split: 'train',
      policy: 'acme/coder-7b@ckpt-2000 / generate',
      importedById: null,
    },
  );
  expect(result.failed).toBe(0);
  const physics = rubricTemplates().find((t) => t.id === 'physics')!;
  const version = await saveRubricVersion(project.id, uniqueName(physics.name), physics.definition, null);
  const name = uniqueName('Physics derivations: expert check');
  await createCampaign(
    project.id,
    {
      name,
      mode: 'single',
      rubricVersionId: version.versionId,
      overlap: 2,
      minCoverage: 0.8,
      coverageBasis: 'either',
      requiredExpertise: ['physics'],
      filter: { environment: 'physics-derivations' },
      blind: { hidePolicy: true, hideReward: false },
      pacing: 'read',
    },
    null,
  );
  return { name };
}

async function takeNext(page: Page, campaignName: string): Promise<string> {
  await page.goto('/review');
  await page.getByTestId('queue').filter({ hasText: campaignName }).first().getByRole('button', { name: 'Next item' }).click();
  await expect(page).toHaveURL(/\/review\/(items|compare)\/[^/]+$/);
  return new URL(page.url()).pathname;
}

/** The element's box is inside the window (whole, or at least `minHeight` of it where it may run on). */
async function inViewport(page: Page, what: Locator, minHeight?: number) {
  const box = (await what.boundingBox())!;
  const { width, height } = page.viewportSize()!;
  expect(box.y, 'top in view').toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, 'right edge in view').toBeLessThanOrEqual(width + 1);
  if (minHeight === undefined) expect(box.y + box.height, 'bottom in view').toBeLessThanOrEqual(height + 1);
  else expect(Math.min(box.y + box.height, height) - box.y, 'visible height').toBeGreaterThanOrEqual(minHeight);
  return box;
}

/** The window itself does not scroll (everything scrolls in its own box) and is at the top. */
async function windowStill(page: Page) {
  const { scrollY, overflow } = await page.evaluate(() => ({
    scrollY: window.scrollY,
    overflow: document.scrollingElement!.scrollHeight - window.innerHeight,
  }));
  expect(scrollY).toBe(0);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** The review page's one-screen layout: the player and the transcript both in view, the window still. */
async function reviewLayoutHolds(page: Page) {
  const player = await inViewport(page, page.getByTestId('trajectory-player'));
  const transcript = await inViewport(page, page.getByTestId('transcript'));
  expect(transcript.height, 'room to read').toBeGreaterThanOrEqual(200);
  expect(player.width).toBeGreaterThanOrEqual(600);
  await inViewport(page, page.getByRole('button', { name: /Submit|more to submit/ }));
  await windowStill(page);
}

test('an idle review page earns nothing, the submit is refused, reading counts and survives a reload', async ({ page }) => {
  test.setTimeout(360_000);
  const campaign = await hoopCampaign();
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, PHYSICIST);
  const url = await takeNext(page, campaign.name);
  const assignmentId = url.split('/').pop()!;
  // a fresh page, and then no input at all: no key, no pointer, no wheel, no scroll
  await page.goto(url);
  const transcript = page.getByTestId('transcript');
  const steps = transcript.locator('[data-transcript-step]');
  const total = await steps.count();
  expect(total).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('task-panel')).toContainText(/hoop/i);
  await reviewLayoutHolds(page);
  // idle: the first steps sit in view the whole time, the tab is visible and focused
  await page.waitForTimeout(35_000);
  await expect(page.getByTestId('transcript-read')).toContainText(`0 of ${total} steps read`);
  await expect(page.getByTestId('coverage')).toContainText('Seen 0%');
  // the submit button says what is missing
  const blocked = page.getByRole('button', { name: /^Watch or read \d+% more to submit$/ });
  await expect(blocked).toBeDisabled();
  await expect(blocked).toHaveText('Watch or read 80% more to submit');
  await screenshot(page, 'review-attention-idle-1440');

  // a direct submit, with complete answers and what the page has (nothing read), is refused by the server
  // (POST /api/v1/assignments/ID/reviews: the same lib/review/submit-review.ts as the page's server action)
  const criteriaKeys = await page.locator('[data-criterion]').evaluateAll((els) => els.map((e) => e.getAttribute('data-criterion')!));
  const answers = {
    algebra: 'pass',
    units: 'pass',
    limits: 'pass',
    numerical_check: 'pass',
    criteria: Object.fromEntries(criteriaKeys.map((k) => [k, 'pass'])),
    overall: 4,
    flags: [],
  };
  const origin = new URL(page.url()).origin;
  const refused = await page.request.post(`/api/v1/assignments/${assignmentId}/reviews`, {
    headers: { origin },
    data: { idempotencyKey: `idle-${assignmentId}`, answers, coverage: { ranges: [], speeds: [1], seeks: 0, transcriptSteps: [] } },
  });
  expect(refused.status()).toBe(422);
  expect(await refused.text()).toContain('Watch or read at least 80%');

  // reading: the reviewer moves the pointer over the transcript and scrolls it, a step at a time, for its reading time
  const first = (await steps.first().boundingBox())!;
  await page.mouse.move(first.x + 40, first.y + 20);
  const read = page.getByTestId('transcript-read');
  const deadline = Date.now() + 240_000;
  for (let i = 0; ; i++) {
    if ((await read.innerText()).startsWith(`${total} of ${total}`)) break;
    expect(Date.now(), 'all steps read within 4 minutes').toBeLessThan(deadline);
    // the first step not yet read, brought to the top of the transcript's box (its box scrolls, not the window)
    const unread = transcript.locator('[data-transcript-step]:not(:has(span[title="counted as read"]))').first();
    await unread.evaluate((el) => {
      const box = el.closest('[data-testid="transcript"]')!;
      box.scrollTop = (el as HTMLElement).offsetTop - 8;
    });
    const b = (await transcript.boundingBox())!;
    await page.mouse.move(b.x + 60 + (i % 7) * 9, b.y + 40 + (i % 5) * 11, { steps: 3 });
    await page.waitForTimeout(1_000);
  }
  await expect(page.getByTestId('coverage')).toContainText(`read ${total}/${total} steps`);
  await expect(page.getByTestId('coverage')).toContainText('Seen 100%');
  await windowStill(page);
  await screenshot(page, 'review-attention-read-1440');

  // kept by the server: the page saves as it goes; a reload starts from what the server kept
  const { db } = await import('../lib/db/client');
  await expect
    .poll(
      async () => {
        const row = await db().assignment.findUniqueOrThrow({ where: { id: assignmentId }, select: { progress: true } });
        const runs = Object.values((row.progress ?? {}) as Record<string, { transcriptSteps?: number[] }>);
        return runs[0]?.transcriptSteps?.length ?? 0;
      },
      { timeout: 20_000 },
    )
    .toBe(total);
  await page.reload();
  await expect(page.getByTestId('transcript-read')).toContainText(`${total} of ${total} steps read`);
  await expect(page.getByTestId('coverage')).toContainText('Seen 100%');
  await expect(page.getByRole('button', { name: 'Submit (Ctrl+Enter)' })).toBeEnabled();

  // seeking and pinning from a step keep the player in view: the window never scrolls
  const last = steps.last();
  await last.evaluate((el) => el.closest('[data-testid="transcript"]')!.scrollTo({ top: (el as HTMLElement).offsetTop }));
  await last.getByRole('button', { name: /^Play step \d+ in the video$/ }).click();
  await expect(last).toHaveAttribute('aria-current', 'step');
  await windowStill(page);
  await last.getByRole('button', { name: /^Pin a note to step/ }).click();
  await expect(page.getByRole('textbox', { name: 'Evidence note' })).toBeFocused();
  await windowStill(page);
  await reviewLayoutHolds(page);
  await page.keyboard.press('Escape');

  await page.setViewportSize({ width: 1920, height: 1080 });
  await reviewLayoutHolds(page);
  await screenshot(page, 'review-page-1920');
  await page.setViewportSize({ width: 1440, height: 900 });
  await reviewLayoutHolds(page);
  await screenshot(page, 'review-page-1440');
});

test('the compare page: one large player switching runs, both transcripts and the form on one screen', async ({ page }) => {
  test.setTimeout(240_000);
  const { ensureProject } = await import('../lib/trajectories/queries/projects');
  const { saveRubricVersion } = await import('../lib/campaigns/save-rubric-version');
  const { createCampaign } = await import('../lib/campaigns/create-campaign');
  const slug = uniqueName('e2e-compare-screen');
  const task = uniqueName('hoop');
  const message = (i: number) =>
    `The bead on the hoop: with $\\omega^2 > g/R$ the off-axis equilibria $\\cos\\theta = g/(\\omega^2 R)$ appear (run ${i}).`;
  for (const i of [0, 1])
    await storeTrajectoryDirect(
      slug,
      buildTrajectory({
        format: 'openai',
        task: { name: task, instruction: 'Find the equilibria of a bead on a hoop rotating at $\\omega$.' },
        policy: { model: uniqueName(`policy${i}`) },
        steps: [
          { source: 'user', text: 'Find the equilibria and their stability.' },
          { source: 'agent', text: message(i) },
          { source: 'agent', text: `So $\\theta = 0$ is stable only for $\\omega^2 < g/R$ (run ${i}).` },
        ],
      }),
    );
  const project = await ensureProject({ slug, name: slug });
  const version = await saveRubricVersion(project.id, uniqueName('rubric'), demoRubric, null);
  const name = uniqueName('Compare on one screen');
  await createCampaign(
    project.id,
    { name, mode: 'pairwise', rubricVersionId: version.versionId, overlap: 1, minCoverage: 0.5, coverageBasis: 'either' },
    null,
  );
  const reviewer = await seedUser('reviewer');
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, reviewer);
  await takeNext(page, name);

  const left = page.getByTestId('side-left').getByTestId('trajectory-player');
  const right = page.getByTestId('side-right').getByTestId('trajectory-player');
  await expect(left).toBeVisible();
  await expect(right).toBeHidden();
  const checkScreen = async () => {
    console.log(
      JSON.stringify(
        await page.evaluate(() =>
          [
            '[role="toolbar"]',
            '[data-shown] [data-testid="trajectory-player"]',
            '[data-testid="side-left"] [data-testid="transcript"]',
            'aside',
          ].map((sel) => {
            const r = document.querySelector(sel)!.getBoundingClientRect();
            return `${sel}: y ${Math.round(r.top)}-${Math.round(r.bottom)} x ${Math.round(r.left)}-${Math.round(r.right)}`;
          }),
        ),
      ),
    );
    const shown = page.locator('[data-shown] [data-testid="trajectory-player"]');
    await inViewport(page, shown);
    for (const side of ['left', 'right']) await inViewport(page, page.getByTestId(`side-${side}`).getByTestId('transcript'), 150);
    await inViewport(page, page.getByRole('radiogroup', { name: 'Preference' }));
    await inViewport(page, page.getByRole('textbox', { name: /Rationale/ }));
    await inViewport(page, page.getByRole('button', { name: /Submit|to submit/ }));
    await windowStill(page);
  };
  await checkScreen();

  // the video's main card text: the agent's message on its step card, measured where the Player draws it
  await page.keyboard.press(']');
  await page.keyboard.press(']');
  await expect(left.getByText(/off-axis equilibria/).first()).toBeVisible({ timeout: 20_000 });
  const texts = await playerText(left.locator('[aria-label^="Proof-of-work video"]'));
  // the sentence is drawn twice: the step card's message (the main text) and the progress rail's one-line label under it
  const drawn = texts.filter((t) => t.text.includes('off-axis equilibria')).sort((a, b) => b.px - a.px);
  expect(drawn.length).toBeGreaterThan(0);
  const card = drawn[0]!;
  expect(card.px, `the card's message "${card.text.slice(0, 40)}" at ${card.px.toFixed(1)} px`).toBeGreaterThanOrEqual(12);
  const smallest = [...texts].sort((a, b) => a.px - b.px).slice(0, 5);
  test.info().annotations.push({
    type: 'player text',
    description: `card message ${card.px.toFixed(1)} px; smallest: ${smallest.map((t) => `"${t.text.slice(0, 24)}" ${t.px.toFixed(1)} px`).join('; ')}`,
  });
  console.log(test.info().annotations.at(-1)!.description);
  await screenshot(page, 'compare-page-1440');

  // v (or the toolbar) shows the other run: each keeps its own place
  const leftTime = await page.getByTestId('side-left').getByTestId('player-time').innerText();
  await page.keyboard.press('v');
  await expect(right).toBeVisible();
  await expect(left).toBeHidden();
  await expect(page.getByRole('button', { name: /Right run/ })).toHaveAttribute('aria-pressed', 'true');
  await checkScreen();
  await page.getByRole('button', { name: /Left run/ }).click();
  await expect(left).toBeVisible();
  expect(await page.getByTestId('side-left').getByTestId('player-time').innerText()).toBe(leftTime);
  // seek both still moves both
  await page.getByLabel('Seek both videos').fill('2');
  await expect(page.getByTestId('side-left').getByTestId('player-time')).toContainText('0:02');
  await expect(page.getByTestId('side-right').getByTestId('player-time')).toContainText('0:02');

  await page.setViewportSize({ width: 1920, height: 1080 });
  await checkScreen();
  await screenshot(page, 'compare-page-1920');
});
