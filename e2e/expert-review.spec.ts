import { expect, test, type Page } from '@playwright/test';
import { buildTrajectory } from '../lib/formats/build-trajectory';
import { demoRubric } from './fixtures/campaigns';
import { seedDemoCampaignsInto } from './fixtures/lead-campaigns';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';
import { storeTrajectoryDirect, uniqueName } from './fixtures/trajectories';

/** The demo physicist (prisma/seed/demo-users.ts). */
const PHYSICIST = { email: 'physicist@witness.local', password: 'witness-demo-physics' };

async function campaignWith(options: {
  mode: 'single' | 'pairwise';
  coverageBasis: 'video' | 'transcript' | 'either';
  minCoverage: number;
  runs: Array<Array<{ source: 'user' | 'agent'; text: string }>>;
}) {
  const { ensureProject } = await import('../lib/trajectories/queries/projects');
  const { saveRubricVersion } = await import('../lib/campaigns/save-rubric-version');
  const { createCampaign } = await import('../lib/campaigns/create-campaign');
  const slug = uniqueName('e2e-expert');
  const task = uniqueName('pendulum');
  for (const [i, steps] of options.runs.entries()) {
    await storeTrajectoryDirect(
      slug,
      buildTrajectory({
        format: 'openai',
        task: {
          name: options.mode === 'pairwise' ? task : `${task}-${i}`,
          instruction: 'Find the period $T$ of a pendulum of length $\\ell$.',
          acceptanceCriteria: [{ key: 'period', text: 'Gets $T = 2\\pi\\sqrt{\\ell/g}$', origin: 'task', verdict: null }],
        },
        policy: { model: uniqueName(`policy${i}`) },
        steps,
      }),
    );
  }
  const project = await ensureProject({ slug, name: slug });
  const version = await saveRubricVersion(project.id, uniqueName('rubric'), demoRubric, null);
  const name = uniqueName(options.mode === 'pairwise' ? 'Compare derivations' : 'Read derivations');
  const campaign = await createCampaign(
    project.id,
    {
      name,
      mode: options.mode,
      rubricVersionId: version.versionId,
      overlap: 1,
      minCoverage: options.minCoverage,
      coverageBasis: options.coverageBasis,
    },
    null,
  );
  return { id: campaign.id, name };
}

async function takeNext(page: Page, campaignName: string) {
  await page.goto('/review');
  await page.getByTestId('queue').filter({ hasText: campaignName }).first().getByRole('button', { name: 'Next item' }).click();
  await expect(page).toHaveURL(/\/review\/(items|compare)\/[^/]+$/);
}

const derivation = [
  { source: 'user' as const, text: 'Derive the period of a simple pendulum.' },
  {
    source: 'agent' as const,
    text: '**Equations of motion.** Torque about the pivot:\n$$\nm\\ell^2\\ddot\\theta = -mg\\ell\\sin\\theta\n$$\nFor small angles $\\sin\\theta \\approx \\theta$.',
  },
  {
    source: 'agent' as const,
    text: 'So $\\ddot\\theta + \\frac{g}{\\ell}\\theta = 0$, hence\n\\[T = 2\\pi\\sqrt{\\ell/g}.\\]\nCheck: `echo $HOME` costs $5.',
  },
];

test('the demo physicist reads typeset maths everywhere on the physics item, and a transcript step seeks the video', async ({ page }) => {
  test.setTimeout(240_000);
  await seedDemoCampaignsInto(uniqueName('demo-physics'));
  await signIn(page, PHYSICIST);
  await takeNext(page, 'Physics derivations: expert check');

  const task = page.locator('section[aria-labelledby="task-title"]');
  // instruction and criteria chips: maths typeset, no TeX source or dollars left
  await expect(task.locator('.katex').first()).toBeVisible();
  await expect(task.locator('ul[aria-label="Acceptance criteria"] .katex').first()).toBeVisible();
  expect(await task.locator('.katex-html').first().innerText()).not.toContain('\\');
  // the rubric's per-criterion labels
  await expect(page.locator('[data-criterion] .katex').first()).toBeVisible();
  // the transcript beside the player (the review page's list of steps: no separate chapter list)
  const transcript = page.getByTestId('transcript');
  await expect(transcript.locator('.katex').first()).toBeVisible();
  const steps = transcript.locator('[data-transcript-step]');
  expect(await steps.count()).toBeGreaterThanOrEqual(3);
  for (const where of [task, page.locator('[data-criterion]').first(), transcript])
    expect(
      await where.evaluate((el) =>
        [...el.querySelectorAll(':not(annotation)')].some((n) => /\$[^$\s]/.test(n.textContent ?? '') && n.children.length === 0),
      ),
    ).toBe(false);
  await screenshot(page, 'expert-review-physics');

  // clicking a step seeks the video to it: the player's frame moves and the step becomes the current one
  const last = steps.last();
  const index = await last.getAttribute('data-transcript-step');
  // (people count steps from 1: step index 3 is "step 4")
  await last.getByRole('button', { name: `Play step ${Number(index) + 1} in the video` }).click();
  await expect(last).toHaveAttribute('aria-current', 'step');
  await expect(page.getByTestId('player-time')).not.toContainText('frame 0');
  // ...and a note pinned from a step is anchored to that step
  await steps
    .first()
    .getByRole('button', { name: /Pin a note to step/ })
    .click();
  await page.getByRole('textbox', { name: 'Evidence note' }).fill('Sets up the equation of motion');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('evidence-list')).toContainText('Sets up the equation of motion');
  await expect(page.getByTestId('evidence-list')).toContainText(`#${Number(await steps.first().getAttribute('data-transcript-step')) + 1}`);
  await screenshot(page, 'expert-review-physics-seeked');
});

test('reading the transcript meets a transcript-coverage campaign without playing the video', async ({ page }) => {
  const campaign = await campaignWith({ mode: 'single', coverageBasis: 'transcript', minCoverage: 1, runs: [derivation] });
  const reviewer = await seedUser('reviewer');
  await signIn(page, reviewer);
  await takeNext(page, campaign.name);
  await expect(page.getByRole('button', { name: /^Read \d+% more to submit$/ })).toBeDisabled();
  const transcript = page.getByTestId('transcript');
  // every step in view long enough to read it (a display equation takes a few seconds), one after another
  // (lib/review/transcript-reading.ts: a reader reads one step at a time), the reviewer present (the pointer on it)
  for (const [i, step] of (await transcript.locator('[data-transcript-step]').all()).entries()) {
    await step.scrollIntoViewIfNeeded();
    await step.hover();
    await expect(page.getByTestId('transcript-read')).toContainText(`${i + 1} of 3 steps read`, { timeout: 30_000 });
  }
  await expect(page.getByTestId('coverage')).toContainText('Read 100% of the transcript');
  expect(await page.getByTestId('player-time').innerText()).toContain('frame 0');

  await page.locator('[data-criterion] button', { hasText: 'pass' }).click();
  await page.getByRole('radio', { name: /^4$/ }).click();
  await page.getByRole('radio', { name: /Merge/ }).click();
  await screenshot(page, 'expert-review-transcript-coverage');
  await page.getByRole('button', { name: 'Submit (Ctrl+Enter)' }).click();
  await expect(page).toHaveURL(/\/review\?done=/);

  const { db } = await import('../lib/db/client');
  const review = await db().review.findFirstOrThrow({
    where: { assignment: { item: { campaignId: campaign.id } } },
    select: { coverage: true },
  });
  expect(review.coverage).toMatchObject({ basis: 'transcript', share: 1, transcriptSteps: [0, 1, 2], totalSteps: 3, videoShare: 0 });
});

test('the compare page shows both transcripts with the first divergent step marked', async ({ page }) => {
  const same = derivation.slice(0, 2);
  const campaign = await campaignWith({
    mode: 'pairwise',
    coverageBasis: 'either',
    minCoverage: 0.5,
    runs: [
      [...same, derivation[2]!],
      [...same, { source: 'agent', text: 'By dimensional analysis alone, $T \\propto \\sqrt{\\ell/g}$; I take the constant as $1$.' }],
    ],
  });
  const reviewer = await seedUser('reviewer');
  await signIn(page, reviewer);
  await takeNext(page, campaign.name);
  for (const side of ['left', 'right']) {
    const transcript = page.getByTestId(`side-${side}`).getByTestId('transcript');
    await expect(transcript.locator('[data-transcript-step]')).toHaveCount(3);
    await expect(transcript.locator('.katex').first()).toBeVisible();
    // steps 0 and 1 are the same in both runs; step 2 is where they part
    await expect(transcript.getByTestId('divergence')).toHaveCount(1);
    await expect(transcript.locator('[data-transcript-step="2"]').getByTestId('divergence')).toBeVisible();
  }
  await screenshot(page, 'expert-review-compare');
});
