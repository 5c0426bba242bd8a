import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '@/lib/auth/sign-in';
import { createApiToken } from '@/lib/auth/create-api-token';
import { createUser } from '@/lib/auth/create-user';
import { db } from '@/lib/db/client';
import { resetDatabase } from '@/lib/db/test/reset';
import { ensureProject } from '@/lib/trajectories/queries/projects';
import { storeTrajectory } from '@/lib/ingest/store-trajectory';
import { buildTrajectory } from '@/lib/formats/build-trajectory';
import { prepareTrajectory } from '@/lib/ingest/prepare-trajectory';
import { AppError } from '@/lib/errors';
import { POST as campaignsRoute } from '@/app/api/v1/campaigns/route';
import { POST as statusRoute } from '@/app/api/v1/campaigns/[id]/status/route';
import { POST as claimRoute } from '@/app/api/v1/campaigns/[id]/assignments/route';
import { POST as reviewsRoute } from '@/app/api/v1/assignments/[id]/reviews/route';
import { POST as trajectoriesRoute } from '@/app/api/v1/trajectories/route';
import { errorAnswer } from '@/lib/http/api-edge';
import { assertFetchResponseMatchesSpec } from '@/lib/http/openapi/check-response';
import { studioRequestListener } from '@/lib/http/studio-server';

/**
 * Issue 39 rows 2, 3 and 13, against the real route handlers (Next's, and `witness start`'s
 * listener with its fast lane over real HTTP): a cookie-authenticated write from another origin
 * is 403 (bearer tokens unaffected); an unpaired surrogate in a body is stored as U+FFFD, not a
 * 500; Strict-Transport-Security when the base URL is https.
 */
type Route = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;

async function call(route: Route, path: string, headers: Record<string, string>, body: string, id = '') {
  const request = new Request(`http://localhost:3000${path}`, { method: 'POST', headers, body });
  const response = await route(request, { params: Promise.resolve({ id }) });
  // every answer as the contract says (GET /api/v1/openapi.json): the shape for its route and status
  await assertFetchResponseMatchesSpec('POST', path, response);
  const text = await response.text();
  // the answers' shapes as the tests read them
  const json = (text ? JSON.parse(text) : null) as {
    campaign: { id: string };
    assignment: { assignment: { id: string } };
    review: { id: string };
    error: { message: string };
  };
  return { status: response.status, json };
}

const rubricDefinition = (title: string) => ({
  title,
  questions: [
    { id: 'quality', type: 'likert', prompt: 'quality', points: 5 },
    { id: 'comment', type: 'text', prompt: 'Comment', maxLength: 4000, required: false },
  ],
});

describe('the API edge: cross-site cookie writes, lone surrogates, HSTS', () => {
  let cookie: string;
  let token: string;
  let campaignId: string;

  beforeAll(async () => {
    await resetDatabase();
    const p = await ensureProject({ slug: 'edge', name: 'edge' });
    for (let i = 0; i < 3; i++)
      await storeTrajectory(
        p.id,
        prepareTrajectory(
          buildTrajectory({
            format: 'openai',
            task: { name: `edge-t${i}`, instruction: 'do it' },
            policy: { model: 'm' },
            steps: [{ source: 'agent', text: `run ${i}` }],
          }),
        ),
        { source: null, sourceWhere: null, importedById: null },
      );
    const lead = await createUser({ email: 'lead@edge.test', name: 'Lead', role: 'lead', password: 'long enough password' });
    await db().projectMember.create({ data: { projectId: p.id, userId: lead.id, role: 'lead' } });
    token = (await createApiToken(lead.id, { name: 't' })).token;
    const session = await signIn({ email: 'lead@edge.test', password: 'long enough password' }, new Headers());
    cookie = session.setCookies.map((c) => c.split(';')[0]).join('; ');
  }, 120_000);

  const campaignBody = (name: string, title = 'rubric') =>
    JSON.stringify({
      project: 'edge',
      name,
      mode: 'single',
      overlap: 1,
      minCoverage: 0,
      open: true,
      rubric: { name: 'r', definition: rubricDefinition(title) },
    });

  it('row 3: a lone surrogate in a campaign name, a rubric title and a review comment is stored as U+FFFD (was 500)', async () => {
    const created = await call(
      campaignsRoute,
      '/api/v1/campaigns',
      { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      campaignBody('name \ud800', 'title \udc00 end'),
    );
    expect(created.status).toBe(201);
    campaignId = created.json.campaign.id;
    const stored = await db().campaign.findUniqueOrThrow({
      where: { id: campaignId },
      select: { name: true, rubricVersion: { select: { definition: true } } },
    });
    expect(stored.name).toBe('name \ufffd');
    expect((stored.rubricVersion.definition as { title: string }).title).toBe('title \ufffd end');

    const claim = await call(
      claimRoute,
      `/api/v1/campaigns/${campaignId}/assignments`,
      { authorization: `Bearer ${token}` },
      '',
      campaignId,
    );
    expect(claim.status).toBe(201);
    const assignmentId = claim.json.assignment.assignment.id as string;
    const review = await call(
      reviewsRoute,
      `/api/v1/assignments/${assignmentId}/reviews`,
      { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      `{"answers":{"quality":4,"comment":"half an emoji \\ud83d"},"coverage":{"ranges":[[0,100]],"speeds":[1],"seeks":0},"idempotencyKey":"${randomUUID()}","durationSec":3}`,
      assignmentId,
    );
    expect(review.status).toBe(201);
    const row = await db().review.findUniqueOrThrow({ where: { id: review.json.review.id }, select: { answers: true } });
    expect(row.answers).toMatchObject({ comment: 'half an emoji \ufffd' });
  });

  it('row 2: a cookie write from another origin (or from none) is 403 on each route; the studio origin and bearer tokens go through', async () => {
    const evil = { cookie, origin: 'http://evil.example', 'content-type': 'text/plain' };
    const routes: [Route, string, string, string][] = [
      [campaignsRoute, '/api/v1/campaigns', campaignBody('csrf'), ''],
      [statusRoute, `/api/v1/campaigns/${campaignId}/status`, '{"status":"closed"}', campaignId],
      [claimRoute, `/api/v1/campaigns/${campaignId}/assignments`, '', campaignId],
      [
        trajectoriesRoute,
        '/api/v1/trajectories?project=edge',
        '{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"yo"}]}',
        '',
      ],
    ];
    for (const [route, path, body, id] of routes) {
      const refused = await call(route, path, evil, body, id);
      expect(refused.status, path).toBe(403);
      expect(refused.json.error.message, path).toMatch(/from another site \(http:\/\/evil\.example\)/);
      const { origin: _, ...noOrigin } = evil;
      expect((await call(route, path, noOrigin, body, id)).status, `${path} without Origin`).toBe(403);
      expect((await call(route, path, { ...noOrigin, referer: 'http://evil.example/page' }, body, id)).status, `${path} by Referer`).toBe(
        403,
      );
    }
    expect(await db().campaign.count({ where: { name: 'csrf' } })).toBe(0);
    // the studio's own origin (WITNESS_BASE_URL unset: the Host it was sent to), and a bearer token from anywhere
    const own = await call(
      statusRoute,
      `/api/v1/campaigns/${campaignId}/status`,
      { cookie, origin: 'http://localhost:3000', host: 'localhost:3000' },
      '{"status":"closed"}',
      campaignId,
    );
    expect(own.status).toBe(200);
    const bearer = await call(
      statusRoute,
      `/api/v1/campaigns/${campaignId}/status`,
      { authorization: `Bearer ${token}`, origin: 'http://evil.example' },
      '{"status":"open"}',
      campaignId,
    );
    expect(bearer.status).toBe(200);
    // reading by cookie from anywhere is not a write
    const read = await campaignsRoute(
      new Request('http://localhost:3000/api/v1/campaigns', { method: 'GET', headers: { cookie, origin: 'http://evil.example' } }),
      { params: Promise.resolve({ id: '' }) },
    ).catch(() => null);
    expect(read === null || read.status !== 403).toBe(true);
  });

  it('a 429 says when to try again in Retry-After', () => {
    const answer = errorAnswer(new AppError('RATE_LIMITED', 'Too many. Try again in 8 s.', { details: { retryAfterSeconds: 8 } }));
    expect(answer.status).toBe(429);
    expect(answer.headers['retry-after']).toBe('8');
  });

  it("row 13: witness start's server sends HSTS on every answer (Next's and the fast lane's) when the base URL is https, none on http", async () => {
    const serve = async (baseUrl: string) => {
      const server = http.createServer(
        studioRequestListener({
          baseUrl,
          trustedProxies: 0,
          next: (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('next'),
        }),
      );
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const get = (path: string, method: string) => fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
      const page = await get('/sign-in', 'GET');
      const fast = await get(`/api/v1/campaigns/${campaignId}/assignments`, 'POST');
      await new Promise((r) => server.close(r));
      expect(await page.text()).toBe('next');
      expect(fast.status).toBe(201); // served by the fast lane
      return [page.headers.get('strict-transport-security'), fast.headers.get('strict-transport-security')];
    };
    expect(await serve('https://witness.example.org')).toEqual(Array(2).fill('max-age=63072000; includeSubDomains'));
    expect(await serve('http://localhost:3000')).toEqual([null, null]);
  });
});
