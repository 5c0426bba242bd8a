import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';

/**
 * The operator's journey with `witness start` itself: clear one-line errors for what they
 * must fix, clean stops, and a restart after kill -9. Uses the production build that the
 * e2e web server made, its own ports and its own data dirs.
 */
const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, '.data', 'e2e-process');

const children: ChildProcess[] = [];

function start(env: Record<string, string>): ChildProcess & { output: () => string } {
  let output = '';
  // other specs in this worker point DATABASE_URL at the e2e database: these starts get their own
  const base = { ...process.env };
  delete base.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'cli', 'main.ts'), 'start', '--no-demo'], {
    cwd: root,
    env: {
      ...base,
      WITNESS_DATA_DIR: dataDir,
      WITNESS_DB_PORT: '54361',
      PORT: '3161',
      WITNESS_SECRET: 'process-test-secret-process-test-secret-0123',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return Object.assign(child, { output: () => output });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );
}

async function healthy(port = 3161, timeoutMs = 90_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health?ready=1`)).status === 200) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('not healthy in time');
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function postmasterPid(): number | null {
  const file = path.join(dataDir, 'pg', 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : null;
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(() => rmSync(dataDir, { recursive: true, force: true }));
test.afterAll(async () => {
  // a failed test must not leave a studio running
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await Promise.all(children.map((c) => exited(c)));
  rmSync(dataDir, { recursive: true, force: true });
});

test('a port in use stops start with one line that says what to do', async () => {
  const blocker = net.createServer().listen(3162, '127.0.0.1');
  await new Promise((r) => blocker.once('listening', r));
  try {
    const child = start({ PORT: '3162' });
    expect(await exited(child)).toBe(1);
    expect(child.output().trim()).toBe(
      'error: Port 3162 is already in use: stop what uses it, or start on another port (PORT=3001 npm start, or --port 3001).',
    );
  } finally {
    blocker.close();
  }
});

test('an unreachable DATABASE_URL stops start with one line', async () => {
  const child = start({ DATABASE_URL: 'postgresql://nobody:secret@127.0.0.1:1/witness' });
  expect(await exited(child)).toBe(1);
  const lines = child.output().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    /^error: Cannot reach the database at 127\.0\.0\.1:1\/witness \(DATABASE_URL\): .+ unset DATABASE_URL to use the embedded database\.$/,
  );
  expect(lines[0]).not.toContain('secret');
});

test('SIGTERM stops web, worker and database; kill -9 then start works again', async () => {
  test.setTimeout(240_000);
  const first = start({});
  await healthy();
  const pg1 = postmasterPid();
  expect(pg1).not.toBeNull();

  // kill -9: nothing gets to clean up; the database is orphaned and its lock stays behind
  first.kill('SIGKILL');
  await exited(first);
  expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(true);

  const second = start({});
  await healthy();
  expect(second.output()).toContain('Witness is running');
  const health = await (await fetch('http://127.0.0.1:3161/api/health')).json();
  expect(health.database.ok).toBe(true);
  const pg2 = postmasterPid();
  expect(pg2).not.toBe(pg1);
  expect(pidAlive(pg1!)).toBe(false);

  second.kill('SIGTERM');
  expect(await exited(second)).toBe(0);
  expect(second.output()).toContain('stopped.');
  expect(pidAlive(pg2!)).toBe(false);
  expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  await expect(fetch('http://127.0.0.1:3161/api/health')).rejects.toThrow();
});
