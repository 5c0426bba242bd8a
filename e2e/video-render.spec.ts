import { expect, test } from '@playwright/test';
import { buildTrajectory } from '../lib/formats/build-trajectory';
import type { Trajectory } from '../lib/formats/trajectory';
import { storeTrajectoryDirect, uniqueName } from './fixtures/trajectories';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';

function tiny(): Trajectory {
  return buildTrajectory({
    format: 'openai',
    task: { name: uniqueName('render'), instruction: 'Say hello.' },
    policy: { model: 'tiny-model' },
    steps: [
      { source: 'user', text: 'Say hello.' },
      { source: 'agent', text: 'Hello!' },
    ],
    extra: { verifier: { reward: 1, components: {} } },
  });
}

test('Render MP4 goes through the worker, shows progress, then serves the file with range requests behind sign-in', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const user = await seedUser('lead');
  const id = await storeTrajectoryDirect(uniqueName('render'), tiny());
  await signIn(page, user);
  await page.goto(`/trajectories/${id}`);
  await page.getByRole('button', { name: 'Render MP4' }).click();
  await expect(page.getByTestId('mp4-status')).toContainText(/queued|Rendering|Download/);
  const download = page.getByRole('link', { name: /Download MP4/ });
  await expect(download).toBeVisible({ timeout: 240_000 });
  await screenshot(page, 'trajectory-mp4-ready');

  const href = (await download.getAttribute('href'))!;
  const full = await page.request.get(href);
  expect(full.status()).toBe(200);
  expect(full.headers()['content-type']).toBe('video/mp4');
  const bytes = await full.body();
  const size = bytes.byteLength;
  expect(size).toBeGreaterThan(10_000);
  if (full.headers()['content-length']) expect(Number(full.headers()['content-length'])).toBe(size);
  expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp'); // an MP4

  const part = await page.request.get(href, { headers: { range: 'bytes=100-199' } });
  expect(part.status()).toBe(206);
  expect(part.headers()['content-range']).toBe(`bytes 100-199/${size}`);
  expect(Buffer.compare(await part.body(), bytes.subarray(100, 200))).toBe(0);
  expect((await page.request.get(href, { headers: { range: `bytes=${size}-` } })).status()).toBe(416);

  // same auth as the page: no session, no file
  const anonymous = await request.get(href, { headers: { cookie: '' } });
  expect(anonymous.status()).toBe(401);

  // asking again does not render again
  await page.reload();
  await expect(page.getByRole('link', { name: /Download MP4/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Render MP4' })).toHaveCount(0);
});
