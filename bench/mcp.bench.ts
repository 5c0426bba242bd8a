import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createApiToken } from '../lib/auth/create-api-token';
import { createUser } from '../lib/auth/create-user';
import { setProjectMember } from '../lib/auth/manage-project-members';
import { createCampaign } from '../lib/campaigns/create-campaign';
import { saveRubricVersion } from '../lib/campaigns/save-rubric-version';
import { disconnectDb } from '../lib/db/client';
import { startEmbeddedPostgres } from '../lib/db/embedded-postgres';
import { closeSqlPool } from '../lib/db/sql';
import { setEnv } from '../lib/env';
import { buildTrajectory } from '../lib/formats/build-trajectory';
import { prepareTrajectory } from '../lib/ingest/prepare-trajectory';
import { storeTrajectory } from '../lib/ingest/store-trajectory';
import { migrateDatabase } from '../lib/migrate-database';
import { ensureProject } from '../lib/trajectories/queries/projects';
import { prepareCampaignVideoProps } from '../lib/video/prepare-campaign-video-props';
import { startBenchStudio, stopBenchStudio, untilHealthy } from './bench-studio';
import type { BenchFigure } from './figure';
import { freePort } from './free-port';
import { BIG_STEPS } from './pages-bench-data';

/**
 * The MCP server (issue 42) on a production studio: an MCP tools/call round trip (list_campaigns
 * over Streamable HTTP, one POST to /api/mcp) beside the same REST call (GET /api/v1/campaigns,
 * the same use-case) on the same studio, p95 of RUNS each, interleaved; and the largest answer of
 * any tool on a 1,000-step trajectory (BIG_STEPS, as the pages bench's long run: long messages,
 * tool calls with big outputs), every page of its transcript read in full detail. Goals: the
 * round trip ≤ 1.5× REST; no answer over 16 KB.
 * Knob: BENCH_MCP_RUNS (default 200).
 */
const GROUP = 'mcp';
const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, '.data', 'bench-mcp');
const RUNS = Number(process.env.BENCH_MCP_RUNS ?? 200);
const log = (line: string) => console.error(`[bench mcp] ${line}`);

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;

function longRun(steps: number) {
  return buildTrajectory({
    format: 'openai',
    task: {
      name: 'long-run',
      instruction: 'Fix the failing build and keep the tests green.',
      acceptanceCriteria: [{ key: 'tests_pass', text: 'Tests pass', origin: 'verifier', verdict: true }],
      environment: 'terminal-bench',
    },
    policy: { model: 'bench-policy' },
    steps: Array.from({ length: steps }, (_, i) =>
      i % 3 === 2
        ? { source: 'tool' as const, text: `$ make test\n${'ok   pkg/module_' + i + ' 0.03s\n'.repeat(40 + (i % 50))}` }
        : {
            source: 'agent' as const,
            text: `Step ${i}: ${'I read the failing test, then change the parser so the edge case is handled. '.repeat(i % 10 === 0 ? 80 : 4)}`,
            reasoning: i % 5 === 0 ? 'The stack trace points at the tokenizer. '.repeat(30) : undefined,
          },
    ),
  });
}

export async function run(): Promise<BenchFigure[]> {
  await rm(dataDir, { recursive: true, force: true });
  const postgres = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg'), port: await freePort() });
  let studio: ChildProcess | undefined;
  try {
    await migrateDatabase(postgres.url);
    setEnv('DATABASE_URL', postgres.url);
    const project = await ensureProject({ slug: 'bench-mcp', name: 'bench mcp' });
    const lead = await createUser({ email: 'lead@bench-mcp.test', name: 'Lead', role: 'lead', password: 'long enough password' });
    await setProjectMember(null, { projectId: project.id, userId: lead.id, role: 'lead' });
    const { token } = await createApiToken(lead.id, { name: 'bench agent' });
    const long = await storeTrajectory(project.id, prepareTrajectory(longRun(BIG_STEPS)), {
      source: null,
      sourceWhere: null,
      importedById: null,
    });
    const rubric = await saveRubricVersion(
      project.id,
      'r',
      { title: 'r', questions: [{ id: 'quality', type: 'likert', prompt: 'ok?', points: 5 }] },
      null,
    );
    const campaign = await createCampaign(
      project.id,
      { name: 'bench', mode: 'single', overlap: 1, rubricVersionId: rubric.versionId },
      null,
    );
    await prepareCampaignVideoProps(campaign.id);
    log(`seeded a ${BIG_STEPS}-step trajectory and a campaign`);

    const port = await freePort();
    studio = startBenchStudio({ port, databaseUrl: postgres.socketUrl, dataDir, worker: false });
    const base = `http://127.0.0.1:${port}`;
    await untilHealthy(base, studio);
    const headers = { authorization: `Bearer ${token}` };
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/api/mcp', base), { requestInit: { headers } }));
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = (result.content[0] as { text: string }).text;
      if (result.isError) throw new Error(`${name}: ${text}`);
      return { bytes: Buffer.byteLength(text), json: JSON.parse(text) as Record<string, unknown> };
    };
    const rest = async () => {
      const response = await fetch(`${base}/api/v1/campaigns?project=bench-mcp`, { headers });
      if (response.status !== 200) throw new Error(`GET /api/v1/campaigns: ${response.status}`);
      await response.arrayBuffer();
    };

    // warm both paths, then interleave
    for (let i = 0; i < 20; i++) {
      await rest();
      await call('list_campaigns', { project: 'bench-mcp' });
    }
    const restMs: number[] = [];
    const mcpMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      await rest();
      restMs.push(performance.now() - t);
      t = performance.now();
      await call('list_campaigns', { project: 'bench-mcp' });
      mcpMs.push(performance.now() - t);
    }
    log(`REST p95 ${p95(restMs).toFixed(1)} ms, MCP p95 ${p95(mcpMs).toFixed(1)} ms`);

    // the largest answer of any tool on the 1,000-step trajectory
    const sizes: { tool: string; bytes: number }[] = [];
    const note = (tool: string, bytes: number) => sizes.push({ tool, bytes });
    for (const detail of ['summary', 'full'] as const) {
      let cursor: unknown = null;
      let pages = 0;
      do {
        const page = await call('read_transcript', { trajectoryId: long.id, detail, limit: 50, ...(cursor ? { cursor } : {}) });
        note(`read_transcript ${detail}`, page.bytes);
        cursor = page.json.nextCursor;
        pages++;
      } while (cursor && pages < 1000);
      log(`read_transcript ${detail}: ${pages} pages`);
    }
    for (const step of [0, 10, BIG_STEPS - 1]) note('get_still', (await call('get_still', { trajectoryId: long.id, step })).bytes);
    note('list_projects', (await call('list_projects')).bytes);
    note('list_campaigns', (await call('list_campaigns')).bytes);
    const claimed = await call('claim_next_item', { campaignId: campaign.id, model: 'bench-agent' });
    note('claim_next_item', claimed.bytes);
    const claim = claimed.json.claim as { claimId: string; trajectoryIds: string[] };
    note(
      'read_transcript (claim)',
      (await call('read_transcript', { trajectoryId: claim.trajectoryIds[0], claimId: claim.claimId, detail: 'full', limit: 50 })).bytes,
    );
    note('submit_review', (await call('submit_review', { claimId: claim.claimId, model: 'bench-agent', answers: { quality: 4 } })).bytes);
    note('list_agent_reviews', (await call('list_agent_reviews', { campaignId: campaign.id })).bytes);
    note('get_agreement', (await call('get_agreement', { campaignId: campaign.id })).bytes);
    note('list_disagreements', (await call('list_disagreements', { campaignId: campaign.id })).bytes);
    note('get_estimates', (await call('get_estimates', { campaignId: campaign.id })).bytes);
    note('get_leaderboard', (await call('get_leaderboard', { project: 'bench-mcp' })).bytes);
    const largest = sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    log(`largest answer: ${largest.tool}, ${largest.bytes} bytes`);
    await client.close();

    return [
      {
        group: GROUP,
        name: 'tools/call round trip p95 (list_campaigns over /api/mcp)',
        value: p95(mcpMs),
        unit: 'ms',
        higherIsBetter: false,
        comparator: { name: 'GET /api/v1/campaigns p95', value: p95(restMs) },
        goal: '<= 1.5x REST',
      },
      {
        group: GROUP,
        name: `largest tool answer, ${BIG_STEPS}-step trajectory (${largest.tool})`,
        value: largest.bytes,
        unit: 'bytes',
        higherIsBetter: false,
        goal: '<= 16384',
      },
    ];
  } finally {
    await stopBenchStudio(studio);
    await disconnectDb();
    await closeSqlPool();
    await postgres.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
