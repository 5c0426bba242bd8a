import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, test } from '@playwright/test';
import { seedCampaignRuns } from './fixtures/lead-campaigns';
import { seedUser } from './fixtures/seed';
import { screenshot, signIn } from './fixtures/sign-in';
import { uniqueName } from './fixtures/trajectories';

/**
 * Issue 42: the MCP server against the real studio, through the official SDK client over both
 * transports: Streamable HTTP to /api/mcp, and stdio through `witness mcp` (a bridge to the same
 * endpoint). An agent claims an item, reads its blind transcript, submits; the campaign page shows
 * the review as an agent's, and the human agreement leaves it out.
 */

const MODEL = 'claude-mcp-e2e';

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { type: 'text'; text: string }).text;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tool answers are read loosely here
  return { isError: result.isError === true, json: JSON.parse(text) as Record<string, any> };
}

test('an agent reviews over MCP (HTTP and stdio), shown as an agent and left out of the human agreement', async ({ page, playwright }) => {
  test.setTimeout(180_000);
  const base = process.env.WITNESS_E2E_BASE_URL!;
  const lead = await seedUser('lead');
  const project = uniqueName('mcp');
  await seedCampaignRuns(project);
  const { ensureProject } = await import('../lib/trajectories/queries/projects');
  const { campaignOnRubric } = await import('../lib/db/test/test-campaign');
  const { createApiToken } = await import('../lib/auth/create-api-token');
  const { id: projectId } = await ensureProject({ slug: project, name: project });
  const rubric = {
    title: 'MCP check',
    questions: [
      { id: 'criteria', type: 'criteria', prompt: 'Criteria' },
      { id: 'overall', type: 'likert', prompt: 'Overall', points: 5 },
    ],
  };
  const campaign = await campaignOnRubric(projectId, rubric, { mode: 'single', overlap: 1, name: uniqueName('MCP campaign') });
  const { token } = await createApiToken(lead.id, { name: 'mcp e2e agent' });
  const { token: readToken } = await createApiToken(lead.id, { name: 'mcp e2e reader', scope: 'read' });

  // Streamable HTTP
  const http = new Client({ name: 'e2e-http', version: '1.0.0' });
  await http.connect(
    new StreamableHTTPClientTransport(new URL('/api/mcp', base), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  const names = (await http.listTools()).tools.map((t) => t.name);
  expect(names).toEqual(expect.arrayContaining(['list_campaigns', 'read_transcript', 'claim_next_item', 'submit_review', 'get_agreement']));
  const campaigns = await call(http, 'list_campaigns', { project });
  expect(campaigns.json.campaigns).toEqual([expect.objectContaining({ id: campaign.id, items: 4 })]);
  const { claim } = (await call(http, 'claim_next_item', { campaignId: campaign.id, model: MODEL })).json;
  expect(claim).toMatchObject({ campaignId: campaign.id, kind: 'single' });
  const trajectoryId = claim.trajectoryIds[0] as string;
  const first = await call(http, 'read_transcript', { trajectoryId, claimId: claim.claimId, limit: 2 });
  expect(first.isError).toBe(false);
  expect(first.json).toMatchObject({ from: 0, to: 1, blind: { hidePolicy: true, hideReward: true } });

  // stdio: `witness mcp` as an MCP client starts it
  const stdio = new Client({ name: 'e2e-stdio', version: '1.0.0' });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  await stdio.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'cli/main.ts', 'mcp'],
      env: { ...env, WITNESS_URL: base, WITNESS_TOKEN: token },
      stderr: 'pipe',
    }),
  );
  expect((await stdio.listTools()).tools.map((t) => t.name)).toEqual(names);
  if (first.json.nextCursor) {
    const second = await call(stdio, 'read_transcript', { trajectoryId, claimId: claim.claimId, cursor: first.json.nextCursor, limit: 2 });
    expect(second.json.from).toBe(2);
  }
  const wrong = await call(stdio, 'submit_review', {
    claimId: claim.claimId,
    model: MODEL,
    answers: { criteria: { nope: 'pass' }, overall: 4 },
  });
  expect(wrong.isError).toBe(true);
  expect(wrong.json.error.message).toMatch(/^\/criteria\/nope: /);
  const submitted = await call(stdio, 'submit_review', {
    claimId: claim.claimId,
    model: MODEL,
    answers: { criteria: { tests_pass: 'pass', no_test_edits: 'pass' }, overall: 4 },
    idempotencyKey: 'mcp-e2e-submit',
  });
  expect(submitted.json.review).toMatchObject({ source: 'agent', model: MODEL, created: true });
  await stdio.close();

  // the human agreement has no reviews: the agent's is not one of them
  const agreement = await call(http, 'get_agreement', { campaignId: campaign.id });
  expect(agreement.isError).toBe(false);
  expect(agreement.json.criteria.every((c: { reviewers: number }) => c.reviewers === 0)).toBe(true);
  await http.close();

  // a read token: the read tools only over MCP, and no writes on /api/v1 (403 naming the scope)
  const reader = new Client({ name: 'e2e-reader', version: '1.0.0' });
  await reader.connect(
    new StreamableHTTPClientTransport(new URL('/api/mcp', base), { requestInit: { headers: { authorization: `Bearer ${readToken}` } } }),
  );
  const readNames = (await reader.listTools()).tools.map((t) => t.name);
  expect(readNames).toContain('read_transcript');
  expect(readNames).not.toContain('submit_review');
  await reader.close();
  const api = await playwright.request.newContext({ baseURL: base });
  const refused = await api.post(`/api/v1/campaigns/${campaign.id}/status`, {
    headers: { authorization: `Bearer ${readToken}` },
    data: { status: 'closed' },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("'read' scope");
  await api.dispose();

  // the campaign page shows it as an agent's review; the human agreement page does not name the model
  await signIn(page, lead);
  await page.goto(`/lead/campaigns/${campaign.id}`);
  const row = page.getByTestId('agent-review-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByText('agent', { exact: true })).toBeVisible();
  await expect(row).toContainText(MODEL);
  await expect(row).toContainText('mcp e2e agent');
  await screenshot(page, 'mcp-agent-review');
  await page.goto(`/lead/campaigns/${campaign.id}/agreement`);
  await expect(page.locator('main')).toBeVisible();
  await expect(page.locator('main')).not.toContainText(MODEL);

  // the tokens page makes a read token with its scope select
  await page.goto('/settings/tokens');
  await page.getByLabel('Token name').fill('mcp e2e page reader');
  await page.getByLabel('Scope').selectOption('read');
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByTestId('new-token')).toHaveValue(/^wit_/);
  const made = page.getByRole('row').filter({ hasText: 'mcp e2e page reader' });
  await expect(made.getByTestId('token-scope')).toHaveText('read only');
});
