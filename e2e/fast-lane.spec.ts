import { expect, test, type APIRequestContext, type APIResponse } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { seedCampaign } from './fixtures/campaigns';
import { seedUser } from './fixtures/seed';
import { signIn } from './fixtures/sign-in';
import { apiTokenFor } from './fixtures/trajectories';

/**
 * `witness start` (the e2e webServer) serves the claim and the submits itself, before Next
 * (lib/http/fast-lane.ts); a path whose id is percent-encoded is left to Next, whose route
 * decodes it to the same id. So each request below goes once through the fast lane and once
 * through Next's route, on the same server, and both answers must be the same: status, body and
 * every header but the transport's own (date, connection, keep-alive, length or chunking).
 */
const transport = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

function throughNext(path: string, id: string): string {
  const encoded = `%${id.charCodeAt(0).toString(16).padStart(2, '0')}${id.slice(1)}`;
  return path.replace(`/${id}/`, `/${encoded}/`);
}

async function answer(response: APIResponse) {
  const headers = Object.fromEntries(Object.entries(response.headers()).filter(([name]) => !transport.has(name)));
  return { status: response.status(), headers, body: await response.text() };
}

async function bothWays(
  request: APIRequestContext,
  path: string,
  id: string,
  options: { headers?: Record<string, string>; data?: unknown } = {},
  expectSameBody = true,
) {
  const fast = await request.post(path, options);
  const next = await request.post(throughNext(path, id), options);
  // the fast lane answered the plain path: it sends a Content-Length where Next streams its answer
  expect(fast.headers()['content-length'], `${path}: served by the fast lane`).toBeDefined();
  expect(next.headers()['content-length'], `${path}: served by Next`).toBeUndefined();
  const [a, b] = [await answer(fast), await answer(next)];
  if (expectSameBody) expect(a, path).toEqual(b);
  else expect({ ...a, body: '' }, path).toEqual({ ...b, body: '' });
  return { fast: a, next: b };
}

test("the review API answers the same through witness start's fast lane and through Next's route", async ({ page, request }) => {
  const campaign = await seedCampaign({ mode: 'single', count: 3, minCoverage: 0 });
  const [alice, bob, carol] = [await seedUser('reviewer'), await seedUser('reviewer'), await seedUser('reviewer')];
  const [aliceToken, bobToken] = [await apiTokenFor(alice.id), await apiTokenFor(bob.id)];
  const as = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  const claimPath = `/api/v1/campaigns/${campaign.id}/assignments`;

  // no caller, an unknown token: 401 with the challenge
  const anonymous = await bothWays(request, claimPath, campaign.id, { headers: { cookie: '' } });
  expect(anonymous.fast.status).toBe(401);
  expect(anonymous.fast.headers['www-authenticate']).toBe('Bearer');
  expect(anonymous.fast.headers['content-security-policy']).toBe(`default-src 'none'; frame-ancestors 'none'`);
  expect(anonymous.fast.headers['x-frame-options']).toBe('DENY');
  expect((await bothWays(request, claimPath, campaign.id, { headers: as(`wit_${'x'.repeat(43)}`) })).fast.status).toBe(401);

  // the first claim is new (201, resumed false); after it, both ways resume it: the same answer, gzipped alike
  const first = await request.post(claimPath, { headers: as(aliceToken) });
  expect(first.status()).toBe(201);
  const claimed = JSON.parse(await first.text()) as { assignment: { assignment: { id: string } }; resumed: boolean };
  expect(claimed.resumed).toBe(false);
  const resumed = await bothWays(request, claimPath, campaign.id, { headers: as(aliceToken) });
  expect(resumed.fast.status).toBe(201);
  expect(JSON.parse(resumed.fast.body)).toEqual({ ...claimed, resumed: true });

  // a cookie session works the same, from the studio's own origin (a cookie write from elsewhere is 403: issue 39 row 2)
  await signIn(page, carol);
  const studio = { headers: { origin: new URL(page.url()).origin } };
  expect((await page.request.post(claimPath)).status()).toBe(403);
  const byCookie = await page.request.post(claimPath, studio);
  expect(byCookie.status()).toBe(201);
  expect((await bothWays(page.request, claimPath, campaign.id, studio)).fast.status).toBe(201);

  // submits: another reviewer's 404, bad bodies 422, over the limit 413, new 201, the same key 200 both ways
  const id = claimed.assignment.assignment.id;
  const reviews = `/api/v1/assignments/${id}/reviews`;
  const body = {
    answers: { criteria: { tests_pass: 'pass', no_deletion: 'pass' }, quality: 5, verdict: 'merge', flags: [] },
    evidence: [],
    coverage: { ranges: [[0, 10]], speeds: [1], seeks: 0 },
    idempotencyKey: randomUUID(),
    durationSec: 12,
  };
  expect((await bothWays(request, reviews, id, { headers: as(bobToken), data: body })).fast.status).toBe(404);
  expect((await bothWays(request, reviews, id, { headers: as(aliceToken), data: { ...body, answers: { quality: 9 } } })).fast.status).toBe(
    422,
  );
  expect((await bothWays(request, reviews, id, { headers: as(aliceToken), data: '{"answers":' })).fast.status).toBe(422);
  const big = { ...body, evidence: [{ note: 'x'.repeat(3 * 1024 * 1024) }] };
  expect((await bothWays(request, reviews, id, { headers: as(aliceToken), data: big })).fast.status).toBe(413);
  const made = await request.post(reviews, { headers: as(aliceToken), data: body });
  expect(made.status()).toBe(201);
  const replay = await bothWays(request, reviews, id, { headers: as(aliceToken), data: body });
  expect(replay.fast.status).toBe(200);
  expect(JSON.parse(replay.fast.body)).toEqual(JSON.parse(await made.text()));

  // a method the routes do not take is Next's answer, whichever path
  const get = await request.get(claimPath, { headers: as(aliceToken) });
  expect(get.status()).toBe(405);
});
