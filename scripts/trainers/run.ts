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
 * 5. The Python client (clients/python) against one real studio: `witness start` (the demo seed, a
 *    worker) on free ports with its own data dir, started at the outset beside steps 1-2; the client is
 *    installed into the venv from a copy of ./clients/python (non-editable, every run), two tokens made for
 *    the demo admin (`witness token create`: scope all, and scope training for witness-trainer), and pytest's
 *    tests (clients/python/tests, WITNESS_URL, WITNESS_TOKEN, WITNESS_TRAINING_TOKEN, and the studio's
 *    WITNESS_DATA_DIR and WITNESS_DATABASE_URL) counted here one by one from its junit report; the studio is stopped (SIGTERM) before
 *    the trainers run, and in every case.
 *
 * 6. The closed loop on a CPU (scripts/trainers/loop.ts), against the same studio before it stops:
 *    `witness train start` on the demo's DPO labels with the tiny model as base, the real
 *    `witness-trainer --once` training it (examples/train_dpo.py) and answering the eval tasks with the
 *    trained checkpoint (examples/eval_generate.py), the canary campaign, the demo reviewers' votes
 *    through the API, and a screenshot of the hill-climb page (hill-climb.png in the temp folder).
 *
 * `--client` runs only step 5 (and the venv), `--loop` only step 6 (and the venv), `--keep` keeps the
 * temp folder (exports, studio log, witness-trainer.log, hill-climb.png).
 *
 * Ends with one plain line `N passed, N failed`; exits non-zero when anything failed. It never
 * passes without training: a venv that cannot be installed is a failure with what to do.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportCommand } from '../../cli/commands/export';
import { openDatabase } from '../../cli/database';
import { datasetFormats } from '../../lib/datasets/formats';
import { disconnectDb } from '../../lib/db/client';
import { portInUse } from '../../lib/db/embedded-postgres';
import { setEnv } from '../../lib/env';
import { seedDemo } from '../../prisma/seed/seed-demo';
import { trainingLoop } from './loop';
import { createTokenWithCli } from './create-token';
import { ensureTrainersVenv, installPythonClient, runCommand } from './venv';

const root = path.resolve(import.meta.dirname, '../..');
const here = path.join(root, 'scripts', 'trainers');
const keep = process.argv.includes('--keep');
/** `--client`: only the Python client's tests (step 5), not the exports and trainers (for working on clients/python) */
const clientOnly = process.argv.includes('--client');
/** `--loop`: only the closed loop (step 6, scripts/trainers/loop.ts) against the studio (and the venv) */
const loopOnly = process.argv.includes('--loop');

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

const run = runCommand;

/** The venv for this exact requirements file (scripts/trainers/venv.ts), recorded as a result. */
async function ensureVenv(): Promise<string | null> {
  const t0 = performance.now();
  const venv = await ensureTrainersVenv();
  if (!venv.ok) {
    record('venv', 'failed', t0, `${venv.message} The test does not pass without training.`);
    return null;
  }
  record(`venv ${venv.venv} (${venv.created ? 'created' : 'reused'})`, 'passed', t0);
  return venv.python;
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

/** The studio the Python client's tests call: `witness start` in a child process, on its own ports and data dir. */
interface Studio {
  child: ChildProcess;
  url: string;
  env: NodeJS.ProcessEnv;
  log: string;
  exited: Promise<number | null>;
}

/** The environment this run started with (exportDemo sets DATABASE_URL and the data dir in this process later). */
const startEnv = { ...process.env };

async function startStudio(dir: string): Promise<Studio> {
  const port = await freePort(3390);
  const dbPort = await freePort(54731);
  const env: NodeJS.ProcessEnv = { ...startEnv };
  // its own embedded PostgreSQL: never one this process or the shell points at
  delete env.DATABASE_URL;
  Object.assign(env, {
    PORT: String(port),
    WITNESS_HOST: '127.0.0.1',
    WITNESS_DATA_DIR: path.join(dir, 'studio'),
    WITNESS_DB_PORT: String(dbPort),
    WITNESS_SECRET: randomBytes(24).toString('hex'),
    WITNESS_BASE_URL: `http://127.0.0.1:${port}`,
    WITNESS_AUTO_RENDER: '0',
    WITNESS_DEMO: '1',
    NEXT_TELEMETRY_DISABLED: '1',
  });
  const log = path.join(dir, 'studio.log');
  const out = createWriteStream(log);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'cli', 'main.ts'), 'start'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, url: `http://127.0.0.1:${port}`, env, log, exited };
}

/** Waits until the studio says it is ready (`/api/health?ready=1`: after the seed, the worker and the web server). */
async function studioReady(studio: Studio, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void studio.exited.then(() => (gone = true));
  while (Date.now() < deadline) {
    if (gone) throw new Error(`witness start exited before it was ready:\n${logTail(studio.log)}`);
    const ok = await fetch(`${studio.url}/api/health?ready=1`, { signal: AbortSignal.timeout(5000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the studio was not ready within ${timeoutMs / 1000} s:\n${logTail(studio.log)}`);
}

/** SIGTERM, then up to 60 s for web, worker and database to stop (SIGKILL after). */
async function stopStudio(studio: Studio): Promise<void> {
  if (studio.child.exitCode !== null || studio.child.signalCode !== null) return;
  studio.child.kill('SIGTERM');
  const timer = setTimeout(() => studio.child.kill('SIGKILL'), 60_000);
  await studio.exited;
  clearTimeout(timer);
}

function logTail(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').slice(-20).join('\n') : '(no log)';
}

/**
 * The Python client's tests against the studio: the client installed into the venv (a copy of
 * ./clients/python, so no build folder is left in the clone; --no-deps: httpx, datasets and pandas
 * are pinned in requirements.txt), a token for the demo admin, pytest, each test a result here.
 */
async function clientTests(pythonBin: string, studio: Studio, dir: string): Promise<void> {
  const t0 = performance.now();
  const installed = await installPythonClient(pythonBin, dir);
  if (!installed.ok) {
    record('python client: pip install ./clients/python', 'failed', t0, installed.message);
    return;
  }
  record('python client: pip install ./clients/python (into the venv)', 'passed', t0);

  const t1 = performance.now();
  try {
    await studioReady(studio, 15 * 60_000);
  } catch (error) {
    record('python client: the studio (witness start)', 'failed', t1, (error as Error).message);
    return;
  }
  record(`python client: the studio (witness start) ready at ${studio.url}`, 'passed', t1);

  const t2 = performance.now();
  const made = await createTokenWithCli({ user: 'admin@witness.local', scope: 'all', env: studio.env });
  if (!made.ok) {
    record('python client: witness token create', 'failed', t2, `exit ${made.code}: ${made.output.trim().slice(-2000)}`);
    return;
  }
  const token = made.token;
  // a second token, of scope training, for the trainer agent's tests (clients/python/tests/test_trainer.py)
  const madeTraining = await createTokenWithCli({ user: 'admin@witness.local', scope: 'training', env: studio.env });
  if (!madeTraining.ok) {
    record(
      'python client: witness token create --scope training',
      'failed',
      t2,
      `exit ${madeTraining.code}: ${madeTraining.output.trim().slice(-2000)}`,
    );
    return;
  }
  const trainingToken = madeTraining.token;

  const junit = path.join(dir, 'pytest.xml');
  const r = await run(
    pythonBin,
    ['-m', 'pytest', path.join(root, 'clients', 'python', 'tests'), '-q', '-p', 'no:cacheprovider', `--junitxml=${junit}`],
    {
      env: {
        ...process.env,
        WITNESS_URL: studio.url,
        WITNESS_TOKEN: token,
        WITNESS_TRAINING_TOKEN: trainingToken,
        // the studio's data dir (a test corrupts a stored dataset) and database (a test writes a state no path makes)
        WITNESS_DATA_DIR: studio.env.WITNESS_DATA_DIR,
        WITNESS_DATABASE_URL: `postgresql://witness:witness@127.0.0.1:${studio.env.WITNESS_DB_PORT}/witness`,
        WITNESS_REQUIRE_STUDIO: '1',
        WITNESS_CACHE: path.join(dir, 'client-cache'),
        HF_HUB_OFFLINE: '1',
        HF_DATASETS_OFFLINE: '1',
        HF_DATASETS_CACHE: path.join(dir, 'hf-datasets'),
        PYTHONDONTWRITEBYTECODE: '1',
      },
    },
  );
  const cases = existsSync(junit) ? junitCases(readFileSync(junit, 'utf8')) : [];
  for (const c of cases) results.push({ ...c, name: `python client: ${c.name}` });
  if (cases.length === 0 || (r.code !== 0 && !cases.some((c) => c.status === 'failed')))
    record(
      'python client: pytest clients/python/tests',
      'failed',
      t2,
      `exit ${r.code}:\n${r.output.trim().split('\n').slice(-15).join('\n')}`,
    );
}

/** The test cases of a pytest junit report: name, seconds, passed / failed (a failure or an error) / skipped. */
function junitCases(xml: string): Result[] {
  const cases: Result[] = [];
  for (const m of xml.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(m[1]!)?.[1] ?? '';
    const body = m[2] ?? '';
    const problem = /<(failure|error)\b[^>]*?message="([^"]*)"/.exec(body) ?? /<(failure|error)\b/.exec(body);
    const skipped = /<skipped\b(?:[^>]*?\bmessage="([^"]*)")?/.exec(body);
    const status: Result['status'] = problem ? 'failed' : skipped ? 'skipped' : 'passed';
    const detail = problem ? unescapeXml(problem[2] ?? problem[1]!) : skipped ? unescapeXml(skipped[1] ?? '') : undefined;
    cases.push({ name: `${attr('classname')}.${attr('name')}`, status, seconds: Number(attr('time')) || 0, detail });
    const mark = status === 'passed' ? 'ok  ' : status === 'skipped' ? 'skip' : 'FAIL';
    console.log(`${mark} python client: ${attr('name')} (${(Number(attr('time')) || 0).toFixed(1)} s)`);
  }
  return cases;
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

async function main(): Promise<number> {
  const t0 = performance.now();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'witness-trainers-'));
  // mkdtemp makes a 0700 folder; as root the embedded PostgreSQL runs as the postgres user and must reach its data dir in it
  chmodSync(dir, 0o755);
  let studio: Studio | undefined;
  try {
    // the client's studio starts first, beside the venv and the in-process export (other ports, another data dir)
    studio = await startStudio(dir);
    const [pythonBin, rows] = await Promise.all([ensureVenv(), clientOnly || loopOnly ? null : exportDemo(dir)]);
    const exportsDir = path.join(dir, 'exports');
    if (rows) writeFileSync(path.join(exportsDir, 'rows.json'), JSON.stringify(rows));
    if (pythonBin) {
      console.log('\n=== Python client (clients/python/tests) against a studio ===');
      const t1 = performance.now();
      if (!loopOnly) await clientTests(pythonBin, studio, dir);
      if (!clientOnly) {
        console.log('\n=== The closed loop: train start, witness-trainer, eval, canary, votes, hill climb (scripts/trainers/loop.ts) ===');
        const t2 = performance.now();
        const ready = await studioReady(studio, 15 * 60_000).then(
          () => true,
          (error: Error) => (record('loop: the studio (witness start)', 'failed', t2, error.message), false),
        );
        if (ready) await trainingLoop({ python: pythonBin, studio, dir, record });
      }
      await stopStudio(studio);
      console.log(`python client: ${((performance.now() - t1) / 1000).toFixed(1)} s, the studio stopped`);
    }
    if (pythonBin && !clientOnly && !loopOnly) {
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
    if (studio) await stopStudio(studio);
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
