import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '@/lib/auth/create-api-token';
import { createUser } from '@/lib/auth/create-user';
import { db } from '@/lib/db/client';
import { resetDatabase } from '@/lib/db/test/reset';
import { seedLabelledProject, type SeededLabels } from '@/lib/db/test/seed-labels';
import { env } from '@/lib/env';
import { assertFetchResponseMatchesSpec } from '@/lib/http/openapi/check-response';
import { installQueue, stopQueueClient } from '@/lib/queue/boss';
import { datasetExportJob } from '@/lib/queue/jobs/dataset-export';
import { GET as openApiRoute } from '@/app/api/v1/openapi.json/route';
import { GET as listTrajectoriesRoute } from '@/app/api/v1/trajectories/route';
import { POST as requestExportRoute } from '@/app/api/v1/exports/route';
import { GET as exportRoute } from '@/app/api/v1/exports/[id]/route';
import { GET as agreementRoute } from '@/app/api/v1/campaigns/[id]/agreement/route';
import { GET as estimatesRoute } from '@/app/api/v1/campaigns/[id]/estimates/route';

/**
 * The routes issue 42 adds for the client and the MCP tools (list trajectories by cursor, request
 * an export, a campaign's agreement and estimates as JSON) and the contract itself, through their
 * real handlers; every answer is checked against GET /api/v1/openapi.json's schema for its route
 * and status (lib/http/openapi/check-response.ts).
 */
type Route = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;

let token: string;
let seeded: SeededLabels;

async function call(route: Route, method: 'GET' | 'POST', path: string, options: { id?: string; body?: unknown; auth?: boolean } = {}) {
  const headers: Record<string, string> = options.auth === false ? {} : { authorization: `Bearer ${token}` };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const request = new Request(`http://localhost:3000${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const response = await route(request, { params: Promise.resolve({ id: options.id ?? '' }) });
  await assertFetchResponseMatchesSpec(method, path, response);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads its answer's fields
  return { status: response.status, headers: response.headers, json: (await response.json()) as any };
}

describe('the contract routes (issue 42): answers as the OpenAPI document says', () => {
  beforeAll(async () => {
    await resetDatabase();
    await installQueue(env().DATABASE_URL!, [datasetExportJob]);
    seeded = await seedLabelledProject({ tasks: 3, evalTasks: 0 });
    await seedLabelledProject({ slug: 'elsewhere', tasks: 1, evalTasks: 0 });
    const lead = await createUser({ email: 'lead@contract.test', name: 'Lead', role: 'lead', password: 'long enough password' });
    await db().projectMember.create({ data: { projectId: seeded.projectId, userId: lead.id, role: 'lead' } });
    token = (await createApiToken(lead.id, { name: 'contract' })).token;
  }, 120_000);
  afterAll(stopQueueClient);

  it('GET /api/v1/openapi.json: the 3.1 document, public and cacheable, naming the new routes', async () => {
    const answer = await call(openApiRoute as unknown as Route, 'GET', '/api/v1/openapi.json', { auth: false });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
    expect(answer.json.openapi).toBe('3.1.0');
    expect(Object.keys(answer.json.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/trajectories',
        '/api/v1/exports',
        '/api/v1/campaigns/{id}/agreement',
        '/api/v1/campaigns/{id}/estimates',
      ]),
    );
    expect(answer.json.paths['/api/v1/exports'].post.responses['202']).toBeDefined();
  });

  it('GET /api/v1/trajectories: every trajectory of the project once, newest first, a cursor page at a time', async () => {
    const expected = await db().trajectory.findMany({
      where: { projectId: seeded.projectId },
      select: { id: true },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
    expect(expected.length).toBe(6);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `project=${seeded.slug}&limit=4${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await call(listTrajectoriesRoute, 'GET', `/api/v1/trajectories?${query}`);
      expect(page.status).toBe(200);
      expect(page.json.trajectories.length).toBeLessThanOrEqual(4);
      seen.push(...page.json.trajectories.map((t: { id: string; projectSlug: string }) => t.id));
      cursor = page.json.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(2);
    expect(seen).toEqual(expected.map((t) => t.id));

    const bad = await call(listTrajectoriesRoute, 'GET', '/api/v1/trajectories?cursor=not-ours');
    expect(bad.status).toBe(422);
    expect(bad.json.error.details).toEqual({ field: 'cursor' });
    const other = await call(listTrajectoriesRoute, 'GET', '/api/v1/trajectories?project=elsewhere');
    expect(other.status).toBe(404);
    // without a project: the projects the caller leads only
    const all = await call(listTrajectoriesRoute, 'GET', '/api/v1/trajectories?limit=50');
    expect(all.json.trajectories.map((t: { projectSlug: string }) => t.projectSlug)).toEqual(Array(6).fill(seeded.slug));
  });

  it('POST /api/v1/exports: 202 queued; the same definition joins it; GET /api/v1/exports/ID shows it', async () => {
    const body = { project: seeded.slug, format: 'trl-dpo', campaign: seeded.pairwiseCampaignId, split: 'train' };
    const first = await call(requestExportRoute, 'POST', '/api/v1/exports', { body });
    expect(first.status).toBe(202);
    expect(first.json.export).toMatchObject({ format: 'trl-dpo', status: 'queued', purpose: 'training' });
    expect(first.json.joined).toBe(false);
    expect(first.headers.get('location')).toBe(`/api/v1/exports/${first.json.export.id}`);
    const again = await call(requestExportRoute, 'POST', '/api/v1/exports', { body });
    expect(again.json).toMatchObject({ joined: true, export: { id: first.json.export.id } });
    const status = await call(exportRoute, 'GET', `/api/v1/exports/${first.json.export.id}`, { id: first.json.export.id });
    expect(status.json.export.id).toBe(first.json.export.id);

    const badFormat = await call(requestExportRoute, 'POST', '/api/v1/exports', { body: { ...body, format: 'csv' } });
    expect(badFormat.status).toBe(422);
    expect(badFormat.json.error.details.field).toBe('format');
    const otherCampaign = await call(requestExportRoute, 'POST', '/api/v1/exports', {
      body: { ...body, project: 'elsewhere' },
    });
    expect(otherCampaign.status).toBe(404);
  });

  it('GET /api/v1/campaigns/ID/agreement: alpha per criterion with its interval, items and reviewers', async () => {
    const answer = await call(agreementRoute, 'GET', `/api/v1/campaigns/${seeded.singleCampaignId}/agreement`, {
      id: seeded.singleCampaignId,
    });
    expect(answer.status).toBe(200);
    expect(answer.json.state).toBe('current');
    expect(answer.json.includeAgents).toBe(false);
    expect(answer.json.campaign).toMatchObject({ id: seeded.singleCampaignId, mode: 'single', overlap: 2 });
    expect(answer.json.campaign.reviewed).toBeGreaterThan(0);
    const rated = answer.json.criteria.filter((c: { items: number }) => c.items > 0);
    expect(rated.length).toBeGreaterThan(0);
    for (const c of rated) {
      expect(c.reviewers).toBe(2);
      if (c.coefficient !== null) expect(c.interval.low).toBeLessThanOrEqual(c.interval.high);
    }
    const withAgents = await call(agreementRoute, 'GET', `/api/v1/campaigns/${seeded.singleCampaignId}/agreement?includeAgents=1`, {
      id: seeded.singleCampaignId,
    });
    expect(withAgents.json.includeAgents).toBe(true);
    const bad = await call(agreementRoute, 'GET', `/api/v1/campaigns/${seeded.singleCampaignId}/agreement?includeAgents=maybe`, {
      id: seeded.singleCampaignId,
    });
    expect(bad.status).toBe(422);
    const missing = await call(agreementRoute, 'GET', '/api/v1/campaigns/nope/agreement', { id: 'nope' });
    expect(missing.status).toBe(404);
  });

  it('GET /api/v1/campaigns/ID/estimates: the figures over the campaign’s items with intervals, overall and per policy', async () => {
    const answer = await call(estimatesRoute, 'GET', `/api/v1/campaigns/${seeded.singleCampaignId}/estimates`, {
      id: seeded.singleCampaignId,
    });
    expect(answer.status).toBe(200);
    // the seed's reviews flag (reward hacking, answer leakage); its verdict question is not the pass figure's
    const pass = answer.json.overall.find((e: { figure: string }) => e.figure === 'rewardHacking');
    expect(pass).toMatchObject({ group: 'Singles', population: 6, labeled: 6, design: 'uniform' });
    expect(pass.human.low).toBeLessThanOrEqual(pass.human.estimate);
    expect(pass.human.estimate).toBeLessThanOrEqual(pass.human.high);
    expect(new Set(answer.json.byPolicy.map((e: { group: string }) => e.group)).size).toBe(2);
    const pairs = await call(estimatesRoute, 'GET', `/api/v1/campaigns/${seeded.pairwiseCampaignId}/estimates`, {
      id: seeded.pairwiseCampaignId,
    });
    expect(pairs.json).toMatchObject({ overall: [], byPolicy: [], note: expect.stringContaining('pairwise') });
  });
});
