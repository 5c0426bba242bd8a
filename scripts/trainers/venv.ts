/**
 * The trainers' Python venv, shared by `npm run test:trainers` (scripts/trainers/run.ts) and
 * `npm run trainer` (scripts/trainer-demo.ts): one venv per exact scripts/trainers/requirements.txt
 * (torch CPU, transformers, trl, datasets, accelerate, httpx, pytest…), kept outside the clone under
 * ~/.cache/witness-trainers/<hash of that file> (WITNESS_TRAINERS_CACHE moves the cache folder) and
 * reused while the file is unchanged; and the Python client (clients/python: `witness`,
 * `witness-trainer`) installed into it from a copy, so no build folder is left in the clone.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../..');
export const requirementsFile = path.join(root, 'scripts', 'trainers', 'requirements.txt');

/** Runs a command in the clone's root, its stdout and stderr echoed (unless quiet) and the last 20,000 characters kept. */
export function runCommand(
  command: string,
  args: string[],
  options: { quiet?: boolean; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd ?? root, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const take = (chunk: Buffer) => {
      const text = chunk.toString();
      output = (output + text).slice(-20000);
      if (!options.quiet) process.stdout.write(text);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (error) => resolve({ code: 127, output: `${output}\n${error.message}` }));
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

export type VenvOutcome = { ok: true; python: string; venv: string; created: boolean } | { ok: false; message: string };

/** The venv for this exact requirements file; created (pip from the machine's index) when missing. */
export async function ensureTrainersVenv(log: (line: string) => void = console.log): Promise<VenvOutcome> {
  const requirements = readFileSync(requirementsFile, 'utf8');
  const hash = createHash('sha256').update(requirements).digest('hex').slice(0, 16);
  const cache = process.env.WITNESS_TRAINERS_CACHE ?? path.join(os.homedir(), '.cache', 'witness-trainers');
  const venv = path.join(cache, hash);
  const python = path.join(venv, 'bin', 'python');
  const marker = path.join(venv, '.witness-installed');
  if (existsSync(marker) && existsSync(python)) return { ok: true, python, venv, created: false };
  log(`creating the trainers' venv ${venv} from ${path.relative(root, requirementsFile)} (a few minutes, once)`);
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(cache, { recursive: true });
  const base = process.env.PYTHON ?? 'python3';
  const made = await runCommand(base, ['-m', 'venv', venv], { quiet: true });
  const installed =
    made.code === 0
      ? await runCommand(
          path.join(venv, 'bin', 'pip'),
          ['install', '--disable-pip-version-check', '--retries', '1', '--timeout', '60', '-r', requirementsFile],
          { quiet: true },
        )
      : made;
  if (installed.code !== 0) {
    const tail = installed.output.trim().split('\n').slice(-8).join('\n');
    rmSync(venv, { recursive: true, force: true });
    return {
      ok: false,
      message:
        `could not install the trainers (${base} -m venv + pip install -r ${path.relative(root, requirementsFile)}).\n${tail}\n` +
        'What to do: give this machine Python 3.10+ with venv and a pip index that has these pinned versions ' +
        '(pip config: index-url / find-links of a local mirror, or internet access to PyPI), or update the pins to versions ' +
        'your index has; then run the command again.',
    };
  }
  writeFileSync(marker, requirements);
  return { ok: true, python, venv, created: true };
}

/**
 * Installs the Python client (clients/python: the `witness` package and its `witness-trainer`
 * console script) into the venv from a copy under `dir` (non-editable; --no-deps: httpx, datasets
 * and pandas are pinned in requirements.txt, and so is setuptools, its build backend).
 */
export async function installPythonClient(python: string, dir: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const source = path.join(dir, 'client-src');
  rmSync(source, { recursive: true, force: true });
  cpSync(path.join(root, 'clients', 'python'), source, {
    recursive: true,
    filter: (from) => !/(^|[/\\])(build|__pycache__|\.pytest_cache|[^/\\]*\.egg-info)$/.test(from),
  });
  const pip = ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-deps', '--no-index', '--no-build-isolation'];
  const installed = await runCommand(python, [...pip, '--force-reinstall', source], { quiet: true });
  if (installed.code !== 0) return { ok: false, message: installed.output.trim().split('\n').slice(-10).join('\n') };
  return { ok: true };
}
