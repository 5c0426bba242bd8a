import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenScope } from '../auth/api-token';
import { authenticateApiToken } from '../auth/authenticate-api-token';
import { createApiToken } from '../auth/create-api-token';
import { createUser } from '../auth/create-user';
import { setProjectMember } from '../auth/manage-project-members';
import type { SessionUser } from '../auth/session-user';
import { resetDatabase } from '../db/test/reset';
import { campaignOnRubric, criteriaRubric as rubric, testCriteria as criteria } from '../db/test/test-campaign';
import { env } from '../env';
import { buildTrajectory } from '../formats/build-trajectory';
import { prepareTrajectory } from '../ingest/prepare-trajectory';
import { storeTrajectory } from '../ingest/store-trajectory';
import { installQueue, stopQueueClient } from '../queue/boss';
import { datasetExportJob } from '../queue/jobs/dataset-export';
import { ensureProject } from '../trajectories/queries/projects';
import { createMcpServer, mcpTools } from './mcp-server';

/**
 * Issue 42: the MCP server's tools through the official SDK Client over its in-memory transport,
 * against real Postgres, as callers made from real API tokens (create-api-token.ts, then
 * authenticate-api-token.ts as the /api/mcp edge does).
 */

const LONG = 1000;

async function storeRun(projectId: string, model: string, task: string, steps: number) {
  const t = buildTrajectory({
    format: 'openai',
    task: { name: task, instruction: 'fix it', acceptanceCriteria: criteria, environment: 'env' },
    policy: { model },
    steps: Array.from({ length: steps }, (_, i) => ({
      source: i % 2 ? ('tool' as const) : ('agent' as const),
      text: `${task} step ${i}: ${'the agent explains what it does next and why. '.repeat(i % 7 === 0 ? 60 : 3)}`,
    })),
  });
  return storeTrajectory(projectId, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null });
}

async function caller(email: string, role: 'lead' | 'reviewer', projectId: string, scope: TokenScope = 'all'): Promise<SessionUser> {
  const user = await createUser({ email, name: email.split('@')[0]!, role, password: 'long enough password' });
  await setProjectMember(null, { projectId, userId: user.id, role });
  const { token } = await createApiToken(user.id, { name: `${email} ${scope}`, scope });
  return authenticateApiToken(token);
}

async function connect(user: SessionUser): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(user, { baseUrl: 'http://studio.test' }).connect(serverSide);
  const client = new Client({ name: 'witness-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { type: 'text'; text: string }).text;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read the tools' JSON answers loosely
  return { isError: result.isError === true, text, bytes: Buffer.byteLength(text), json: JSON.parse(text) as Record<string, any> };
}

let projectId: string;
let campaignId: string;
let longId: string;
let lead: Client;
let reviewer: Client;
let readOnly: Client;
let trainer: Client;

beforeAll(async () => {
  await resetDatabase();
  await installQueue(env().DATABASE_URL!, [datasetExportJob]);
  const project = await ensureProject({ slug: 'mcp-p', name: 'MCP project' });
  projectId = project.id;
  await storeRun(projectId, 'policy-a', 'short-task', 6);
  longId = (await storeRun(projectId, 'policy-b', 'long-task', LONG)).id;
  campaignId = (await campaignOnRubric(projectId, rubric, { mode: 'single', overlap: 1 })).id;
  lead = await connect(await caller('lead@mcp.test', 'lead', projectId));
  reviewer = await connect(await caller('rev@mcp.test', 'reviewer', projectId));
  readOnly = await connect(await caller('reader@mcp.test', 'lead', projectId, 'read'));
  trainer = await connect(await caller('trainer@mcp.test', 'lead', projectId, 'training'));
}, 120_000);

afterAll(async () => {
  await stopQueueClient();
});

describe('the MCP server', () => {
  it('lists its tools by role and token scope: a read token gets the read tools only, a training token the export status', async () => {
    const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);
    expect(await names(lead)).toEqual(mcpTools.map((t) => t.name));
    const read = await names(readOnly);
    expect(read).toContain('read_transcript');
    expect(read).not.toContain('claim_next_item');
    expect(read).not.toContain('submit_review');
    expect(read).not.toContain('request_export');
    expect(read.every((n) => mcpTools.find((t) => t.name === n)!.kind === 'read')).toBe(true);
    expect(await names(trainer)).toEqual(['get_export']);
    const rev = await names(reviewer);
    expect(rev).toContain('claim_next_item');
    expect(rev).not.toContain('get_agreement');
    // every listed tool has a JSON Schema for its input and stable snake_case name
    for (const t of (await lead.listTools()).tools) {
      expect(t.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(t.inputSchema.type).toBe('object');
    }
  });

  it('answers the list tools with no arguments, paged', async () => {
    const projects = await call(lead, 'list_projects');
    expect(projects.isError).toBe(false);
    expect(projects.json.projects).toEqual([expect.objectContaining({ slug: 'mcp-p', role: 'lead', trajectories: 2 })]);
    const campaigns = await call(lead, 'list_campaigns');
    expect(campaigns.json.campaigns).toEqual([expect.objectContaining({ id: campaignId, project: 'mcp-p', items: 2 })]);
    const mine = await call(reviewer, 'list_campaigns');
    expect(mine.json.campaigns).toEqual([expect.objectContaining({ id: campaignId, status: 'open' })]);
  });

  it('refuses out of scope and bad input as tool errors that say where and what, never a stack', async () => {
    const scoped = await call(readOnly, 'claim_next_item', { campaignId, model: 'm' });
    expect(scoped.isError).toBe(true);
    expect(scoped.json.error).toMatchObject({ code: 'FORBIDDEN', scope: 'read' });
    expect(scoped.json.error.message).toContain("'read' scope");
    const bad = await call(lead, 'read_transcript', { trajectoryId: longId, fromStep: -1 });
    expect(bad.isError).toBe(true);
    expect(bad.json.error.field).toBe('/fromStep');
    expect(bad.json.error.message).toMatch(/^\/fromStep: /);
    const past = await call(lead, 'read_transcript', { trajectoryId: longId, fromStep: LONG });
    expect(past.json.error.message).toBe(`/fromStep: step ${LONG} is past the last step (the trajectory has ${LONG}, from 0)`);
    const cursor = await call(lead, 'read_transcript', { trajectoryId: longId, cursor: 'garbage' });
    expect(cursor.json.error.field).toBe('/cursor');
    const unknown = await call(lead, 'no_such_tool');
    expect(unknown.json.error.code).toBe('NOT_FOUND');
    // a reviewer reads no trajectory outside a claim (leads only, as the trajectory page)
    const outside = await call(reviewer, 'read_transcript', { trajectoryId: longId });
    expect(outside.json.error.code).toBe('FORBIDDEN');
    for (const r of [scoped, bad, past, cursor, unknown, outside]) expect(r.text).not.toMatch(/\n\s+at /);
  });

  it('pages a 1,000-step transcript by cursor, every answer under 16 KB', async () => {
    let cursor: string | null = null;
    let pages = 0;
    let seen = 0;
    let largest = 0;
    do {
      const page = await call(lead, 'read_transcript', { trajectoryId: longId, detail: 'full', limit: 50, ...(cursor ? { cursor } : {}) });
      expect(page.isError).toBe(false);
      expect(page.json.from).toBe(seen);
      seen += page.json.steps.length;
      largest = Math.max(largest, page.bytes);
      cursor = page.json.nextCursor;
      pages++;
    } while (cursor && pages < 400);
    expect(seen).toBe(LONG);
    expect(largest).toBeLessThanOrEqual(16 * 1024);
    const summary = await call(lead, 'read_transcript', { trajectoryId: longId, limit: 50 });
    expect(summary.json.steps).toHaveLength(50);
    expect(summary.bytes).toBeLessThanOrEqual(16 * 1024);
    // every step has a place in the (skimmed) video, the last one too; past it is refused
    for (const step of [0, 10, 11, 500, LONG - 1]) {
      const still = await call(lead, 'get_still', { trajectoryId: longId, step });
      expect(still.isError).toBe(false);
      expect(still.json.stillUrl).toBe(`http://studio.test/api/mcp/stills/${longId}?frame=${still.json.frame}&pacing=${still.json.pacing}`);
    }
    const pastEnd = await call(lead, 'get_still', { trajectoryId: longId, step: LONG });
    expect(pastEnd.json.error.message).toBe(`/step: step ${LONG} has no place in the video (its steps run 0–${LONG - 1})`);
    // blind by default: the policy's name is not in the lead's blind read either
    expect(summary.text).not.toContain('policy-b');
  });

  it('claims, reads (recorded), and submits as an agent reviewer; a wrong answer names where', async () => {
    const claimed = await call(reviewer, 'claim_next_item', { campaignId, model: 'claude-test' });
    expect(claimed.isError).toBe(false);
    const claim = claimed.json.claim;
    expect(claim).toMatchObject({ campaignId, kind: 'single' });
    const [trajectoryId] = claim.trajectoryIds as string[];
    const page = await call(reviewer, 'read_transcript', { trajectoryId, claimId: claim.claimId, limit: 3 });
    expect(page.json.steps).toHaveLength(3);
    expect(page.json.blind).toEqual({ hidePolicy: true, hideReward: true });
    const still = await call(reviewer, 'get_still', { trajectoryId, claimId: claim.claimId, step: 1 });
    expect(still.isError).toBe(false);
    expect(still.json).toMatchObject({ step: 1, stillUrl: null });
    expect(still.json.frame).toBeGreaterThanOrEqual(0);
    const noMoment = await call(reviewer, 'get_still', { trajectoryId, claimId: claim.claimId });
    expect(noMoment.json.error.field).toBe('/step');

    const wrong = await call(reviewer, 'submit_review', {
      claimId: claim.claimId,
      model: 'claude-test',
      answers: { criteria: { tests_pass: 'pass', no_such: 'pass' }, quality: 4 },
    });
    expect(wrong.isError).toBe(true);
    expect(wrong.json.error.code).toBe('BAD_INPUT');
    expect(wrong.json.error.message).toMatch(/^\/criteria\/no_such: /);
    const ok = await call(reviewer, 'submit_review', {
      claimId: claim.claimId,
      model: 'claude-test',
      answers: { criteria: { tests_pass: 'pass', no_test_edits: 'fail' }, quality: 4 },
      idempotencyKey: 'mcp-test-1',
    });
    expect(ok.json.review).toMatchObject({ source: 'agent', model: 'claude-test', created: true });
    const listed = await call(lead, 'list_agent_reviews', { campaignId });
    expect(listed.json.reviews).toEqual([expect.objectContaining({ model: 'claude-test', stepsRead: 3, stillsFetched: 1 })]);
  });

  it("reads a campaign's agreement, estimates and disagreements, and a project's leaderboard (leads)", async () => {
    const agreement = await call(lead, 'get_agreement', { campaignId });
    expect(agreement.isError).toBe(false);
    expect(agreement.json.campaign).toMatchObject({ id: campaignId });
    expect(['current', 'stale', 'computing']).toContain(agreement.json.state);
    const estimates = await call(lead, 'get_estimates', { campaignId });
    expect(estimates.json.campaign).toMatchObject({ id: campaignId, mode: 'single' });
    const queue = await call(lead, 'list_disagreements', { campaignId });
    expect(queue.isError).toBe(false);
    expect(queue.json.disagreements).toEqual([]);
    const board = await call(lead, 'get_leaderboard', { project: 'mcp-p' });
    expect(board.json.project).toBe('mcp-p');
    expect(board.json.policies.map((p: { policy: string }) => p.policy).sort()).toEqual(['policy-a', 'policy-b']);
    const forbidden = await call(reviewer, 'get_agreement', { campaignId });
    expect(forbidden.json.error.code).toBe('FORBIDDEN');
  });

  it('requests an export and reads its status, with a training token too', async () => {
    const requested = await call(lead, 'request_export', { project: 'mcp-p', format: 'trl-sft' });
    expect(requested.isError).toBe(false);
    const id = requested.json.export.id as string;
    expect(requested.json.export.status).toBe('queued');
    const status = await call(trainer, 'get_export', { exportId: id });
    expect(status.json.export).toMatchObject({ id, status: 'queued', format: 'trl-sft' });
    expect(status.json.fileUrl).toBeNull();
    const missing = await call(trainer, 'get_export', { exportId: 'nope' });
    expect(missing.json.error.code).toBe('NOT_FOUND');
    const bad = await call(lead, 'request_export', { project: 'mcp-p', format: 'nope' });
    expect(bad.json.error.field).toBe('/format');
  });
});
