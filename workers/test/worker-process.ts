import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { childEnv, env } from '../../lib/env';

/**
 * Real `witness worker` processes for crash tests: each in its own process group, so a kill
 * takes its Chromium and ffmpeg down too, as a lost machine would. Output is collected in `log`
 * for the failure message.
 */
const root = path.resolve(import.meta.dirname, '..', '..');

export function startWorkerProcess(dataDir: string, log: string[]): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'cli', 'main.ts'), 'worker'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv({ DATABASE_URL: env().DATABASE_URL!, WITNESS_DATA_DIR: dataDir, WITNESS_AUTO_RENDER: '0' }),
  });
  child.stdout!.on('data', (d: Buffer) => log.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => log.push(d.toString()));
  return child;
}

export function killGroup(child: ChildProcess | undefined, signal: NodeJS.Signals): void {
  if (!child?.pid || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
}

/** Polls `check` until it gives a value; on timeout the error carries the workers' last output. */
export async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, ms: number, log: string[]): Promise<T> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}; worker output:\n${log.join('').slice(-3000)}`);
}
