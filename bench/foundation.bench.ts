import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { BenchFigure } from './figure';

/**
 * Cold start (fresh data dir: initdb, migrations, demo seed, web, worker) and warm start
 * (same data dir again) of `witness start`, each timed from spawn until GET /api/health is 200.
 * The production build is made beforehand, untimed.
 */
const root = path.resolve(import.meta.dirname, '..');
const port = 3190;
const dbPort = 54390;
const dataDir = path.join(root, '.data', 'bench-start');

function startStudio(): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(root, 'cli', 'main.ts'), 'start'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), WITNESS_DATA_DIR: dataDir, WITNESS_DB_PORT: String(dbPort), NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', process.env.BENCH_VERBOSE ? 'inherit' : 'ignore', 'pipe'],
  });
}

async function untilHealthy(child: ChildProcess, timeoutMs = 120_000): Promise<number> {
  const t0 = performance.now();
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  while (performance.now() - t0 < timeoutMs) {
    if (child.exitCode !== null)
      // the error line first (a stack after it would push it out of a short tail), then the tail
      throw new Error(
        `witness start exited early (${child.exitCode}): ${stderr.split('\n').find((l) => /error/i.test(l)) ?? ''}\n${stderr.slice(-3000)}`,
      );
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health?ready=1`);
      if (response.status === 200) return (performance.now() - t0) / 1000;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('witness start did not become healthy in time');
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function ensureBuild(): Promise<void> {
  if (existsSync(path.join(root, '.next', 'BUILD_ID'))) return;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(path.join(root, 'node_modules', '.bin', 'next'), ['build'], {
      cwd: root,
      stdio: 'ignore',
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error('next build failed'))));
  });
}

export async function run(): Promise<BenchFigure[]> {
  await ensureBuild();
  rmSync(dataDir, { recursive: true, force: true });
  const cold = startStudio();
  const coldSeconds = await untilHealthy(cold);
  await stop(cold);
  const warm = startStudio();
  const warmSeconds = await untilHealthy(warm);
  await stop(warm);
  rmSync(dataDir, { recursive: true, force: true });
  return [
    {
      group: 'foundation',
      name: 'cold start to healthy (initdb, migrate, seed, web, worker)',
      value: coldSeconds,
      unit: 's',
      higherIsBetter: false,
    },
    { group: 'foundation', name: 'warm start to healthy', value: warmSeconds, unit: 's', higherIsBetter: false },
  ];
}
