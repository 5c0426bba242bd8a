import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';

/**
 * The README's first hour, as a newcomer runs it (issue 39): `npm start` (here `witness start`,
 * what it runs, on CI's build, its own port and data dir, demo data on) on a machine whose
 * Chromium is missing; the readiness answer (`/api/health?ready=1`) is 503 with what is pending
 * until start prints "Witness is running at"; a demo user signs in; `witness import` in a second
 * terminal (no port given: the default one) lands in the running studio's database and leaves it
 * healthy; Ctrl-C (SIGINT to the whole process group, as a terminal sends it) stops everything.
 */
const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, '.data', 'e2e-newcomer');
const port = 3181;
const base = `http://127.0.0.1:${port}`;

function newcomerEnv(): NodeJS.ProcessEnv {
  // other specs point DATABASE_URL at the e2e database: a newcomer has none
  const env: NodeJS.ProcessEnv = { ...process.env, WITNESS_DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: '1' };
  for (const name of ['DATABASE_URL', 'WITNESS_DB_PORT', 'PORT', 'WITNESS_BASE_URL', 'WITNESS_DEMO', 'WITNESS_AUTO_RENDER'])
    delete env[name];
  return env;
}

let studio: (ChildProcess & { output: () => string }) | undefined;

test.beforeAll(() => rmSync(dataDir, { recursive: true, force: true }));
test.afterAll(async () => {
  if (studio && studio.exitCode === null && studio.signalCode === null) {
    studio.kill('SIGTERM');
    await new Promise((r) => studio!.once('exit', r));
  }
  rmSync(dataDir, { recursive: true, force: true });
});

test('npm start without Chromium, readiness, sign-in, an import from a second terminal, Ctrl-C', async ({ page }) => {
  test.setTimeout(240_000);
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'cli', 'main.ts'), 'start', '--port', String(port)], {
    cwd: root,
    // the database's default port is the second terminal's too; this machine has Chromium, the newcomer's not
    env: { ...newcomerEnv(), WITNESS_DB_PORT: '54381', CHROMIUM_PATH: path.join(dataDir, 'no-chromium') },
    stdio: ['ignore', 'pipe', 'pipe'],
    // a process group of its own, as a terminal's foreground job: Ctrl-C signals every process in it
    detached: true,
  });
  studio = Object.assign(child, { output: () => output });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));

  // readiness, asked from the first moment: 503 with what is pending, then 200 once start says it runs
  const early: { status: number; pending?: string[] }[] = [];
  const until = Date.now() + 200_000;
  for (;;) {
    expect(child.exitCode, output).toBeNull();
    expect(Date.now(), `not ready in time:\n${output}`).toBeLessThan(until);
    const answer = await fetch(`${base}/api/health?ready=1`).catch(() => null);
    if (answer) {
      const body = (await answer.json()) as { pending?: string[] };
      if (answer.status === 200) break;
      early.push({ status: answer.status, pending: body.pending });
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // ready is the moment start says it runs (the line is written in the same tick ready turns 200)
  await expect.poll(() => output, { timeout: 5_000 }).toContain('Witness is running at');
  // the web answered while the demo was still seeding or the worker starting: not ready yet, and saying why
  expect(early.length).toBeGreaterThan(0);
  expect(early.every((a) => a.status === 503)).toBe(true);
  expect(early.flatMap((a) => a.pending ?? []).join('\n')).toMatch(/demo: seeding the demo data|worker: starting the job worker/);
  // no Chromium: it started anyway and said so; the worker keeps the demo's render jobs queued
  expect(output).toMatch(/Chromium not found at .*no-chromium: the studio starts without it; videos render once it is there/);
  await expect.poll(() => output, { timeout: 30_000 }).toMatch(/not taking video\.render jobs yet: Chromium not found/);

  // a demo user signs in
  await page.goto(`${base}/sign-in`);
  await page.getByLabel('Email').fill('lead@witness.local');
  await page.getByLabel('Password').fill('witness-demo-lead');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);

  // the second terminal: `npm run -s witness -- import …` with nothing set but the data dir
  const postmaster = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const imported = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(root, 'cli', 'main.ts'),
      'import',
      path.join(root, 'lib', 'formats', 'fixtures', 'harbor', 'trial-basic'),
      '--project',
      'demo',
      '--json',
    ],
    { cwd: root, env: newcomerEnv(), encoding: 'utf8', timeout: 120_000 },
  );
  expect(imported.status, imported.stderr).toBe(0);
  const report = JSON.parse(imported.stdout) as { imported: number; trajectories: { id: string }[] };
  expect(report.imported).toBe(1);
  // the studio's database served it, and is still the same server
  expect(Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0])).toBe(postmaster);
  // once more on a socket the pool kept from the readiness polling that the server closed meanwhile ("other side closed")
  const health = await fetch(`${base}/api/health?ready=1`).catch(() => fetch(`${base}/api/health?ready=1`));
  expect(health.status).toBe(200);
  const trajectory = await page.goto(`${base}/trajectories/${report.trajectories[0]!.id}`);
  expect(trajectory?.status()).toBe(200);
  await expect(page.getByRole('heading').first()).toBeVisible();

  // Ctrl-C: SIGINT to the terminal's whole job (start, its worker and the database's processes
  // alike); web, worker and database stop, exit 0, and the database's exit is not taken for a crash
  process.kill(-child.pid!, 'SIGINT');
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  expect(code, output).toBe(0);
  expect(output).toContain('stopped.');
  expect(output).not.toContain('stopped unexpectedly');
  expect(output).not.toContain('restarting it');
  expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
});
