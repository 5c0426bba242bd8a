import { expect, test } from '@playwright/test';
import { harborImporter } from '../lib/formats/harbor';
import { dirSource } from '../lib/formats/source';
import type { Trajectory } from '../lib/formats/trajectory';
import { seedUser } from './fixtures/seed';
import { signIn } from './fixtures/sign-in';
import { storeTrajectoryDirect, uniqueName } from './fixtures/trajectories';

/**
 * Issue 14, item 11: every response carries the security headers; pages carry a CSP whose nonce
 * covers the studio's own scripts (the page still hydrates, the player plays, KaTeX typesets)
 * while an injected inline handler is refused.
 */
async function harborTrajectory(): Promise<Trajectory> {
  for await (const item of harborImporter.parse({ kind: 'dir', dir: dirSource('lib/formats/fixtures/harbor/trial-basic') }))
    if (item.ok) return item.trajectory;
  throw new Error('fixture did not parse');
}

test('pages and API answers carry the security headers; the CSP lets the studio run and blocks injected script', async ({
  page,
  request,
}) => {
  const api = await request.get('/api/health');
  expect(api.headers()['x-content-type-options']).toBe('nosniff');
  expect(api.headers()['x-frame-options']).toBe('DENY');
  expect(api.headers()['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(api.headers()['content-security-policy']).toBe(`default-src 'none'; frame-ancestors 'none'`);

  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const lead = await seedUser('lead');
  const id = await storeTrajectoryDirect(uniqueName('csp'), await harborTrajectory());
  await signIn(page, lead);
  const response = await page.goto(`/trajectories/${id}`);
  const headers = response!.headers();
  const csp = headers['content-security-policy']!;
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}' 'strict-dynamic'/);
  expect(csp).toContain(`frame-ancestors 'none'`);
  expect(csp).toContain(`object-src 'none'`);
  expect(headers['x-frame-options']).toBe('DENY');
  const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
  // a fresh nonce per request
  const again = await request.get(`/sign-in`);
  expect(again.headers()['content-security-policy']).not.toContain(nonce);
  // every script of the page carries this response's nonce
  const scripts = await page.locator('script').evaluateAll((els) => els.map((e) => (e as HTMLScriptElement).nonce));
  expect(scripts.length).toBeGreaterThan(0);
  for (const n of scripts) expect(n).toBe(nonce);

  // the page hydrated: the player plays (client JS runs under the CSP)
  const player = page.getByTestId('trajectory-player');
  await player.getByLabel(/Proof-of-work video/).focus();
  await page.keyboard.press('k');
  await expect(page.getByTestId('player-time')).toContainText(/frame [1-9]\d*/, { timeout: 10_000 });
  expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);

  // an injected inline handler (what an XSS would add) does not run, and is reported
  await page.evaluate(() => {
    document.body.insertAdjacentHTML('beforeend', '<img src="data:," onload="window.__pwned = 1">');
  });
  await expect.poll(() => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp.join('\n'))).toMatch(/script-src/);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});
