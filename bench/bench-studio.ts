import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { childEnv, env } from '../lib/env';

const root = path.resolve(import.meta.dirname, '..');

/**
 * A production studio (`witness start --no-demo`) for a bench area, on its own port, database and
 * data dir, with no automatic renders. `worker: false` leaves out the job worker (its start bundles
 * the compositions, CPU a load test would measure); `nodeArgs` go before the entry (e.g. --cpu-prof).
 */
export function startBenchStudio(options: {
  port: number;
  databaseUrl: string;
  dataDir: string;
  worker: boolean;
  nodeArgs?: string[];
}): ChildProcess {
  const { port, databaseUrl, dataDir, worker, nodeArgs = [] } = options;
  const args = [
    ...nodeArgs,
    '--import',
    'tsx',
    path.join(root, 'cli', 'main.ts'),
    'start',
    '--no-demo',
    ...(worker ? [] : ['--no-worker']),
  ];
  return spawn(process.execPath, args, {
    cwd: root,
    env: childEnv({
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      WITNESS_DATA_DIR: dataDir,
      WITNESS_AUTO_RENDER: '0',
      WITNESS_BASE_URL: `http://localhost:${port}`,
      NEXT_TELEMETRY_DISABLED: '1',
    }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/** Waits until `base`/api/health answers 200 (10 min at most: the first start builds the app); a studio that exits says why. */
export async function untilHealthy(base: string, child: ChildProcess): Promise<void> {
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  const until = Date.now() + 600_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`witness start exited: ${stderr.slice(-800)}`);
    try {
      if ((await fetch(`${base}/api/health?ready=1`)).status === 200) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('studio did not become healthy');
}

/** Stops a bench's studio (SIGTERM: web, worker and database go down cleanly) and waits for it. */
export async function stopBenchStudio(studio: ChildProcess | undefined): Promise<void> {
  if (!studio || studio.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    studio.once('exit', () => resolve());
    studio.kill('SIGTERM');
  });
}

/** Debian's Chromium, headless, for the benches that time pages in a browser. */
export function launchBenchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: env().CHROMIUM_PATH,
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}

/**
 * Kills a bench's studio at once (SIGKILL) and waits for it: for a studio still busy with a
 * request its bench stopped waiting for (SIGTERM waits for that work to end, minutes at worst).
 * Only for a studio on an external database (DATABASE_URL), which owns no data of its own.
 */
export async function killBenchStudio(studio: ChildProcess | undefined): Promise<void> {
  if (!studio || studio.exitCode !== null || studio.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    studio.once('exit', () => resolve());
    studio.kill('SIGKILL');
  });
}

/** Signs in through the sign-in form in Chromium, as a person would; the session cookie header. */
export async function signInCookie(browser: Browser, base: string, email: string, password: string): Promise<string> {
  const context = await browser.newContext({ baseURL: base });
  try {
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/sign-in'));
    const cookies = await context.cookies();
    if (cookies.length === 0) throw new Error(`sign-in as ${email}: no session cookie`);
    return cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  } finally {
    await context.close();
  }
}
