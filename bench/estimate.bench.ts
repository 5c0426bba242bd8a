import { execFile } from 'node:child_process';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { estimatePpiMeanColumns } from '../lib/stats/ppi';
import { mulberry32 } from '../lib/stats/prng';
import { readEstimateFile } from '../lib/stats/read-estimate-file';
import type { BenchFigure } from './figure';

/**
 * `witness estimate` benchmark: 1,000,000 items with a judge score each and 10,000 human labels
 * (a simple random sample), CSV. End to end, process start included: the real binary
 * (`node bin/witness.mjs estimate --input FILE --json`, which starts node with the tsx loader)
 * against a vectorised numpy reference of the same estimator on the same file
 * (`python3 bench/ppi_numpy.py FILE`: numpy import, np.loadtxt, the estimate), each the median
 * wall time of 5 runs after one warm-up run, in the same bench run. The two results must agree
 * (estimates within 1e-12, interval ends within 1e-8: the normal quantile's approximation).
 * Also: the in-process read and compute times beside numpy's own load and compute times.
 */
const execFileAsync = promisify(execFile);
const GROUP = 'estimate';
const ITEMS = 1_000_000;
const LABELS = 10_000;
const REPEATS = 5;
const root = path.resolve(import.meta.dirname, '..');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  return env;
}

/** Items with latent pass probability x ~ U(0, 1); the judge sees x with noise; 10k labelled at random. */
async function writeItems(file: string): Promise<void> {
  const random = mulberry32(16);
  const labelled = new Uint8Array(ITEMS);
  for (let k = 0; k < LABELS;) {
    const i = Math.floor(random() * ITEMS);
    if (!labelled[i]) {
      labelled[i] = 1;
      k++;
    }
  }
  const out = await open(file, 'w');
  try {
    await out.write('item,prediction,label\n');
    let chunk: string[] = [];
    for (let i = 0; i < ITEMS; i++) {
      const x = random();
      const prediction = Math.min(1, Math.max(0, x + (random() - 0.5) * 0.4));
      const label = labelled[i] ? (random() < x ? '1' : '0') : '';
      chunk.push(`traj-${i.toString(36).padStart(5, '0')},${prediction.toFixed(6)},${label}`);
      if (chunk.length === 100_000) {
        await out.write(`${chunk.join('\n')}\n`);
        chunk = [];
      }
    }
    if (chunk.length) await out.write(`${chunk.join('\n')}\n`);
  } finally {
    await out.close();
  }
}

interface Figures {
  labeled: number;
  unlabeled: number;
  human: { estimate: number; low: number; high: number };
  ppi: { estimate: number; low: number; high: number; lambda: number };
  effective_labels: number;
}

function agree(ours: Figures, theirs: Figures): void {
  const problems: string[] = [];
  if (ours.labeled !== theirs.labeled || ours.unlabeled !== theirs.unlabeled) problems.push('counts');
  const close = (a: number, b: number, tol: number) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));
  for (const part of ['human', 'ppi'] as const) {
    if (!close(ours[part].estimate, theirs[part].estimate, 1e-12)) problems.push(`${part}.estimate`);
    if (!close(ours[part].low, theirs[part].low, 1e-8) || !close(ours[part].high, theirs[part].high, 1e-8))
      problems.push(`${part} interval`);
  }
  if (!close(ours.ppi.lambda, theirs.ppi.lambda, 1e-10)) problems.push('lambda');
  if (!close(ours.effective_labels, theirs.effective_labels, 1e-9)) problems.push('effective_labels');
  if (problems.length) throw new Error(`witness estimate and numpy differ (${problems.join(', ')}): ${JSON.stringify({ ours, theirs })}`);
}

async function numpyAvailable(): Promise<boolean> {
  try {
    await execFileAsync('python3', ['-c', 'import numpy'], { env: childEnv() });
    return true;
  } catch {
    return false;
  }
}

export async function run(): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  const dir = await mkdtemp(path.join(tmpdir(), 'witness-bench-estimate-'));
  try {
    const file = path.join(dir, 'items.csv');
    await writeItems(file);
    const hasNumpy = await numpyAvailable();

    const cli = async () => {
      const t = performance.now();
      const { stdout } = await execFileAsync(
        process.execPath,
        [path.join(root, 'bin', 'witness.mjs'), 'estimate', '--input', file, '--json'],
        {
          cwd: root,
          maxBuffer: 1 << 20,
        },
      );
      return { ms: performance.now() - t, result: (JSON.parse(stdout) as { groups: Figures[] }).groups[0]! };
    };
    const numpy = async () => {
      const t = performance.now();
      const { stdout } = await execFileAsync('python3', [path.join(import.meta.dirname, 'ppi_numpy.py'), file], {
        env: childEnv(),
        maxBuffer: 1 << 20,
      });
      const report = JSON.parse(stdout) as { result: Figures; load_ms: number; compute_ms: number };
      return { ms: performance.now() - t, ...report };
    };

    await cli(); // warm-up: tsx's transform cache, the page cache
    if (hasNumpy) await numpy();
    const ours: number[] = [];
    const theirs: number[] = [];
    const loads: number[] = [];
    const computes: number[] = [];
    let result: Figures | null = null;
    let reference: Figures | null = null;
    for (let i = 0; i < REPEATS; i++) {
      const a = await cli();
      ours.push(a.ms);
      result = a.result;
      if (hasNumpy) {
        const b = await numpy();
        theirs.push(b.ms);
        loads.push(b.load_ms);
        computes.push(b.compute_ms);
        reference = b.result;
      }
    }
    if (result!.labeled !== LABELS || result!.unlabeled !== ITEMS - LABELS)
      throw new Error(`estimate bench: read ${JSON.stringify(result)}`);
    if (reference) agree(result!, reference);
    figures.push({
      group: GROUP,
      name: `witness estimate --json, ${ITEMS / 1e6}M items / ${LABELS / 1000}k labels CSV (process start to exit)`,
      value: median(ours),
      unit: 'ms',
      higherIsBetter: false,
      ...(reference ? { comparator: { name: 'numpy (import + loadtxt + vectorised estimate)', value: median(theirs) } } : {}),
      goal: reference ? '<= 1.0x numpy' : '<= 1.0x numpy (numpy not installed: no comparator)',
    });

    // in process: read, then compute
    const readTimes: number[] = [];
    const computeTimes: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      let t = performance.now();
      const groups = await readEstimateFile(file);
      readTimes.push(performance.now() - t);
      t = performance.now();
      estimatePpiMeanColumns(groups[0]!);
      computeTimes.push(performance.now() - t);
    }
    figures.push({
      group: GROUP,
      name: 'read the 1M-item CSV (readEstimateFile, in process)',
      value: median(readTimes),
      unit: 'ms',
      higherIsBetter: false,
      ...(reference ? { comparator: { name: 'np.loadtxt', value: median(loads) } } : {}),
    });
    figures.push({
      group: GROUP,
      name: 'PPI++ estimate of 1M items from memory (estimatePpiMeanColumns)',
      value: median(computeTimes),
      unit: 'ms',
      higherIsBetter: false,
      ...(reference ? { comparator: { name: 'numpy (vectorised)', value: median(computes) } } : {}),
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return figures;
}
