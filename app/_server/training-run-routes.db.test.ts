import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '@/lib/auth/create-api-token';
import { createUser } from '@/lib/auth/create-user';
import { db } from '@/lib/db/client';
import { resetDatabase } from '@/lib/db/test/reset';
import { seedLabelledProject, type SeededLabels } from '@/lib/db/test/seed-labels';
import { env, setEnv } from '@/lib/env';
import { assertFetchResponseMatchesSpec } from '@/lib/http/openapi/check-response';
import { installQueue, stopQueueClient } from '@/lib/queue/boss';
import { trainingCanaryJob } from '@/lib/queue/jobs/training-canary';
import { GET as listRoute, POST as startRoute } from '@/app/api/v1/training-runs/route';
import { GET as showRoute } from '@/app/api/v1/training-runs/[id]/route';
import { POST as claimRoute } from '@/app/api/v1/training-runs/claim/route';
import { POST as heartbeatRoute } from '@/app/api/v1/training-runs/[id]/heartbeat/route';
import { POST as eventsRoute } from '@/app/api/v1/training-runs/[id]/events/route';
import { GET as datasetRoute } from '@/app/api/v1/training-runs/[id]/dataset/route';
import { GET as evalTasksRoute } from '@/app/api/v1/training-runs/[id]/eval-tasks/route';
import { POST as checkpointRoute } from '@/app/api/v1/training-runs/[id]/checkpoint/route';
import { POST as completeRoute } from '@/app/api/v1/training-runs/[id]/complete/route';
import { POST as cancelRoute } from '@/app/api/v1/training-runs/[id]/cancel/route';
import { GET as campaignsRoute } from '@/app/api/v1/campaigns/route';

/**
 * The training-run routes (issue 41) through their real handlers, every answer checked against
 * GET /api/v1/openapi.json's schema for its route and status (lib/http/openapi/check-response.ts):
 * a lead starts, lists, shows and cancels; a trainer agent with a token of scope `training`
 * claims, downloads, heartbeats, uploads, registers its checkpoint and completes, and is refused
 * (403 naming the scope) everything else. The use-cases' behaviour: lib/training/training-runs.db.test.ts.
 */
let seeded: SeededLabels;
let leadId: string;
let baseName: string;

beforeAll(async () => {
  await resetDatabase();
  setEnv('WITNESS_DATA_DIR', mkdtempSync(path.join(tmpdir(), 'witness-train-routes-')));
  await installQueue(env().DATABASE_URL!, [trainingCanaryJob]);
  seeded = await seedLabelledProject({ tasks: 3, evalTasks: 1 });
  const user = await createUser({ email: 'lead@train-routes.test', name: 'Lead', role: 'lead', password: 'long enough password' });
  await db().projectMember.create({ data: { projectId: seeded.projectId, userId: user.id, role: 'lead' } });
  leadId = user.id;
  baseName = (await db().policy.findFirstOrThrow({ where: { projectId: seeded.projectId, name: { contains: 'good' } } })).name;
}, 120_000);
afterAll(stopQueueClient);

describe('the routes (answers as the OpenAPI document says) and the training token scope', () => {
  type Route = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;
  let trainingToken: string;
  let allToken: string;
  beforeAll(async () => {
    trainingToken = (await createApiToken(leadId, { name: 'agent', scope: 'training' })).token;
    allToken = (await createApiToken(leadId, { name: 'all' })).token;
  });
  async function call(route: Route, method: 'GET' | 'POST', url: string, options: { id?: string; body?: unknown; token?: string } = {}) {
    const headers: Record<string, string> = { authorization: `Bearer ${options.token ?? trainingToken}` };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const request = new Request(`http://localhost:3000${url}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const response = await route(request, { params: Promise.resolve({ id: options.id ?? '' }) });
    await assertFetchResponseMatchesSpec(method, url, response.clone());
    return response;
  }

  it('a lead starts, lists, shows and cancels; an agent with a training token runs it through', async () => {
    const body = { project: seeded.slug, recipe: 'trl-dpo', base: baseName, campaign: seeded.pairwiseCampaignId };
    // the training token is refused a lead's call, naming the scope
    const refused = await call(startRoute, 'POST', '/api/v1/training-runs', { body });
    expect(refused.status).toBe(403);
    const err = (await refused.json()) as { error: { message: string; details: { scope: string } } };
    expect(err.error.message).toContain("'training' scope");
    expect(err.error.details.scope).toBe('training');
    expect((await call(campaignsRoute as unknown as Route, 'GET', `/api/v1/campaigns?project=${seeded.slug}`)).status).toBe(403);

    const started = await call(startRoute, 'POST', '/api/v1/training-runs', { body, token: allToken });
    expect(started.status).toBe(201);
    const { run } = (await started.json()) as { run: { id: string; status: string; sha256: string } };
    expect(run.status).toBe('queued');
    const bad = await call(startRoute, 'POST', '/api/v1/training-runs', { body: { ...body, base: 'nope' }, token: allToken });
    expect(bad.status).toBe(422);

    const listed = await call(listRoute as unknown as Route, 'GET', `/api/v1/training-runs?project=${seeded.slug}&limit=1`);
    expect(listed.status).toBe(200);
    const page = (await listed.json()) as { runs: { id: string }[]; nextCursor: string | null };
    expect(page.runs[0]!.id).toBe(run.id);
    expect(page.runs).toHaveLength(1);
    expect(page.nextCursor).toBeNull();

    const claimed = await call(claimRoute as unknown as Route, 'POST', '/api/v1/training-runs/claim', {
      body: { agent: 'box', waitSeconds: 0 },
    });
    expect(claimed.status).toBe(200);
    const c = (await claimed.json()) as { run: { id: string }; lease: { token: string } };
    expect(c.run.id).toBe(run.id);
    const none = await call(claimRoute as unknown as Route, 'POST', '/api/v1/training-runs/claim', {
      body: { agent: 'box', waitSeconds: 0 },
    });
    expect(none.status).toBe(204);

    const dataset = await call(datasetRoute, 'GET', `/api/v1/training-runs/${run.id}/dataset`, { id: run.id });
    expect(dataset.status).toBe(200);
    const bytes = Buffer.from(await dataset.arrayBuffer());
    expect(dataset.headers.get('x-witness-sha256')).toBe(run.sha256);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(run.sha256);
    expect(Number(dataset.headers.get('content-length'))).toBe(bytes.length);

    const tasks = await call(evalTasksRoute, 'GET', `/api/v1/training-runs/${run.id}/eval-tasks`, { id: run.id });
    expect(
      (await tasks.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { task: string }),
    ).toEqual([{ task: 'held-out-0', instruction: 'Solve held-out-0', criteria: [] }]);

    const lease = c.lease.token;
    const hb = await call(heartbeatRoute, 'POST', `/api/v1/training-runs/${run.id}/heartbeat`, { id: run.id, body: { leaseToken: lease } });
    expect(((await hb.json()) as { cancelRequested: boolean }).cancelRequested).toBe(false);
    const lost = await call(heartbeatRoute, 'POST', `/api/v1/training-runs/${run.id}/heartbeat`, {
      id: run.id,
      body: { leaseToken: 'f'.repeat(32) },
    });
    expect(lost.status).toBe(409);
    expect(((await lost.json()) as { error: { message: string } }).error.message).toContain('lease lost');
    const ev = { leaseToken: lease, key: 'k1', logs: ['hello'], metrics: [{ step: 0, name: 'loss', value: 1.5 }] };
    expect(await (await call(eventsRoute, 'POST', `/api/v1/training-runs/${run.id}/events`, { id: run.id, body: ev })).json()).toEqual({
      duplicate: false,
      points: 1,
    });
    expect(await (await call(eventsRoute, 'POST', `/api/v1/training-runs/${run.id}/events`, { id: run.id, body: ev })).json()).toEqual({
      duplicate: true,
      points: 0,
    });
    const badEvents = await call(eventsRoute, 'POST', `/api/v1/training-runs/${run.id}/events`, {
      id: run.id,
      body: { ...ev, key: 'k2', metrics: [{ step: -1, name: 'loss', value: 1 }] },
    });
    expect(badEvents.status).toBe(422);
    const ck = await call(checkpointRoute, 'POST', `/api/v1/training-runs/${run.id}/checkpoint`, {
      id: run.id,
      body: { leaseToken: lease, key: 'ck', uri: 's3://bucket/run', name: 'route-made-checkpoint' },
    });
    expect(ck.status).toBe(200);
    const done = await call(completeRoute, 'POST', `/api/v1/training-runs/${run.id}/complete`, {
      id: run.id,
      body: { leaseToken: lease, key: 'end', outcome: 'succeeded' },
    });
    expect(((await done.json()) as { status: string }).status).toBe('succeeded');

    const shown = await call(showRoute, 'GET', `/api/v1/training-runs/${run.id}`, { id: run.id });
    const view = (await shown.json()) as { checkpoint: { name: string }; metrics: unknown[]; logTail: string[] };
    expect(view).toMatchObject({
      checkpoint: { name: 'route-made-checkpoint' },
      metrics: [{ step: 0, name: 'loss', value: 1.5 }],
      logTail: ['hello'],
    });
    // cancel is a lead's call: refused to the training token; a finished run cannot be cancelled
    expect((await call(cancelRoute, 'POST', `/api/v1/training-runs/${run.id}/cancel`, { id: run.id })).status).toBe(403);
    expect((await call(cancelRoute, 'POST', `/api/v1/training-runs/${run.id}/cancel`, { id: run.id, token: allToken })).status).toBe(409);
    // another project's run id is not found
    expect((await call(showRoute, 'GET', '/api/v1/training-runs/nope', { id: 'nope' })).status).toBe(404);
  });
});
