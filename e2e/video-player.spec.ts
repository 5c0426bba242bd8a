import { expect, test } from '@playwright/test';
import { harborImporter } from '../lib/formats/harbor';
import { dirSource } from '../lib/formats/source';
import type { Trajectory } from '../lib/formats/trajectory';
import { storeTrajectoryDirect, uniqueName } from './fixtures/trajectories';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';

async function harborTrajectory(): Promise<Trajectory> {
  for await (const item of harborImporter.parse({ kind: 'dir', dir: dirSource('lib/formats/fixtures/harbor/trial-basic') })) {
    if (item.ok) return item.trajectory;
  }
  throw new Error('fixture did not parse');
}

test('the trajectory page plays its video at once; steps and chapters seek the player both ways', async ({ page }) => {
  const lead = await seedUser('lead');
  const id = await storeTrajectoryDirect(uniqueName('video'), await harborTrajectory());
  await signIn(page, lead);
  await page.goto(`/trajectories/${id}`);
  const player = page.getByTestId('trajectory-player');
  await expect(player).toBeVisible();
  const time = page.getByTestId('player-time');
  await expect(time).toContainText('frame 0');

  // plays without any render: the frame counter moves
  await player.getByLabel(/Proof-of-work video/).focus();
  await page.keyboard.press('k');
  await expect(time).toContainText(/frame [1-9]\d*/, { timeout: 10_000 });
  await page.keyboard.press('k');

  // transcript step -> player: seek to that step's chapter, which highlights
  const chapters = page.getByRole('navigation', { name: 'Steps in the video' });
  // steps are counted from 1 on the page as in the video: step index 2 is "#3"
  await page.getByRole('button', { name: 'Play step 3 in the video' }).click();
  const active = chapters.locator('[aria-current="step"]');
  await expect(active).toContainText('#3');
  // ...and the video's own card says the same number
  await expect(player.getByText(/^Step 3 of 4$/)).toBeVisible();
  const frameAtStep2 = Number((await time.textContent())!.match(/frame (\d+)/)![1]);
  expect(frameAtStep2).toBeGreaterThan(0);

  // chapter list -> player, and the keyboard's next-step key
  await chapters.getByRole('button').filter({ hasText: '#1' }).click();
  await expect(active).toContainText('#1');
  await player.getByLabel(/Proof-of-work video/).focus();
  await page.keyboard.press(']');
  await expect(active).toContainText('#2');
  // the key lands where a click on the chapter lands: past the card's fade-in (its first frame is blank)
  const frameOf = async () => Number((await time.textContent())!.match(/frame (\d+)/)![1]);
  const byKey = await frameOf();
  await page.getByRole('heading', { name: 'Proof-of-work video' }).scrollIntoViewIfNeeded();
  await screenshot(page, 'trajectory-video');
  await chapters.getByRole('button').filter({ hasText: '#2' }).click();
  await expect(active).toContainText('#2');
  expect(await frameOf()).toBe(byKey);

  // speed control
  await page.getByLabel('Playback speed').selectOption('2');
  await expect(page.getByLabel('Playback speed')).toHaveValue('2');
});
