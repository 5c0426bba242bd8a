import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import pg from 'pg';

/**
 * `witness start` when its embedded PostgreSQL dies (kill -9 of the postmaster): it restarts it
 * and the web server, worker and queue carry on; or, when it cannot (its port was taken), it
 * stops and exits 1 with the reason. Uses the production build the e2e run made, its own ports
 * and its own data dirs under the system's temp dir.
 */
const root = path.resolve(import.meta.dirname, '..');
const secret = 'db-restart-test-secret-db-restart-test-secret-0123';
const dirs: string[] = [];
const children: ChildProcess[] = [];

type Studio = ChildProcess & { output: () => string; stderr: () => string; dataDir: string; port: number; dbPort: number };

function cli(args: string[], studio: Pick<Studio, 'dataDir' | 'dbPort'>, env: Record<string, string>, stdin?: string): ChildProcess {
  const base = { ...process.env };
  // other specs in this worker point DATABASE_URL at the e2e database: these get their own
  delete base.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'cli', 'main.ts'), ...args], {
    cwd: root,
    env: { ...base, WITNESS_DATA_DIR: studio.dataDir, WITNESS_DB_PORT: String(studio.dbPort), WITNESS_SECRET: secret, ...env },
    stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (stdin !== undefined) child.stdin!.end(stdin);
  return child;
}

function start(port: number, dbPort: number): Studio {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'witness-db-restart-'));
  dirs.push(dataDir);
  let output = '';
  let stderr = '';
  const child = cli(['start', '--no-demo'], { dataDir, dbPort }, { PORT: String(port), WITNESS_AUTO_RENDER: '0' });
  children.push(child);
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => {
    output += d;
    stderr += d;
  });
  last = Object.assign(child, { output: () => output, stderr: () => stderr, dataDir, port, dbPort });
  return last;
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const value = await Promise.resolve()
      .then(probe)
      .catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

// its last start-up line: start-up's own queries are done (a kill during them fails start-up itself)
const running = (studio: Studio) =>
  until('the studio to be running', 60_000, () => (studio.output().includes('Press Ctrl-C to stop.') ? true : undefined));

function postmasterPid(dataDir: string): number {
  return Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test.describe.configure({ mode: 'serial' });

// a failing test shows what the studio said
let last: Studio | undefined;
test.afterEach(({}, info) => {
  if (last && info.status !== info.expectedStatus) console.log(`studio output:\n${last.output()}`);
});

test.afterAll(async () => {
  // a failed test must not leave a studio running
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await Promise.all(children.map((c) => exited(c)));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test('kill -9 of the database: start restarts it; the web server, sign-in and the worker carry on; SIGTERM exits 0', async ({ page }) => {
  test.setTimeout(90_000);
  const studio = start(3171, 54371);
  await running(studio);

  // a user to sign in as, created through the running studio's database
  const create = cli(
    ['user', 'create', '--email', 'restart@example.com', '--role', 'reviewer', '--password-stdin'],
    studio,
    {},
    'restart-password-123\n',
  );
  expect(await exited(create)).toBe(0);

  const pg1 = postmasterPid(studio.dataDir);
  process.kill(pg1, 'SIGKILL');
  const killedAt = new Date();

  await until('the restart line', 30_000, () => (studio.output().includes('database restarted') ? true : undefined));
  expect(studio.output()).toMatch(new RegExp(`database stopped unexpectedly \\(pid ${pg1}, signal SIGKILL\\): restarting it`));
  const pg2 = postmasterPid(studio.dataDir);
  expect(pg2).not.toBe(pg1);
  expect(pidAlive(pg2)).toBe(true);

  // the web server's pools reconnect: health answers 200 again
  const health = await until('GET /api/health?ready=1 200', 30_000, async () => {
    const res = await fetch(`http://127.0.0.1:${studio.port}/api/health?ready=1`);
    return res.status === 200 ? ((await res.json()) as { database: { ok: boolean }; queue: { ok: boolean } }) : undefined;
  });
  expect(health.database.ok).toBe(true);
  expect(health.queue.ok).toBe(true);

  // a write through the studio: signing in stores a session
  await page.goto(`http://localhost:${studio.port}/sign-in`);
  await page.getByLabel('Email').fill('restart@example.com');
  await page.getByLabel('Password').fill('restart-password-123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);

  // the worker is alive again: it beats in the restarted database (every 10 s)
  const client = new pg.Client({ connectionString: `postgresql://witness:witness@127.0.0.1:${studio.dbPort}/witness` });
  await client.connect();
  try {
    const seen = await until('a worker heartbeat after the restart', 30_000, async () => {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM worker_heartbeat WHERE "seenAt" > ($1::timestamptz AT TIME ZONE 'UTC')`,
        [killedAt],
      );
      return rows[0]!.n >= 1 ? rows[0]!.n : undefined;
    });
    expect(seen).toBeGreaterThanOrEqual(1);
  } finally {
    await client.end();
  }

  studio.kill('SIGTERM');
  expect(await exited(studio)).toBe(0);
  expect(studio.output()).toContain('stopped.');
  expect(pidAlive(pg2)).toBe(false);
});

test('kill -9 of the database and its port taken: start stops and exits 1, saying why', async () => {
  test.setTimeout(90_000);
  const studio = start(3172, 54372);
  await running(studio);

  const pid = postmasterPid(studio.dataDir);
  process.kill(pid, 'SIGKILL');
  // take the port the moment the dead server lets go of it
  const blocker = await until('the database port to be free', 10_000, () => listen(studio.dbPort));
  try {
    const code = await Promise.race([exited(studio), new Promise<string>((r) => setTimeout(() => r('still running'), 60_000))]);
    expect(code).toBe(1);
    expect(studio.output()).toMatch(new RegExp(`database stopped unexpectedly \\(pid ${pid}, signal SIGKILL\\): restarting it`));
    expect(studio.stderr()).toContain(
      `error: the embedded database stopped unexpectedly (pid ${pid}, signal SIGKILL) and could not be restarted after 5 tries: Port ${studio.dbPort} (embedded PostgreSQL) is already in use`,
    );
    // the web server went with it
    await expect(fetch(`http://127.0.0.1:${studio.port}/api/health`)).rejects.toThrow();
  } finally {
    blocker.close();
  }
});

function listen(port: number): Promise<net.Server | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
