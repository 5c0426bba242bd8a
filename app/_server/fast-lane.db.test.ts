import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nextConfig from '@/next.config';
import { signIn } from '@/lib/auth/sign-in';
import { createApiToken } from '@/lib/auth/create-api-token';
import { createUser } from '@/lib/auth/create-user';
import { createCampaign } from '@/lib/campaigns/create-campaign';
import { saveRubricVersion } from '@/lib/campaigns/save-rubric-version';
import { db } from '@/lib/db/client';
import { resetDatabase } from '@/lib/db/test/reset';
import { ensureProject } from '@/lib/trajectories/queries/projects';
import { storeTrajectory } from '@/lib/ingest/store-trajectory';
import { buildTrajectory } from '@/lib/formats/build-trajectory';
import { prepareTrajectory } from '@/lib/ingest/prepare-trajectory';
import { POST as claimRoute } from '@/app/api/v1/campaigns/[id]/assignments/route';
import { POST as reviewsRoute } from '@/app/api/v1/assignments/[id]/reviews/route';
import { acceptsGzip, serveFastLane } from '@/lib/http/fast-lane';
import { assertResponseMatchesSpec } from '@/lib/http/openapi/check-response';

/**
 * `witness start` serves the review loop's hot routes itself, before Next (fast-lane.ts). Each
 * request here is sent twice: over HTTP to a node:http server that runs only the fast lane, and
 * to the route.ts handler Next calls (a web Request in, a Response out). Status, body and the
 * answer's own headers must be equal; the fast lane's answer must also carry every header
 * next.config.ts gives an /api answer (Next adds those outside the route). e2e/fast-lane.spec.ts
 * compares the two through the real `witness start`.
 */

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/** The answer's own headers (the route's), lower-case; Next's server adds the config's and its transport headers. */
const ownHeaders = ['content-type', 'cache-control', 'www-authenticate'];

let server: http.Server;
let base: string;

function viaFastLane(path: string, init: { headers?: Record<string, string>; body?: string | Buffer; chunks?: Buffer[] } = {}) {
  return new Promise<Answer & { raw: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method: 'POST', headers: init.headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(parts);
        const text = (res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
        resolve({ status: res.statusCode!, body: text, headers: pick(res.headers), raw: res.headers });
      });
    });
    req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
    if (init.chunks) {
      for (const c of init.chunks) req.write(c);
      req.end();
    } else req.end(init.body);
  });
}

async function viaNext(
  route: (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>,
  id: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const request = new Request(`http://localhost${path}`, { method: 'POST', headers: init.headers, body: init.body });
  const response = await route(request, { params: Promise.resolve({ id }) });
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  return { status: response.status, body: await response.text(), headers: pick(headers) };
}

function pick(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ownHeaders) if (typeof headers[name] === 'string') out[name] = headers[name];
  return out;
}

/** Both ways, equal: the answer (fast lane) for further checks. */
async function same(
  route: Parameters<typeof viaNext>[0],
  id: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<Answer & { raw: http.IncomingHttpHeaders }> {
  const fast = await viaFastLane(path, init);
  const next = await viaNext(route, id, path, init);
  expect({ status: fast.status, body: fast.body, headers: fast.headers }, `${path}: the fast lane answers as Next's route`).toEqual(next);
  // and as the contract says (GET /api/v1/openapi.json): the shape for its route and status
  const contentType = fast.headers['content-type'] ?? null;
  assertResponseMatchesSpec({
    method: 'POST',
    path,
    status: fast.status,
    contentType,
    body: contentType?.startsWith('application/json') && fast.body ? JSON.parse(fast.body) : fast.body || null,
  });
  return fast;
}

const rubric = { title: 'r', questions: [{ id: 'quality', type: 'likert', prompt: 'quality', points: 5 }] };
const watched = { ranges: [[0, 100]], speeds: [1], seeks: 0 };

describe("the fast lane answers as Next's routes do", () => {
  let campaignId: string;
  let token: string;
  let otherToken: string;
  let cookie: string;

  beforeAll(async () => {
    await resetDatabase();
    const p = await ensureProject({ slug: 'fast', name: 'fast' });
    for (let i = 0; i < 4; i++) {
      const t = buildTrajectory({
        format: 'openai',
        task: { name: `fast-t${i}`, instruction: 'do it' },
        policy: { model: 'm' },
        steps: [{ source: 'agent', text: `run ${i}` }],
      });
      await storeTrajectory(p.id, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null });
    }
    const version = await saveRubricVersion(p.id, 'r', rubric, null);
    campaignId = (
      await createCampaign(
        p.id,
        { name: 'c', mode: 'single', rubricVersionId: version.versionId, overlap: 2, minCoverage: 0, open: true },
        null,
      )
    ).id;
    const user = async (email: string) => {
      const u = await createUser({ email, name: email, role: 'reviewer', password: 'long enough password' });
      await db().projectMember.create({ data: { projectId: p.id, userId: u.id, role: 'reviewer' } });
      return u;
    };
    token = (await createApiToken((await user('alice@fast.test')).id, { name: 't' })).token;
    otherToken = (await createApiToken((await user('bob@fast.test')).id, { name: 't' })).token;
    await user('carol@fast.test');
    const session = await signIn({ email: 'carol@fast.test', password: 'long enough password' }, new Headers());
    cookie = session.setCookies.map((c) => c.split(';')[0]).join('; ');

    server = http.createServer((req, res) => {
      if (serveFastLane(req, res)) return;
      res.writeHead(599).end('not the fast lane');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await new Promise((r) => server?.close(r));
  });

  it('claims: 401 without a caller or with an unknown token, 404 for no such campaign, 201 with the same blind view by token and by cookie', async () => {
    const claimPath = `/api/v1/campaigns/${campaignId}/assignments`;
    const noCaller = await same(claimRoute, campaignId, claimPath);
    expect(noCaller.status).toBe(401);
    expect(noCaller.headers['www-authenticate']).toBe('Bearer');
    expect((await same(claimRoute, campaignId, claimPath, { headers: { authorization: `Bearer wit_${'x'.repeat(43)}` } })).status).toBe(
      401,
    );
    expect(
      (await same(claimRoute, 'nope', '/api/v1/campaigns/nope/assignments', { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(404);
    // a NUL in the query: refused before the caller is looked up, as apiRoute always did
    expect((await same(claimRoute, campaignId, `${claimPath}?x=%00`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(422);

    // the first claim is new; the second, either way, resumes it: the same answer byte for byte
    const first = await viaFastLane(claimPath, { headers: { authorization: `Bearer ${token}` } });
    expect(first.status).toBe(201);
    expect(JSON.parse(first.body)).toMatchObject({ resumed: false });
    const resumed = await same(claimRoute, campaignId, claimPath, { headers: { authorization: `Bearer ${token}` } });
    expect(JSON.parse(resumed.body)).toEqual({ ...JSON.parse(first.body), resumed: true });
    // a cookie write comes from the studio's own pages (its Origin: here the default base URL, http://localhost:3000)
    const studio = { cookie, origin: 'http://localhost:3000' };
    expect((await same(claimRoute, campaignId, claimPath, { headers: { cookie, origin: 'http://evil.example' } })).status).toBe(403);
    const byCookie = await viaFastLane(claimPath, { headers: studio });
    expect(byCookie.status).toBe(201);
    expect((await same(claimRoute, campaignId, claimPath, { headers: studio })).body).toBe(
      byCookie.body.replace('"resumed":false', '"resumed":true'),
    );
  });

  it('submits: 404 for another reviewer, 422 for a bad body, 413 over the limit, 201 then 200 for the same key', async () => {
    const claim = await viaFastLane(`/api/v1/campaigns/${campaignId}/assignments`, { headers: { authorization: `Bearer ${token}` } });
    const id = (JSON.parse(claim.body) as { assignment: { assignment: { id: string } } }).assignment.assignment.id;
    const path = `/api/v1/assignments/${id}/reviews`;
    const as = (t: string) => ({ authorization: `Bearer ${t}`, 'content-type': 'application/json' });
    const body = JSON.stringify({ answers: { quality: 4 }, coverage: watched, idempotencyKey: randomUUID(), durationSec: 3 });

    expect((await same(reviewsRoute, id, path, { headers: as(otherToken), body })).status).toBe(404);
    const missingKey = await same(reviewsRoute, id, path, {
      headers: as(token),
      body: JSON.stringify({ answers: { quality: 4 }, coverage: watched }),
    });
    expect(missingKey.status).toBe(422);
    expect(JSON.parse(missingKey.body).error.message).toMatch(/^body idempotencyKey: /);
    expect((await same(reviewsRoute, id, path, { headers: as(token), body: '{"answers":' })).status).toBe(422);
    expect((await same(reviewsRoute, id, path, { headers: as(token), body: '{"answers":{"quality":"\\u0000"}}' })).status).toBe(422);
    const big = JSON.stringify({ answers: { quality: 4, comment: 'x'.repeat(3 * 1024 * 1024) } });
    const tooLarge = await same(reviewsRoute, id, path, { headers: as(token), body: big });
    expect(tooLarge.status).toBe(413);
    // a client still sending the refused body when the 413 goes out reads it (the body is read and dropped, the connection
    // stays): closed at once, the socket had its bytes unread and the client's write failed with EPIPE / ECONNRESET
    const refusedWhileSending = () =>
      new Promise<{ status: number; written: boolean }>((resolve, reject) => {
        const request = http.request(`${base}${path}`, {
          method: 'POST',
          headers: { ...as(token), 'content-length': String(3 * 1024 * 1024) },
        });
        request.on('error', reject);
        setTimeout(() => reject(new Error('the refused body was never written to its end (the connection went away)')), 5000).unref();
        let status = 0;
        let done = 0; // the answer read to its end, and the body written to its end
        const settle = () => ++done === 2 && resolve({ status, written: true });
        const part = Buffer.alloc(1024 * 1024, 'x');
        request.on('response', (response) => {
          status = response.statusCode!;
          response.resume();
          response.on('end', settle);
          // the rest of the body only once the answer is in (a slow client, or one on a loaded machine)
          setTimeout(() => request.end(Buffer.concat([part, part])), 50);
        });
        request.on('finish', settle);
        request.write(part);
      });
    expect(await refusedWhileSending()).toEqual({ status: 413, written: true });
    // a chunked body (no Content-Length) is left to Next, which reads and refuses it (e2e/hostile-input.spec.ts)
    const streamed = await viaFastLane(path, { headers: as(token), chunks: [Buffer.from(body)] });
    expect(streamed.status).toBe(599);

    const made = await viaFastLane(path, { headers: as(token), body });
    expect(made.status).toBe(201);
    const replay = await same(reviewsRoute, id, path, { headers: as(token), body });
    expect(replay.status).toBe(200);
    expect(JSON.parse(replay.body)).toEqual(JSON.parse(made.body));
    expect(await db().review.count({ where: { assignmentId: id } })).toBe(1);
  });

  it('carries every header next.config.ts gives an /api answer, and gzips a large answer only for a client that takes it', async () => {
    const rules = await nextConfig.headers!();
    const expected: Record<string, string> = {};
    for (const rule of rules.filter((r) => r.source === '/:path*' || r.source === '/api/:path*'))
      for (const { key, value } of rule.headers) expected[key.toLowerCase()] = value;
    expect(Object.keys(expected)).toContain('content-security-policy');
    const path = `/api/v1/campaigns/${campaignId}/assignments`;
    const plain = await viaFastLane(path, { headers: { authorization: `Bearer ${otherToken}` } });
    const gzipped = await viaFastLane(path, { headers: { authorization: `Bearer ${otherToken}`, 'accept-encoding': 'gzip, deflate, br' } });
    const unauthenticated = await viaFastLane(path);
    for (const answer of [plain, gzipped, unauthenticated])
      for (const [name, value] of Object.entries(expected)) expect(answer.raw[name], name).toBe(value);
    expect(plain.status).toBe(201);
    expect(plain.raw['content-encoding']).toBeUndefined();
    expect(gzipped.raw['content-encoding']).toBe('gzip');
    expect(gzipped.raw.vary).toBe('rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch, Accept-Encoding');
    // the second claim resumes the first
    expect(gzipped.body).toBe(plain.body.replace('"resumed":false', '"resumed":true'));
    // a small answer (the 401) says no-transform and is never compressed
    expect(unauthenticated.raw['content-encoding']).toBeUndefined();
    expect(acceptsGzip('gzip;q=0, identity')).toBe(false);
    expect(acceptsGzip('deflate, *;q=0.5')).toBe(true);
  });

  it('leaves every other request to Next: other methods, paths, a trailing slash or a percent-encoded id', async () => {
    const other = async (method: string, path: string) =>
      new Promise<number>((resolve, reject) => {
        http
          .request(`${base}${path}`, { method, agent: false }, (res) => {
            res.resume();
            resolve(res.statusCode!);
          })
          .on('error', reject)
          .end();
      });
    expect(await other('GET', `/api/v1/campaigns/${campaignId}/assignments`)).toBe(599);
    expect(await other('POST', `/api/v1/campaigns/${campaignId}/assignments/`)).toBe(599);
    expect(await other('POST', `/api/v1/campaigns/%63${campaignId.slice(1)}/assignments`)).toBe(599);
    expect(await other('POST', `/api/v1/assignments/x/skip`)).toBe(599);
    expect(await other('POST', `/api/v2/assignments/x/reviews`)).toBe(599);
  });
});
