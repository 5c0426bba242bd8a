import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { disconnectDb } from '../lib/db/client';
import { portInUse, startEmbeddedPostgres } from '../lib/db/embedded-postgres';
import { migrateDatabase } from '../lib/migrate-database';
import { ensureProject } from '../lib/trajectories/queries/projects';
import { storeTrajectory } from '../lib/ingest/store-trajectory';
import { findVideo } from '../lib/video/queries/videos';
import { childEnv, setEnv } from '../lib/env';
import { buildTrajectory } from '../lib/formats/build-trajectory';
import { prepareTrajectory } from '../lib/ingest/prepare-trajectory';
import { installQueue, stopQueueClient } from '../lib/queue/boss';
import { planChunks } from '../lib/video/chunks';
import { requestRender } from '../lib/video/request-render';
import { videoPropsFor } from '../lib/video/video-props-for';
import { jobContracts } from '../lib/queue/job-list';
import type { BenchFigure } from './figure';

/**
 * Distributed rendering: the same long video (about 1,400 frames) rendered through the real
 * queue by one `witness worker` process, then (a second trajectory with the same steps, so
 * nothing is cached) by two. Each run splits the video as production would for its live
 * workers (lib/video/chunks.ts: 5 chunks for one, 6 for two). Each run is timed from the render request until the
 * combined MP4 is stored, after every worker has reported its video bundle warm. Goal: two
 * workers at least 1.6x faster than one. On a machine with fewer than two free cores the two
 * workers share them and the ratio says so.
 */
const GROUP = 'video';
const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, '.data', 'bench-render-workers');
const STEPS = Number(process.env.BENCH_RENDER_STEPS ?? 22);

const log = (line: string) => process.stderr.write(`  [render-workers] ${line}\n`);

function longTrajectory(name: string) {
  return buildTrajectory({
    format: 'openai',
    task: { name, instruction: 'Fix the failing build, one command at a time, and explain each step.' },
    policy: { model: 'bench-model' },
    steps: [
      { source: 'user', text: 'The build fails. Fix it.' },
      ...Array.from({ length: STEPS }, (_, i) => ({
        source: 'agent' as const,
        text: `Step ${i + 1}: ${'I read the error, change one line and run the build again to check the fix. '.repeat(3)}`,
      })),
    ],
  });
}

function startWorker(databaseUrl: string, warm: () => void): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'cli', 'main.ts'), 'worker'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv({ DATABASE_URL: databaseUrl, WITNESS_DATA_DIR: dataDir, WITNESS_AUTO_RENDER: '0' }),
  });
  child.stdout!.on('data', (d: Buffer) => {
    if (/ warm in /.test(d.toString())) warm();
  });
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
  return child;
}

async function stopWorkers(workers: ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.exitCode !== null) return resolve();
          w.once('exit', () => resolve());
          w.kill('SIGTERM');
        }),
    ),
  );
}

async function timeWith(workerCount: number, databaseUrl: string, trajectoryId: string): Promise<number> {
  let warmCount = 0;
  let onWarm: () => void = () => {};
  const allWarm = new Promise<void>((resolve) => (onWarm = () => ++warmCount === workerCount && resolve()));
  const workers = Array.from({ length: workerCount }, () => startWorker(databaseUrl, onWarm));
  try {
    await allWarm;
    const t0 = performance.now();
    const { videoId } = await requestRender(databaseUrl, trajectoryId);
    for (;;) {
      const v = await findVideo(videoId);
      if (v?.status === 'failed') throw new Error(`render failed: ${v.error}`);
      if (v?.status === 'done') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    return (performance.now() - t0) / 1000;
  } finally {
    await stopWorkers(workers);
  }
}

export async function run(): Promise<BenchFigure[]> {
  await rm(dataDir, { recursive: true, force: true });
  let port = 54390;
  while (await portInUse(port)) port++;
  const postgres = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg'), port });
  try {
    await migrateDatabase(postgres.url);
    setEnv('DATABASE_URL', postgres.url);
    setEnv('WITNESS_DATA_DIR', dataDir);
    await installQueue(postgres.url, jobContracts);
    const project = await ensureProject({ slug: 'bench-render', name: 'Render bench' });
    const ids: string[] = [];
    for (const name of ['long-render-one', 'long-render-two']) {
      const stored = await storeTrajectory(project.id, prepareTrajectory(longTrajectory(name)), {
        source: null,
        sourceWhere: null,
        importedById: null,
      });
      ids.push(stored.id);
    }
    const frames = (await videoPropsFor(ids[0]!)).durationInFrames;
    log(
      `${frames} frames: ${planChunks(frames, { workers: 1 }).length} chunks for one worker, ${planChunks(frames, { workers: 2 }).length} for two`,
    );
    const one = await timeWith(1, postgres.url, ids[0]!);
    log(`one worker: ${one.toFixed(1)} s`);
    const two = await timeWith(2, postgres.url, ids[1]!);
    log(`two workers: ${two.toFixed(1)} s`);
    return [
      { group: GROUP, name: `long video (${frames} frames): one worker`, value: one, unit: 's', higherIsBetter: false },
      {
        group: GROUP,
        name: `long video (${frames} frames): two workers`,
        value: two,
        unit: 's',
        higherIsBetter: false,
        comparator: { name: 'one worker', value: one },
        goal: '>= 1.6x one worker',
      },
    ];
  } finally {
    await stopQueueClient();
    await disconnectDb();
    await postgres.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
