import { expect, test, type Locator, type Page } from '@playwright/test';
import { demoRubric } from './fixtures/campaigns';
import { everyChapterRun } from './fixtures/every-chapter';
import { playerText, type PlayerText } from './fixtures/player-text';
import { oneTeam } from './fixtures/seed'; // also points DATABASE_URL at the e2e database before lib/db loads
import { screenshot, signIn } from './fixtures/sign-in';
import { storeTrajectoryDirect, uniqueName } from './fixtures/trajectories';
import { pageAt, stepCardPages } from '../lib/video/card-pages';
import type { Scene, TrajectoryVideoProps } from '../lib/video/schema';

/*
 * Issue 43 §2 in the browser: every text of the proof-of-work video is at least 12 px on screen,
 * in the review page's player and in the compare page's, at 1440x900, in every chapter (title,
 * steps, terminal, diff, derivation, result, outcome). Maths scripts are held to TeX's own ratios
 * of that floor: a script (KaTeX's scriptstyle, 70% of its formula) at least 8.4 px, a script of a
 * script (50%) at least 6 px, i.e. every formula's base size is at least 12 px.
 */

/** The demo physicist (prisma/seed/demo-users.ts). */
const PHYSICIST = { email: 'physicist@witness.local', password: 'witness-demo-physics' };
const FLOOR_PX = 12;
/** TeX's smallest style (scriptscriptstyle) is half its formula's size */
const SMALLEST_MATHS_RATIO = 0.5;

/** A project of the physicist's with the every-chapter runs in it, and a read-paced campaign over them. */
async function campaignOver(mode: 'single' | 'pairwise', runs: number): Promise<{ name: string; trajectoryIds: string[] }> {
  const { ensureProject } = await import('../lib/trajectories/queries/projects');
  const { ensureUser } = await import('../lib/auth/create-user');
  const { demoUsers } = await import('../prisma/seed/demo-users');
  const { saveRubricVersion } = await import('../lib/campaigns/save-rubric-version');
  const { createCampaign } = await import('../lib/campaigns/create-campaign');
  const { db } = await import('../lib/db/client');
  const slug = uniqueName(`e2e-type-${mode}`);
  const task = uniqueName('hoop');
  const trajectoryIds: string[] = [];
  for (let i = 0; i < runs; i++) trajectoryIds.push(await storeTrajectoryDirect(slug, everyChapterRun(task, uniqueName(`policy${i}`), i)));
  const project = await ensureProject({ slug, name: slug });
  await oneTeam();
  const { user } = await ensureUser(demoUsers.find((u) => u.email === PHYSICIST.email)!);
  await db().projectMember.createMany({ data: [{ projectId: project.id, userId: user.id, role: 'reviewer' }], skipDuplicates: true });
  const version = await saveRubricVersion(project.id, uniqueName('rubric'), demoRubric, null);
  const name = uniqueName(`Type size ${mode}`);
  await createCampaign(
    project.id,
    {
      name,
      mode,
      rubricVersionId: version.versionId,
      overlap: 1,
      minCoverage: 0.5,
      coverageBasis: 'either',
      requiredExpertise: ['physics'],
      blind: { hidePolicy: false, hideReward: false },
      pacing: 'read',
    },
    null,
  );
  return { name, trajectoryIds };
}

async function takeNext(page: Page, campaignName: string): Promise<void> {
  await page.goto('/review');
  await page.getByTestId('queue').filter({ hasText: campaignName }).first().getByRole('button', { name: 'Next item' }).click();
  await expect(page).toHaveURL(/\/review\/(items|compare)\/[^/]+$/);
}

/** The chapters measured: the frames of a scene to measure in (past its fade-in), and what on the frame says it is that chapter. */
function chapterWindows(props: TrajectoryVideoProps): Array<{ chapter: string; from: number; to: number; shows: string }> {
  const find = (kind: Scene['kind'], pick: (s: Scene) => boolean = () => true) => props.scenes.find((s) => s.kind === kind && pick(s))!;
  const window = (s: Scene, k: number, chapter: string, shows: string) => ({
    chapter,
    from: s.from + Math.max(12, Math.round(s.duration * k)),
    to: s.from + s.duration - 2,
    shows,
  });
  const reasoning = find('step', (s) => s.kind === 'step' && s.cards.length === 1 && s.cards[0]!.card.reasoning !== null);
  // the frames of the card that show its program (the card's pages, as the composition pages it)
  const entry = reasoning.kind === 'step' ? reasoning.cards[0]! : null;
  const pages = stepCardPages(entry!.card);
  const program = Array.from({ length: entry!.duration }, (_, i) => entry!.from + i).filter((f) =>
    pages[pageAt(pages, f, entry!.from, entry!.duration)]!.blocks.some((b) => b.kind === 'call'),
  );
  return [
    window(find('title'), 0.2, 'title', '[data-title-page]'),
    window(reasoning, 0, 'step-reasoning', '[data-reasoning-part]'),
    { chapter: 'step-program', from: program[0]! + 12, to: program.at(-1)!, shows: '[data-language="python"]' },
    window(find('terminal'), 0.7, 'terminal', 'text=/Terminal · step/'),
    window(find('diff'), 0.2, 'diff', '[data-diff-page]'),
    window(find('derivation'), 0.5, 'derivation', 'text=/derivation · equation/'),
    window(find('result'), 0.5, 'result', 'text=/boxed result/'),
    window(find('closing'), 0.5, 'outcome', 'text=/Exit status/i'),
  ];
}

/** where the review page's step keys land in a chapter (components/video/trajectory-player.tsx readableFrame) */
const readableFrame = (c: TrajectoryVideoProps['chapters'][number]) =>
  c.fromFrame + Math.min(10, Math.floor((c.toFrame - c.fromFrame) / 2));
/** the review page's J and L keys: 5 s */
const KEY_FRAMES = 150;

/**
 * A frame in [from, to] the review page's keys reach: the start (J pressed to the start) or a
 * chapter's readable frame (] pressed from the start), then L pressed `presses` times.
 */
function reachable(props: TrajectoryVideoProps, from: number, to: number): { chapter: number; presses: number; frame: number } {
  const starts = [{ chapter: -1, frame: 0 }, ...props.chapters.map((c, i) => ({ chapter: i, frame: readableFrame(c) }))].sort(
    (a, b) => b.frame - a.frame,
  );
  for (const s of starts) {
    if (s.frame > to) continue;
    const presses = Math.max(0, Math.ceil((from - s.frame) / KEY_FRAMES));
    if (s.frame + presses * KEY_FRAMES <= to) return { chapter: s.chapter, presses, frame: s.frame + presses * KEY_FRAMES };
  }
  throw new Error(`no frame in ${from}-${to} is reached by the keys`);
}

/** Seeks the review page's player with its keys (J to the start, ] a chapter on, L 5 s on). */
async function seekReview(page: Page, props: TrajectoryVideoProps, from: number, to: number): Promise<number> {
  const time = page.getByTestId('player-time');
  const target = reachable(props, from, to);
  const now = async () => Number((await time.innerText()).match(/frame (\d+)/)![1]);
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  for (let f = await now(); f > 0; f = await now()) await page.keyboard.press('j');
  for (let i = 0; i <= target.chapter; i++) await page.keyboard.press(']');
  for (let i = 0; i < target.presses; i++) await page.keyboard.press('l');
  await expect(time).toContainText(`frame ${target.frame}`);
  return target.frame;
}

/** What is under the floor: prose under 12 px, maths under 12 px times its TeX ratio (scripts 8.4 px, scripts of scripts 6 px). */
function underFloor(texts: PlayerText[]): PlayerText[] {
  return texts.filter((t) =>
    t.mathsRatio === null
      ? t.px < FLOOR_PX - 0.05
      : t.px < FLOOR_PX * Math.max(SMALLEST_MATHS_RATIO, Math.min(1, t.mathsRatio)) - 0.05 || t.mathsRatio < SMALLEST_MATHS_RATIO - 0.01,
  );
}

const smallest = (texts: PlayerText[], maths: boolean) =>
  texts.filter((t) => (t.mathsRatio !== null) === maths).sort((a, b) => a.px - b.px)[0] ?? null;
const describe = (t: PlayerText | null) => (t ? `"${t.text.slice(0, 30)}" ${t.px.toFixed(1)} px` : '—');

/** Measures one chapter's frame in a player; returns the failures as lines. */
async function measure(page: Page, player: Locator, where: string, chapter: string, shows: string): Promise<string[]> {
  await expect(player.locator(shows).first()).toBeVisible({ timeout: 20_000 });
  // the frame's fade-in (at most 10 frames) is over at the frames chosen; fonts are loaded before a frame draws
  await page.waitForTimeout(300);
  const texts = await playerText(player);
  expect(texts.length, `${where} ${chapter}: text drawn`).toBeGreaterThan(0);
  const prose = smallest(texts, false);
  const maths = smallest(texts, true);
  const line = `${where} ${chapter}: smallest text ${describe(prose)}; smallest maths ${describe(maths)}${maths ? ` (ratio ${maths.mathsRatio!.toFixed(2)})` : ''} [${texts
    .filter((t) => t.px < FLOOR_PX)
    .map((t) => `${t.text.slice(0, 16)} ${t.font}px×${t.scale.toFixed(3)} ${t.tag}`)
    .join(' | ')}]`;
  test.info().annotations.push({ type: 'type size', description: line });
  console.log(line);
  await screenshot(page, `video-type-${where}-${chapter}`);
  return underFloor(texts).map(
    (t) =>
      `${where} ${chapter}: "${t.text.slice(0, 40)}" at ${t.px.toFixed(1)} px${t.mathsRatio !== null ? ` (maths, ratio ${t.mathsRatio.toFixed(2)})` : ''}`,
  );
}

test('every chapter of the video is at least 12 px on screen in the review player and the compare player', async ({ page }) => {
  test.setTimeout(360_000);
  const { videoPropsFor } = await import('../lib/video/video-props-for');
  const single = await campaignOver('single', 1);
  const pair = await campaignOver('pairwise', 2);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, PHYSICIST);
  const failures: string[] = [];

  // the review page
  await takeNext(page, single.name);
  const reviewProps = await videoPropsFor(single.trajectoryIds[0]!, { hidePolicy: false, hideReward: false }, 'read');
  const reviewPlayer = page.getByLabel(/^Proof-of-work video/);
  await expect(reviewPlayer).toBeVisible({ timeout: 30_000 });
  const width = (await reviewPlayer.boundingBox())!.width;
  console.log(`review player ${width.toFixed(0)} px wide (scale ${(width / 1280).toFixed(3)})`);
  for (const c of chapterWindows(reviewProps)) {
    await seekReview(page, reviewProps, c.from, c.to);
    failures.push(...(await measure(page, reviewPlayer, 'review', c.chapter, c.shows)));
  }

  // the compare page: one large player, the left run's (both runs have the same chapters at the same frames)
  await takeNext(page, pair.name);
  const compareProps = await videoPropsFor(pair.trajectoryIds[0]!, { hidePolicy: false, hideReward: false }, 'read');
  const left = page.getByTestId('side-left').getByLabel(/^Proof-of-work video/);
  await expect(left).toBeVisible({ timeout: 30_000 });
  const compareWidth = (await left.boundingBox())!.width;
  console.log(`compare player ${compareWidth.toFixed(0)} px wide (scale ${(compareWidth / 1280).toFixed(3)})`);
  for (const c of chapterWindows(compareProps)) {
    const seconds = Math.ceil(c.from / compareProps.fps);
    expect(seconds * compareProps.fps, `${c.chapter}: a whole second inside the scene`).toBeLessThanOrEqual(c.to);
    await page.getByLabel('Seek both videos').fill(String(seconds));
    await expect(page.getByTestId('side-left').getByTestId('player-time')).toContainText(`frame ${seconds * compareProps.fps}`);
    failures.push(...(await measure(page, left, 'compare', c.chapter, c.shows)));
  }

  expect(failures, failures.join('\n')).toEqual([]);
});
