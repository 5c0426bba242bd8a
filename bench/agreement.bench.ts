import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import type { Battle, BattleWinner } from '../lib/stats/battles';
import { bradleyTerryRatings } from '../lib/stats/bradley-terry';
import { krippendorffAlpha } from '../lib/stats/krippendorff-alpha';
import { mulberry32 } from '../lib/stats/prng';
import { encodeRatings, type MeasurementLevel } from '../lib/stats/ratings';
import { readRatingsFile } from '../lib/stats/read-ratings-file';
import type { BenchFigure } from './figure';

/**
 * Agreement benchmarks.
 * - Krippendorff's alpha on 1,000,000 ratings (100,000 units x 10 raters, 10% missing, values
 *   1..5) versus a vectorised numpy implementation (bench/agreement_numpy.py) on the same file in
 *   the same run. Both sides are timed from memory (median of 7): Witness from the Rating[] the
 *   file reader returns (encoding included, after 3 warm-up runs for the JIT), numpy from its
 *   loaded arrays (np.unique included).
 *   File loading is reported separately. The two alphas must agree within 1e-9.
 * - Bradley-Terry with 1,000 bootstrap rounds on 100,000 battles among 20 models.
 * - End to end, process start to exit (the real binary, `node bin/witness.mjs agreement|rank
 *   --input FILE --json`), against the same pipeline in Python + numpy on the same file
 *   (numpy import, np.loadtxt, the computation, JSON out): `agreement --bootstrap 0` (nominal
 *   alpha) vs `agreement_numpy.py FILE --pipeline nominal`; `rank` with its 1,000 bootstrap
 *   rounds vs bench/rank_numpy.py. Each the median wall time of REPEATS runs after a warm-up
 *   run (which also builds the CLI bundle when stale), alternating; results must agree (alpha
 *   within 1e-9, every rating within 1e-6).
 */
const execFileAsync = promisify(execFile);
const REPEATS = 7;
const WARMUPS = 3;
const GROUP = 'agreement';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

async function writeRatingsCsv(file: string): Promise<number> {
  const random = mulberry32(20240501);
  await writeFile(file, 'unit,rater,value\n');
  let written = 0;
  let chunk: string[] = [];
  for (let u = 0; u < 100_000; u++) {
    const truth = 1 + Math.floor(random() * 5);
    for (let r = 0; r < 10; r++) {
      if (random() < 0.1) continue;
      const value = random() < 0.7 ? truth : 1 + Math.floor(random() * 5);
      chunk.push(`${u},${r},${value}`);
      written++;
    }
    if (chunk.length >= 100_000) {
      await appendFile(file, `${chunk.join('\n')}\n`);
      chunk = [];
    }
  }
  if (chunk.length > 0) await appendFile(file, `${chunk.join('\n')}\n`);
  return written;
}

async function numpyAvailable(): Promise<boolean> {
  try {
    await execFileAsync('python3', ['-c', 'import numpy'], { env: childEnv() });
    return true;
  } catch {
    return false;
  }
}

function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  return env;
}

interface NumpyReport {
  n_ratings: number;
  load_ms: number;
  alpha: Record<string, number>;
  compute_ms: Record<string, number>;
}

function battles(n: number, models: number, seed: number): Battle[] {
  const random = mulberry32(seed);
  const strength = Array.from({ length: models }, () => random() * 2 - 1);
  const out: Battle[] = [];
  for (let k = 0; k < n; k++) {
    const a = Math.floor(random() * models);
    const b = (a + 1 + Math.floor(random() * (models - 1))) % models;
    const p = 1 / (1 + 10 ** (strength[b]! - strength[a]!));
    const u = random();
    const winner: BattleWinner = u < 0.08 ? 'tie' : u < 0.12 ? 'tie (bothbad)' : random() < p ? 'model_a' : 'model_b';
    out.push({ model_a: `model-${a}`, model_b: `model-${b}`, winner });
  }
  return out;
}

const root = path.resolve(import.meta.dirname, '..');

async function timed<T>(
  file: string,
  args: string[],
  parse: (stdout: string) => T,
  env?: NodeJS.ProcessEnv,
): Promise<{ ms: number; out: T }> {
  const t = performance.now();
  const { stdout } = await execFileAsync(file, args, { cwd: root, env: env ?? process.env, maxBuffer: 16 << 20 });
  return { ms: performance.now() - t, out: parse(stdout) };
}

/** Median wall times of the CLI and its numpy pipeline, alternating, after one warm-up run of each. */
async function endToEnd<A, B>(
  cli: string[],
  python: string[] | null,
  parseA: (s: string) => A,
  parseB: (s: string) => B,
): Promise<{ ours: number; theirs: number | null; a: A; b: B | null }> {
  const runCli = () => timed(process.execPath, [path.join(root, 'bin', 'witness.mjs'), ...cli], parseA);
  const runPython = () => timed('python3', python!, parseB, childEnv());
  await runCli();
  if (python) await runPython();
  const ours: number[] = [];
  const theirs: number[] = [];
  let a: A | undefined;
  let b: B | null = null;
  for (let i = 0; i < REPEATS; i++) {
    const x = await runCli();
    ours.push(x.ms);
    a = x.out;
    if (python) {
      const y = await runPython();
      theirs.push(y.ms);
      b = y.out;
    }
  }
  return { ours: median(ours), theirs: python ? median(theirs) : null, a: a!, b };
}

async function writeBattlesCsv(file: string, arena: Battle[]): Promise<void> {
  const lines = arena.map((b) => `${b.model_a},${b.model_b},${b.winner}`);
  await writeFile(file, `model_a,model_b,winner\n${lines.join('\n')}\n`);
}

export async function run(): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  const dir = await mkdtemp(path.join(tmpdir(), 'witness-bench-agreement-'));
  try {
    const file = path.join(dir, 'ratings.csv');
    const nRatings = await writeRatingsCsv(file);

    let t = performance.now();
    const ratings = await readRatingsFile(file);
    const loadMs = performance.now() - t;
    if (ratings.unit.length !== nRatings) throw new Error(`read ${ratings.unit.length} ratings, wrote ${nRatings}`);

    const hasNumpy = await numpyAvailable();
    let numpy: NumpyReport | null = null;
    if (hasNumpy) {
      const { stdout } = await execFileAsync('python3', [path.join(import.meta.dirname, 'agreement_numpy.py'), file, String(REPEATS)], {
        env: childEnv(),
        maxBuffer: 1 << 20,
      });
      numpy = JSON.parse(stdout) as NumpyReport;
      if (numpy.n_ratings !== nRatings) throw new Error(`numpy read ${numpy.n_ratings} ratings, wrote ${nRatings}`);
    }

    for (const level of ['interval', 'nominal'] as MeasurementLevel[]) {
      for (let i = 0; i < WARMUPS; i++) krippendorffAlpha(encodeRatings(ratings), level); // JIT warm-up
      const times: number[] = [];
      let value = Number.NaN;
      for (let i = 0; i < REPEATS; i++) {
        t = performance.now();
        value = krippendorffAlpha(encodeRatings(ratings), level).value;
        times.push(performance.now() - t);
      }
      if (numpy) {
        const theirs = numpy.alpha[level]!;
        if (!(Math.abs(value - theirs) <= 1e-9)) {
          throw new Error(`alpha (${level}) differs: Witness ${value}, numpy ${theirs}`);
        }
      }
      figures.push({
        group: GROUP,
        name: `Krippendorff alpha ${level}, 1M ratings (compute from memory)`,
        value: median(times),
        unit: 'ms',
        higherIsBetter: false,
        ...(numpy ? { comparator: { name: 'numpy (vectorised)', value: numpy.compute_ms[level]! } } : {}),
        goal: numpy ? '<= 1.0x numpy' : '<= 1.0x numpy (numpy not installed: no comparator)',
      });
    }
    figures.push({
      group: GROUP,
      name: 'load 1M ratings CSV (readRatingsFile, streamed)',
      value: loadMs,
      unit: 'ms',
      higherIsBetter: false,
      ...(numpy ? { comparator: { name: 'np.loadtxt (numeric only)', value: numpy.load_ms } } : {}),
    });

    // end to end: witness agreement vs numpy's pipeline
    {
      const e2e = await endToEnd(
        ['agreement', '--input', file, '--json', '--bootstrap', '0'],
        hasNumpy ? [path.join(import.meta.dirname, 'agreement_numpy.py'), file, '--pipeline', 'nominal'] : null,
        (s) => JSON.parse(s) as { value: number; n_ratings: number },
        (s) => JSON.parse(s) as { alpha: number; n_ratings: number },
      );
      if (e2e.a.n_ratings !== nRatings) throw new Error(`witness agreement read ${e2e.a.n_ratings} ratings, wrote ${nRatings}`);
      if (e2e.b && !(Math.abs(e2e.a.value - e2e.b.alpha) <= 1e-9))
        throw new Error(`agreement end to end: Witness ${e2e.a.value}, numpy ${e2e.b.alpha}`);
      figures.push({
        group: GROUP,
        name: 'witness agreement --json --bootstrap 0, 1M-rating CSV, nominal alpha (process start to exit)',
        value: e2e.ours,
        unit: 'ms',
        higherIsBetter: false,
        ...(e2e.theirs !== null ? { comparator: { name: 'python3 + numpy (import, loadtxt, alpha)', value: e2e.theirs } } : {}),
        goal: '<= 1.0x numpy',
      });
    }

    const arena = battles(100_000, 20, 7);
    {
      const battlesFile = path.join(dir, 'battles.csv');
      await writeBattlesCsv(battlesFile, arena);
      type Ranked = { ratings: { model: string; rating: number; battles: number }[] };
      const e2e = await endToEnd(
        ['rank', '--input', battlesFile, '--json'],
        hasNumpy ? [path.join(import.meta.dirname, 'rank_numpy.py'), battlesFile, '1000'] : null,
        (s) => JSON.parse(s) as Ranked,
        (s) => JSON.parse(s) as Ranked,
      );
      if (e2e.a.ratings.length !== 20) throw new Error('witness rank: expected 20 models');
      if (e2e.b) {
        const theirs = new Map(e2e.b.ratings.map((r) => [r.model, r]));
        for (const r of e2e.a.ratings) {
          const t = theirs.get(r.model);
          if (!t || Math.abs(t.rating - r.rating) > 1e-6 || t.battles !== r.battles)
            throw new Error(`rank end to end: ${r.model} Witness ${r.rating}, numpy ${t?.rating}`);
        }
      }
      figures.push({
        group: GROUP,
        name: 'witness rank --json, 100k battles x 20 models CSV, 1,000 bootstrap rounds (process start to exit)',
        value: e2e.ours,
        unit: 'ms',
        higherIsBetter: false,
        ...(e2e.theirs !== null
          ? { comparator: { name: 'python3 + numpy (import, loadtxt, Newton fit, bootstrap)', value: e2e.theirs } }
          : {}),
        goal: '<= 1.0x numpy',
      });
    }
    t = performance.now();
    const ranked = bradleyTerryRatings(arena, { bootstrap: 1000, seed: 1 });
    const btMs = performance.now() - t;
    if (ranked.ratings.length !== 20 || ranked.ratings.some((r) => !r.ci)) throw new Error('Bradley-Terry bench: bad result');
    figures.push({
      group: GROUP,
      name: 'Bradley-Terry, 100k battles x 20 models, 1,000 bootstrap rounds',
      value: btMs,
      unit: 'ms',
      higherIsBetter: false,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return figures;
}
