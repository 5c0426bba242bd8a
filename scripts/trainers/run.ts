/**
 * `npm run test:trainers`: every export format, as `witness export` writes it from the seeded
 * demo data, loaded and trained by the real trainers.
 *
 * 1. A Python venv for scripts/trainers/requirements.txt (torch CPU, transformers, trl, datasets,
 *    accelerate), kept outside the clone under ~/.cache/witness-trainers/<hash of that file> and
 *    reused while the file is unchanged (WITNESS_TRAINERS_CACHE moves the cache folder).
 * 2. A fresh embedded PostgreSQL in a temp folder, migrated and seeded with the demo
 *    (prisma/seed/seed-demo.ts), then `witness export --split train` in every format (the CLI
 *    command itself, in this process).
 * 3. scripts/trainers/test_trl.py: a tiny random-initialised Qwen2 model and a byte-level BPE
 *    tokenizer built locally (no model hub); each TRL trainer takes a few optimizer steps with a
 *    finite loss on its export, and every row reads back through `datasets`.
 * 4. scripts/trainers/check_loaders.py: OpenRLHF's and slime's own dataset loaders run on their
 *    exports, from their source when it is present locally (never committed here; skipped
 *    with a message when absent: OPENRLHF_SRC / SLIME_SRC, a checkout or a bare git dir).
 *
 * Ends with one plain line `N passed, N failed`; exits non-zero when anything failed. It never
 * passes without training: a venv that cannot be installed is a failure with what to do.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportCommand } from '../../cli/commands/export';
import { openDatabase } from '../../cli/database';
import { datasetFormats } from '../../lib/datasets/formats';
import { disconnectDb } from '../../lib/db/client';
import { portInUse } from '../../lib/db/embedded-postgres';
import { setEnv } from '../../lib/env';
import { seedDemo } from '../../prisma/seed/seed-demo';

const root = path.resolve(import.meta.dirname, '../..');
const here = path.join(root, 'scripts', 'trainers');
const requirementsFile = path.join(here, 'requirements.txt');
const keep = process.argv.includes('--keep');

interface Result {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  seconds: number;
  detail?: string;
}
const results: Result[] = [];

function record(name: string, status: Result['status'], t0: number, detail?: string) {
  const r: Result = { name, status, seconds: (performance.now() - t0) / 1000, detail };
  results.push(r);
  const mark = status === 'passed' ? 'ok  ' : status === 'skipped' ? 'skip' : 'FAIL';
  console.log(`${mark} ${name} (${r.seconds.toFixed(1)} s)${detail ? `: ${detail}` : ''}`);
}

function run(
  command: string,
  args: string[],
  options: { quiet?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** The venv for this exact requirements file; created (pip from the machine's index) when missing. */
async function ensureVenv(): Promise<string | null> {
  const t0 = performance.now();
  const requirements = readFileSync(requirementsFile, 'utf8');
  const hash = createHash('sha256').update(requirements).digest('hex').slice(0, 16);
  const cache = process.env.WITNESS_TRAINERS_CACHE ?? path.join(os.homedir(), '.cache', 'witness-trainers');
  const venv = path.join(cache, hash);
  const python = path.join(venv, 'bin', 'python');
  const marker = path.join(venv, '.witness-installed');
  if (existsSync(marker) && existsSync(python)) {
    record(`venv ${venv} (reused)`, 'passed', t0);
    return python;
  }
  console.log(`creating the trainers' venv ${venv} from ${path.relative(root, requirementsFile)} (a few minutes, once)`);
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(cache, { recursive: true });
  const base = process.env.PYTHON ?? 'python3';
  const made = await run(base, ['-m', 'venv', venv], { quiet: true });
  const installed =
    made.code === 0
      ? await run(
          path.join(venv, 'bin', 'pip'),
          ['install', '--disable-pip-version-check', '--retries', '1', '--timeout', '60', '-r', requirementsFile],
          {
            quiet: true,
          },
        )
      : made;
  if (installed.code !== 0) {
    const tail = installed.output.trim().split('\n').slice(-8).join('\n');
    record(
      'venv',
      'failed',
      t0,
      `could not install the trainers (${base} -m venv + pip install -r ${path.relative(root, requirementsFile)}).\n${tail}\n` +
        'What to do: give this machine Python 3.10+ with venv and a pip index that has these pinned versions ' +
        '(pip config: index-url / find-links of a local mirror, or internet access to PyPI), or update the pins to versions ' +
        'your index has; then run `npm run test:trainers` again. The test does not pass without training.',
    );
    rmSync(venv, { recursive: true, force: true });
    return null;
  }
  writeFileSync(marker, requirements);
  record(`venv ${venv} (created)`, 'passed', t0);
  return python;
}

async function freePort(from: number): Promise<number> {
  let port = from;
  while (await portInUse(port)) port++;
  return port;
}

/** Seeds a fresh database with the demo and exports every format with `witness export`. */
async function exportDemo(dir: string): Promise<Record<string, number>> {
  const t0 = performance.now();
  setEnv('WITNESS_DATA_DIR', path.join(dir, 'data'));
  setEnv('WITNESS_DB_PORT', String(await freePort(54631)));
  setEnv('WITNESS_AUTO_RENDER', '0');
  const database = await openDatabase();
  const rows: Record<string, number> = {};
  try {
    await seedDemo();
    record('seed the demo data (embedded PostgreSQL, migrations, seedDemo)', 'passed', t0);
    for (const format of datasetFormats) {
      const t1 = performance.now();
      const out = path.join(dir, 'exports', `${format}.jsonl`);
      let stdout = '';
      let stderr = '';
      const code = await exportCommand.run(['--format', format, '--project', 'demo', '--split', 'train', '--out', out, '--json'], {
        stdout: (t) => void (stdout += t),
        stderr: (t) => void (stderr += t),
        readStdin: async () => '',
        cwd: root,
      });
      if (code !== 0) {
        record(`witness export --format ${format}`, 'failed', t1, `exit ${code}: ${stderr.trim()}`);
        continue;
      }
      const summary = JSON.parse(stdout) as { rows: number; excluded: Record<string, number> };
      rows[format] = summary.rows;
      if (summary.rows === 0) record(`witness export --format ${format}`, 'failed', t1, 'no rows: nothing to train on');
      else record(`witness export --format ${format}`, 'passed', t1, `${summary.rows} rows, excluded ${JSON.stringify(summary.excluded)}`);
    }
  } finally {
    await disconnectDb();
    await database.stop();
  }
  return rows;
}

interface PyReport {
  tests: { name: string; status: 'passed' | 'failed' | 'skipped'; seconds: number; detail?: string }[];
}

async function python(pythonBin: string, script: string, args: string[], reportPath: string, label: string) {
  const t0 = performance.now();
  const r = await run(pythonBin, [path.join(here, script), ...args, '--report', reportPath], {
    env: { ...process.env, PYTHONUNBUFFERED: '1', HF_HUB_OFFLINE: '1', HF_DATASETS_OFFLINE: '1', TOKENIZERS_PARALLELISM: 'false' },
  });
  if (!existsSync(reportPath)) {
    record(label, 'failed', t0, `exit ${r.code} without a report:\n${r.output.trim().split('\n').slice(-15).join('\n')}`);
    return;
  }
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as PyReport;
  for (const t of report.tests) results.push(t);
  if (r.code !== 0 && !report.tests.some((t) => t.status === 'failed')) record(label, 'failed', t0, `exit ${r.code}`);
}

async function main(): Promise<number> {
  const t0 = performance.now();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'witness-trainers-'));
  // mkdtemp makes a 0700 folder; as root the embedded PostgreSQL runs as the postgres user and must reach its data dir in it
  chmodSync(dir, 0o755);
  try {
    const [pythonBin, rows] = await Promise.all([ensureVenv(), exportDemo(dir)]);
    const exportsDir = path.join(dir, 'exports');
    writeFileSync(path.join(exportsDir, 'rows.json'), JSON.stringify(rows));
    if (pythonBin) {
      console.log('\n=== TRL trainers (scripts/trainers/test_trl.py) ===');
      await python(
        pythonBin,
        'test_trl.py',
        ['--exports', exportsDir, '--work', path.join(dir, 'work')],
        path.join(dir, 'trl.json'),
        'TRL trainers',
      );
      console.log('\n=== OpenRLHF and slime loaders (scripts/trainers/check_loaders.py) ===');
      await python(
        pythonBin,
        'check_loaders.py',
        ['--exports', exportsDir, '--tokenizer', path.join(dir, 'work', 'tokenizer')],
        path.join(dir, 'loaders.json'),
        'OpenRLHF and slime loaders',
      );
    }
  } catch (error) {
    record('trainer test', 'failed', t0, (error as Error).stack ?? String(error));
  } finally {
    if (keep) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  const passed = results.filter((r) => r.status === 'passed').length;
  const failed = results.filter((r) => r.status === 'failed');
  const skipped = results.filter((r) => r.status === 'skipped');
  console.log(`\ntrainer test: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  for (const s of skipped) console.log(`skipped: ${s.name}: ${s.detail ?? ''}`);
  for (const f of failed) console.log(`FAILED: ${f.name}: ${(f.detail ?? '').split('\n')[0]}`);
  console.log(`${passed} passed, ${failed.length} failed`);
  return failed.length > 0 || passed === 0 ? 1 : 0;
}

process.exitCode = await main();
