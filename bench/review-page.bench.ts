import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { claimNextItem } from '../lib/review/claim-next-item';
import { disconnectDb } from '../lib/db/client';
import { createCampaign } from '../lib/campaigns/create-campaign';
import { startEmbeddedPostgres } from '../lib/db/embedded-postgres';
import { freePort } from './free-port';
import { migrateDatabase } from '../lib/migrate-database';
import { ensureProject } from '../lib/trajectories/queries/projects';
import { saveRubricVersion } from '../lib/campaigns/save-rubric-version';
import { storeTrajectory } from '../lib/ingest/store-trajectory';
import { ensureFirstMemberships } from '../lib/auth/queries/memberships';
import { ensureUser } from '../lib/auth/create-user';
import { setEnv } from '../lib/env';
import { buildTrajectory } from '../lib/formats/build-trajectory';
import type { Step } from '../lib/formats/trajectory';
import { prepareTrajectory } from '../lib/ingest/prepare-trajectory';
import type { BenchFigure } from './figure';
import { launchBenchChromium, startBenchStudio, stopBenchStudio, untilHealthy } from './bench-studio';

/**
 * The review page's time to interactive with a 200-step trajectory (every step in the blind
 * transcript, rendered whole and typeset as it comes near the view, the video player beside it on
 * one screen at 1440x900, checked before measuring;
 * then, separately, until its video plays after a click on play), against the production build in
 * Debian's Chromium. Time to interactive = from navigation until the last transcript step is
 * on the page and hydrated (React has attached its handlers: a click would seek; the Player's code
 * may still be loading, in a poster of its size, which is checked to move nothing). Beside it, in
 * the same run and measured the same way, the sign-in page of the same build (a static page:
 * one form). Median of RUNS cold navigations each, same browser, same session.
 */
const GROUP = 'review';
const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, '.data', 'bench-review-page');
const STEPS = 200;
const RUNS = Number(process.env.BENCH_REVIEW_PAGE_RUNS ?? 5);
const log = (line: string) => process.stderr.write(`  [review-page] ${line}\n`);

function derivationSteps(): Array<Partial<Step> & Pick<Step, 'source' | 'text'>> {
  const steps: Array<Partial<Step> & Pick<Step, 'source' | 'text'>> = [
    { source: 'user', text: 'Derive the stability of the rotating hoop.' },
  ];
  for (let i = 1; steps.length < STEPS; i++) {
    steps.push({
      source: 'agent',
      text: `**Step ${i}.** With $\\omega_${i}^2 = g/R$ the equation of motion is\n$$\n\\ddot\\theta = \\sin\\theta\\,(\\omega^2\\cos\\theta - g/R) + ${i}\\epsilon\n$$\nso the equilibria are $\\theta = 0$ and $\\cos\\theta = g/(\\omega^2 R)$.\n\n| case | stable |\n|---|---|\n| $\\omega^2 < g/R$ | $\\theta = 0$ |`,
      reasoning: `I should check the sign of the second derivative at step ${i}.\nThen compare with the small-angle limit.\nAnd the limit of fast rotation.\nFinally write it up.`,
      toolCalls: [
        {
          id: `c${i}`,
          name: 'python',
          arguments: { code: `import sympy as sp\ntheta = sp.symbols('theta')\nprint(sp.diff(sp.sin(theta), theta, ${i % 3}))` },
        },
      ],
    });
    if (steps.length < STEPS)
      steps.push({
        source: 'tool',
        text: '',
        observations: [
          { toolCallId: `c${i}`, content: Array.from({ length: 30 }, (_, k) => `out ${i}.${k}: cos(theta)`).join('\n'), isError: false },
        ],
      });
  }
  return steps;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export async function run(): Promise<BenchFigure[]> {
  await rm(dataDir, { recursive: true, force: true });
  const dbPort = await freePort();
  const port = await freePort();
  const postgres = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg'), port: dbPort });
  let studio: ChildProcess | undefined;
  const browser = await launchBenchChromium();
  try {
    await migrateDatabase(postgres.url);
    setEnv('DATABASE_URL', postgres.url);
    const project = await ensureProject({ slug: 'tti', name: 'Review page TTI' });
    const trajectory = buildTrajectory({
      format: 'openai',
      task: { name: 'rotating-hoop', instruction: 'A bead on a hoop rotating at $\\omega$: find the equilibria and their stability.' },
      policy: { model: 'bench-model' },
      steps: derivationSteps(),
    });
    await storeTrajectory(project.id, prepareTrajectory(trajectory), { source: null, sourceWhere: null, importedById: null });
    const version = await saveRubricVersion(
      project.id,
      'tti',
      { title: 'Grade', questions: [{ id: 'overall', type: 'likert', prompt: 'Overall', points: 5 }] },
      null,
    );
    const campaign = await createCampaign(
      project.id,
      { name: 'tti', mode: 'single', rubricVersionId: version.versionId, overlap: 1, coverageBasis: 'either', open: true },
      null,
    );
    const password = 'bench-review-page-password';
    const { user } = await ensureUser({ email: 'tti@bench.local', name: 'TTI', role: 'reviewer', password, expertise: [] });
    // a reviewer reaches only the projects they belong to (issue 14): without this the page is a 404
    await ensureFirstMemberships(user.id, [{ projectId: project.id, role: 'reviewer' }]);
    const claim = (await claimNextItem(campaign.id, { id: user.id, expertise: [] }, new Date()))!;

    studio = startBenchStudio({ port, databaseUrl: postgres.url, dataDir, worker: true });
    const base = `http://localhost:${port}`;
    await untilHealthy(base, studio);
    const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill('tti@bench.local');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/sign-in'));

    /** ms from navigation start until `selector` is on the page and hydrated */
    const tti = async (url: string, selector: string): Promise<number> => {
      await page.goto('about:blank');
      const t0 = Date.now();
      await page.goto(url, { waitUntil: 'commit' });
      await page.waitForFunction(
        (sel) => {
          const el = document.querySelector(sel);
          return el !== null && Object.keys(el).some((k) => k.startsWith('__reactProps$'));
        },
        selector,
        { timeout: 120_000, polling: 16 },
      );
      return Date.now() - t0;
    };
    const reviewUrl = `/review/items/${claim.assignmentId}`;
    const lastStep = `[data-transcript-step="${STEPS - 1}"]`;
    // one warm-up of each (compiles nothing in production, but fills the server's caches as a real session would)
    await tti(reviewUrl, lastStep);
    // the Player's code loads once the page is interactive (components/video/deferred-player.tsx), a poster of
    // its size in its place until then: the transcript beside it must not move when it arrives
    const transcriptBox = () =>
      page.evaluate(() => {
        const r = document.querySelector('[data-testid="transcript"]')?.getBoundingClientRect();
        return r ? [r.top, r.left, r.width, r.height].map(Math.round).join(',') : null;
      });
    const beforePlayer = await transcriptBox();
    await page.waitForSelector('[data-testid="trajectory-player"]', { timeout: 30_000 });
    const afterPlayer = await transcriptBox();
    if (beforePlayer !== afterPlayer)
      throw new Error(`review page: the transcript moved when the Player loaded (top,left,width,height ${beforePlayer} -> ${afterPlayer})`);
    // the layout measured is the one a reviewer reads in (issue 43 §2): at 1440x900 the player and the
    // transcript are side by side on one screen, the page itself does not scroll
    // (no named functions inside: tsx would wrap them in a helper the page does not have)
    const layout = await page.evaluate(() => {
      const player = document.querySelector('[data-testid="trajectory-player"]')?.getBoundingClientRect() ?? null;
      const transcript = document.querySelector('[data-testid="transcript"]')?.getBoundingClientRect() ?? null;
      return {
        player: player !== null && player.top >= 0 && player.bottom <= innerHeight,
        transcript: transcript !== null && transcript.top < innerHeight - 150 && transcript.bottom <= innerHeight,
        scrolls: document.scrollingElement!.scrollHeight > innerHeight,
      };
    });
    if (!layout.player || !layout.transcript || layout.scrolls)
      throw new Error(
        `review page at 1440x900: the player and the transcript are not both in view on one screen (${JSON.stringify(layout)})`,
      );
    await tti('/sign-in', 'button[type="submit"]');
    const review: number[] = [];
    const statik: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      review.push(await tti(reviewUrl, lastStep));
      statik.push(await tti('/sign-in', 'button[type="submit"]'));
    }
    /** ms from navigation until the Player is hydrated, play is clicked and its time moves */
    const playing = async (url: string): Promise<number> => {
      await page.goto('about:blank');
      const t0 = Date.now();
      await page.goto(url, { waitUntil: 'commit' });
      await page.waitForFunction(
        () => {
          const el = document.querySelector('[data-testid="trajectory-player"] select[aria-label="Playback speed"]');
          return el !== null && Object.keys(el).some((k) => k.startsWith('__reactProps$'));
        },
        null,
        { timeout: 120_000, polling: 16 },
      );
      const before = await page.getByTestId('player-time').textContent();
      await page.locator('[data-testid="trajectory-player"] button[aria-label="Play video"]').first().click(); // CSS: a role query computes the accessible name of every element (seconds on a long page)
      await page.waitForFunction((b) => document.querySelector('[data-testid="player-time"]')?.textContent !== b, before, {
        timeout: 120_000,
        polling: 16,
      });
      return Date.now() - t0;
    };
    const plays: number[] = [];
    for (let i = 0; i < RUNS; i++) plays.push(await playing(reviewUrl));
    const html = await (await context.request.get(reviewUrl)).text();
    const elements = await page.evaluate(() => document.querySelectorAll('*').length);
    log(
      `review page: video playing at ${plays.join(', ')} ms; ${(html.length / 1024).toFixed(0)} KB of HTML, ${elements} elements once loaded`,
    );
    await page.goto(reviewUrl);
    await page.waitForSelector(lastStep);
    // steps are typeset as they come near the view (blind-transcript.tsx): the first ones at once, the last after scrolling to it
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="transcript"] .katex').length > 0, null, { timeout: 30_000 });
    const typeset = await page.locator('[data-testid="transcript"] .katex').count();
    await page.locator(lastStep).scrollIntoViewIfNeeded();
    const lastAgent = `${lastStep} .katex`; // the last step is an agent step with maths
    await page.locator(lastAgent).first().waitFor({ timeout: 30_000 });
    log(
      `review page: ${review.join(', ')} ms; sign-in: ${statik.join(', ')} ms; ${typeset} formulas typeset in view on load, the last steps typeset once scrolled to`,
    );
    return [
      {
        group: GROUP,
        name: `review page time to interactive, ${STEPS}-step trajectory, transcript beside the player at 1440x900 (median of ${RUNS})`,
        value: median(review),
        unit: 'ms',
        higherIsBetter: false,
        comparator: { name: 'sign-in page (static, same build)', value: median(statik) },
        goal: '<= 1.5x sign-in page',
      },
      {
        group: GROUP,
        name: `review page, ${STEPS}-step trajectory: navigation until its video plays (median of ${RUNS})`,
        value: median(plays),
        unit: 'ms',
        higherIsBetter: false,
        comparator: { name: 'sign-in page time to interactive (static, same build)', value: median(statik) },
        goal: '<= 1000 ms',
      },
    ];
  } finally {
    await browser.close();
    await stopBenchStudio(studio);
    await disconnectDb();
    await postgres.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
