import { request as httpRequest } from 'node:http';
import { expect, test } from '@playwright/test';
import { seedUser } from './fixtures/seed';
import { apiTokenFor, uniqueName } from './fixtures/trajectories';

/** Issue 14, items 6-8: hostile input gets a 4xx that says where and what, at a bounded cost, and leaves nothing behind. */
test('a NUL byte in a path id, query parameter or JSON body is a 4xx naming where it was, never a 500', async ({ request }) => {
  const lead = await seedUser('lead');
  const auth = { authorization: `Bearer ${await apiTokenFor(lead.id)}` };
  const byId = await request.get('/api/v1/trajectories/%00', { headers: auth });
  expect(byId.status()).toBe(422);
  expect((await byId.json()).error).toMatchObject({ code: 'BAD_INPUT', details: { field: 'path' } });
  const reviews = await request.get('/api/v1/reviews?campaignId=%00', { headers: auth });
  expect(reviews.status()).toBe(422);
  expect((await reviews.json()).error).toMatchObject({
    message: 'query parameter campaignId must not contain a NUL byte (%00)',
    details: { field: 'campaignId' },
  });
  const body = await request.post('/api/v1/campaigns', {
    headers: { ...auth, 'content-type': 'application/json' },
    data: '{"project":"x","filter":{"environment":"a\\u0000b"}}',
  });
  expect(body.status()).toBe(422);
  expect((await body.json()).error).toMatchObject({ details: { field: 'filter.environment' } });
  // a page: the list's search box
  const page = await request.get('/trajectories?q=%00', { headers: auth, maxRedirects: 0 });
  expect(page.status()).toBe(400);
  expect(await page.text()).toContain('query parameter q must not contain a NUL byte');
});

test('an oversized chunked body is refused at the limit (413) without being read whole', async ({ baseURL }) => {
  const reviewer = await seedUser('reviewer');
  const token = await apiTokenFor(reviewer.id);
  const url = new URL('/api/v1/assignments/none/reviews', baseURL);
  // 64 MiB offered in 1 MiB chunks with no Content-Length; the server answers 413 after ~2 MiB
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  const outcome = await new Promise<{ status: number; sentMiB: number }>((resolve, reject) => {
    let sent = 0;
    let done = false;
    const req = httpRequest(
      url,
      { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
      (res) => {
        done = true;
        res.resume();
        resolve({ status: res.statusCode ?? 0, sentMiB: sent });
        req.destroy();
      },
    );
    req.on('error', (e) => (done ? undefined : reject(e)));
    const pump = () => {
      while (!done && sent < 64) {
        sent++;
        if (!req.write(chunk)) return req.once('drain', pump);
      }
      if (!done) req.end();
    };
    req.write('{"answers":"');
    pump();
  });
  expect(outcome.status).toBe(413);
  expect(outcome.sentMiB).toBeLessThan(64);
});

test('an import that imports nothing leaves no project behind', async ({ request }) => {
  const lead = await seedUser('lead');
  const auth = { authorization: `Bearer ${await apiTokenFor(lead.id)}` };
  const slug = uniqueName('ghost')
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-');
  const failed = await request.post(`/api/v1/trajectories?project=${slug}`, {
    headers: { ...auth, 'content-type': 'application/json' },
    data: '{"this": "is not a trajectory"}',
  });
  expect(failed.status()).toBe(422);
  const projects = (await (await request.get('/api/v1/projects', { headers: auth })).json()) as { projects: { slug: string }[] };
  expect(projects.projects.map((p) => p.slug)).not.toContain(slug);
});

test('a server action posted from another origin is refused with 403, not a 500', async ({ request }) => {
  const foreign = await request.post('/sign-in', {
    headers: { 'next-action': '0'.repeat(42), origin: 'http://evil.example', 'content-type': 'text/plain;charset=UTF-8' },
    data: '[]',
  });
  expect(foreign.status()).toBe(403);
  expect(await foreign.text()).toContain('sent from another origin');
});
