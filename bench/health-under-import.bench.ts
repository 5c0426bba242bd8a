import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { createApiToken } from '../lib/auth/create-api-token';
import { ensureFirstMemberships } from '../lib/auth/queries/memberships';
import { ensureUser } from '../lib/auth/create-user';
import { disconnectDb } from '../lib/db/client';
import { startEmbeddedPostgres } from '../lib/db/embedded-postgres';
import { migrateDatabase } from '../lib/migrate-database';
import { ensureProject } from '../lib/trajectories/queries/projects';
import { setEnv } from '../lib/env';
import { startBenchStudio, stopBenchStudio, untilHealthy } from './bench-studio';
import type { BenchFigure } from './figure';
import { freePort } from './free-port';

/**
 * Issue 39, row 5: `/api/health` while POST /api/v1/trajectories imports huge bodies. A
 * production studio (no worker, no renders) on its own database; a lead's API token imports a
 * cast of 1,000,000 events (~32 MB) and then a trajectory with one step of 50 MB of text, while
 * /api/health is asked every 20 ms (one request at a time). Its p50 and p99 during the imports,
 * beside the same with no import (BENCH_HEALTH_IDLE_SECONDS, default 10). Goal: p99 <= 200 ms
 * during the imports (before the parse thread, a health check waited 7.4 s behind a parse).
 */
const GROUP = 'ingest';
const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, '.data', 'bench-health-under-import');
const IDLE_SECONDS = Number(process.env.BENCH_HEALTH_IDLE_SECONDS ?? 10);
const CAST_EVENTS = Number(process.env.BENCH_HEALTH_CAST_EVENTS ?? 1_000_000);
const STEP_MB = Number(process.env.BENCH_HEALTH_STEP_MB ?? 50);

function castBody(events: number): string {
  const lines = [JSON.stringify({ version: 2, width: 80, height: 24, timestamp: 1_700_000_000 })];
  for (let i = 0; i < events; i++)
    lines.push(JSON.stringify([i * 0.01, i % 50 === 0 ? 'm' : 'o', i % 50 === 0 ? `step ${i / 50}` : `line ${i} of the output\r\n`]));
  return `${lines.join('\n')}\n`;
}

function bigStepBody(mb: number): string {
  const text = 'All work and no play makes the agent a dull boy. '.repeat(Math.ceil((mb * 1024 * 1024) / 50));
  return JSON.stringify({
    messages: [
      { role: 'user', content: 'Write the log.' },
      { role: 'assistant', content: text },
    ],
  });
}

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

/** Asks /api/health every 20 ms until `until` settles; each answer's latency (ms). */
async function pollHealth(base: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/health`);
    await res.arrayBuffer();
    latencies.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
  return latencies;
}

export async function run(): Promise<BenchFigure[]> {
  await rm(dataDir, { recursive: true, force: true });
  const postgres = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg'), port: await freePort() });
  const port = await freePort();
  let studio: ChildProcess | undefined;
  try {
    await migrateDatabase(postgres.url);
    setEnv('DATABASE_URL', postgres.url);
    const project = await ensureProject({ slug: 'huge', name: 'Huge imports' });
    const { user } = await ensureUser({
      email: 'lead@huge.local',
      name: 'Lead',
      role: 'lead',
      password: 'bench-huge-password',
      expertise: [],
    });
    await ensureFirstMemberships(user.id, [{ projectId: project.id, role: 'lead' }]);
    const token = (await createApiToken(user.id, { name: 'huge imports' })).token;
    const cast = castBody(CAST_EVENTS);
    const big = bigStepBody(STEP_MB);

    studio = startBenchStudio({ port, databaseUrl: postgres.url, dataDir, worker: false });
    const base = `http://localhost:${port}`;
    await untilHealthy(base, studio);

    const idle = await pollHealth(base, new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000)));
    const imported: { name: string; ms: number; status: number; answer: string }[] = [];
    const post = async (name: string, body: string, contentType: string) => {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/v1/trajectories?project=huge`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
        body,
      });
      const answer = await res.text();
      imported.push({ name, ms: performance.now() - t0, status: res.status, answer: answer.slice(0, 300) });
    };
    const imports = (async () => {
      await post('cast', cast, 'application/x-asciicast');
      await post('50 MB step', big, 'application/json');
    })();
    const during = await pollHealth(base, imports);
    await imports;
    for (const i of imported) {
      console.error(`[health-under-import] ${i.name}: ${i.status} in ${Math.round(i.ms)} ms: ${i.answer}`);
      if (i.status !== 200) throw new Error(`the ${i.name} import answered ${i.status}: ${i.answer}`);
    }

    const idleP50 = quantile(idle, 0.5);
    const idleP99 = quantile(idle, 0.99);
    return [
      {
        group: GROUP,
        name: 'health p50 during huge imports',
        value: quantile(during, 0.5),
        unit: 'ms',
        higherIsBetter: false,
        comparator: { name: 'no import', value: idleP50 },
      },
      {
        group: GROUP,
        name: 'health p99 during huge imports',
        value: quantile(during, 0.99),
        unit: 'ms',
        higherIsBetter: false,
        comparator: { name: 'no import', value: idleP99 },
        goal: '<= 200 ms',
      },
      { group: GROUP, name: 'health max during huge imports', value: Math.max(...during), unit: 'ms', higherIsBetter: false },
      {
        group: GROUP,
        name: `import of a ${CAST_EVENTS.toLocaleString('en-US')}-event cast`,
        value: imported[0]!.ms,
        unit: 'ms',
        higherIsBetter: false,
      },
      { group: GROUP, name: `import of a ${STEP_MB} MB step`, value: imported[1]!.ms, unit: 'ms', higherIsBetter: false },
    ];
  } finally {
    await stopBenchStudio(studio);
    await disconnectDb();
    await postgres.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
