import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import { routeTable, type RouteRow } from '../app/_server/route-table';
import { responseProblems } from '../lib/http/openapi/check-response';
import { claimFor, memberUser, seedMatrixProject, tokenFor, type MatrixProject } from './fixtures/membership';
import { seedUser, type SeededUser } from './fixtures/seed';
import { signIn } from './fixtures/sign-in';

/**
 * The membership matrix, generated from the route table (app/_server/route-table.ts): every page
 * and /api/v1 route, requested against the production build as an admin, a lead and a reviewer of
 * project A, a lead and a reviewer of project B only, and (API) a token narrowed to B whose user
 * also leads A. Allowed: the row's status; another project's id or slug: 404; the wrong role:
 * 403; and no answer to an outsider carries A's data. Every /api/v1 answer, allowed or refused,
 * is checked against the OpenAPI contract for its route and status (lib/http/openapi/check-response.ts):
 * a shape the spec does not allow fails with the JSON pointer of what does not fit.
 */
type ActorName = 'admin' | 'leadA' | 'reviewerA' | 'leadB' | 'reviewerB' | 'narrowedToB';
interface Actor {
  name: ActorName;
  role: 'admin' | 'lead' | 'reviewer';
  /** the actor's role in project A (null: they do not reach it) */
  inA: 'lead' | 'reviewer' | null;
  user: SeededUser;
  assignment: string;
  pairAssignment: string;
  token: string;
}

let A: MatrixProject;
let actors: Actor[];
const invitePath = '/invite/not-a-real-invitation-token';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const admin = await seedUser('admin', [], { team: false });
  const leadAUser = await memberUser('lead', [], admin.id);
  A = await seedMatrixProject('a', leadAUser.id);
  const B = await seedMatrixProject('b', leadAUser.id);
  const { setProjectMember } = await import('../lib/auth/manage-project-members');
  await setProjectMember(admin.id, { projectId: A.id, userId: leadAUser.id, role: 'lead' });
  const reviewerA = await memberUser('reviewer', [{ projectId: A.id, role: 'reviewer' }], admin.id);
  const leadB = await memberUser('lead', [{ projectId: B.id, role: 'lead' }], admin.id);
  const reviewerB = await memberUser('reviewer', [{ projectId: B.id, role: 'reviewer' }], admin.id);
  const both = await memberUser(
    'lead',
    [
      { projectId: A.id, role: 'lead' },
      { projectId: B.id, role: 'lead' },
    ],
    admin.id,
  );
  const own = async (u: SeededUser) => ({
    assignment: await claimFor(A.campaign, u.id),
    pairAssignment: await claimFor(A.pairCampaign, u.id),
  });
  const ofReviewerA = await own(reviewerA);
  const make = async (
    name: ActorName,
    user: SeededUser,
    inA: Actor['inA'],
    claims: { assignment: string; pairAssignment: string },
    token?: string,
  ) => ({
    name,
    role: user.role,
    inA,
    user,
    ...claims,
    token: token ?? (await tokenFor(user.id)),
  });
  actors = [
    await make('admin', admin, 'lead', await own(admin)),
    await make('leadA', leadAUser, 'lead', await own(leadAUser)),
    await make('reviewerA', reviewerA, 'reviewer', ofReviewerA),
    await make('leadB', leadB, null, ofReviewerA),
    await make('reviewerB', reviewerB, null, ofReviewerA),
    await make('narrowedToB', both, null, await own(both), await tokenFor(both.id, B.id)),
  ];
});

function fill(text: string, actor: Actor): string {
  return text
    .replaceAll(':project', A.slug)
    .replaceAll(':pairCampaign', A.pairCampaign)
    .replaceAll(':campaign', A.campaign)
    .replaceAll(':item', A.item)
    .replaceAll(':trajectory', A.trajectory)
    .replaceAll(':pairAssignment', actor.pairAssignment)
    .replaceAll(':assignment', actor.assignment)
    .replaceAll(':export', A.export)
    .replaceAll(':video', A.video)
    .replaceAll(':run', A.run)
    .replaceAll(':token', invitePath.split('/').pop()!);
}

/** What the row must answer this actor: its ok statuses, 403 or 404. */
function expected(row: RouteRow, actor: Actor): 'ok' | 403 | 404 {
  if (row.area === 'public') return 'ok';
  if (row.area === 'admin') return actor.role === 'admin' && actor.name !== 'narrowedToB' ? 'ok' : 403;
  if (row.area === 'lead' && actor.role === 'reviewer') return 403;
  if (row.scope !== 'id') return 'ok';
  if (actor.inA === null) return 404;
  if (row.area === 'lead' && actor.inA !== 'lead') return 403;
  return 'ok';
}

async function check(request: APIRequestContext, row: RouteRow, actor: Actor, headers: Record<string, string>): Promise<string | null> {
  const url = fill(row.path, actor);
  const body = row.body === undefined ? undefined : typeof row.body === 'string' ? row.body : fill(JSON.stringify(row.body), actor);
  const response =
    row.method === 'GET'
      ? await request.get(url, { headers, failOnStatusCode: false })
      : await request.post(url, {
          headers: { ...headers, 'content-type': 'application/json', origin: process.env.WITNESS_E2E_BASE_URL! },
          data: body ?? '',
          failOnStatusCode: false,
        });
  const status = response.status();
  const raw = await response.text();
  const text = raw.toLowerCase();
  const want = expected(row, actor);
  const label = `${actor.name} ${row.method} ${url} -> ${status}`;
  if (url.startsWith('/api/v1/')) {
    const contentType = response.headers()['content-type'] ?? null;
    const json = contentType?.startsWith('application/json') && raw !== '';
    const problems = responseProblems({ method: row.method, path: url, status, contentType, body: json ? JSON.parse(raw) : raw || null });
    if (problems.length) return `${label}: the answer does not fit the OpenAPI spec: ${problems.slice(0, 5).join('; ')}`;
  }
  if (want === 'ok' ? !row.ok.includes(status) && !(row.area === 'public' && status < 500) : status !== want)
    return `${label}, expected ${want === 'ok' ? row.ok.join('|') : want}: ${text.slice(0, 200)}`;
  // A's own data (task, policy and campaign names) never reaches an outsider; the slug only when they sent it
  const leaks = [`${A.marker}-task`, `${A.marker}-policy`, `${A.marker} single`, `${A.marker} pairs`];
  if (!`${url} ${body ?? ''}`.includes(A.marker)) leaks.push(A.marker);
  if (actor.inA === null) {
    const leak = leaks.find((l) => text.includes(l));
    if (leak) return `${label}: the answer to an outsider contains ${leak}`;
  }
  if (want === 'ok' && actor.inA !== null && row.showsProject && !text.includes(A.marker))
    return `${label}: a member does not see project A`;
  return null;
}

async function sessionFor(browser: Browser, user: SeededUser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, user);
  return context;
}

test('every page answers each role as a member and as an outsider (from the route table)', async ({ browser }) => {
  test.setTimeout(300_000);
  const failures: string[] = [];
  const rows = routeTable.filter((r) => r.file.endsWith('page.tsx'));
  for (const actor of actors.filter((a) => a.name !== 'narrowedToB')) {
    const context = await sessionFor(browser, actor.user);
    for (const row of rows) {
      const failure = await check(context.request, row, actor, {});
      if (failure) failures.push(failure);
    }
    await context.close();
  }
  expect(failures).toEqual([]);
});

test('every /api/v1 route answers each role, a narrowed token and an outsider (from the route table)', async ({ playwright }) => {
  test.setTimeout(300_000);
  const request = await playwright.request.newContext({ baseURL: process.env.WITNESS_E2E_BASE_URL });
  const failures: string[] = [];
  const rows = routeTable.filter((r) => r.file.endsWith('route.ts'));
  for (const actor of actors)
    for (const row of rows) {
      const failure = await check(request, row, actor, { authorization: `Bearer ${actor.token}` });
      if (failure) failures.push(failure);
    }
  await request.dispose();
  expect(failures).toEqual([]);
});

test('a narrowed token reaches its own project: the lead of A and B reads B through a token narrowed to B', async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: process.env.WITNESS_E2E_BASE_URL });
  const narrowed = actors.find((a) => a.name === 'narrowedToB')!;
  const headers = { authorization: `Bearer ${narrowed.token}` };
  const projects = (await (await request.get('/api/v1/projects', { headers })).json()) as { projects: { slug: string; role: string }[] };
  expect(projects.projects.map((p) => p.slug)).toEqual([expect.stringMatching(/^matrix-zzb-/)]);
  expect(projects.projects[0]!.role).toBe('lead');
  expect((await request.get(`/api/v1/campaigns?project=${projects.projects[0]!.slug}`, { headers })).status()).toBe(200);
  expect((await request.get(`/api/v1/campaigns?project=${A.slug}`, { headers })).status()).toBe(404);
  const me = (await (await request.get('/api/v1/me', { headers })).json()) as {
    user: { allProjects: boolean; projects: { projectId: string }[] };
  };
  expect(me.user.allProjects).toBe(false);
  expect(me.user.projects.map((p) => p.projectId)).not.toContain(A.id);
  expect(me.user.projects).toHaveLength(1);
  await request.dispose();
});
