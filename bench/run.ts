/**
 * `npm run bench`: runs every bench/<area>.bench.ts (or those named: npm run bench -- foundation)
 * and prints one table. Figures with a comparator measured in the same run show the ratio.
 *
 * Each area runs in its own child process (`--area <name> --out <file>`): what one area sets up
 * (its DATABASE_URL, a Prisma client bound to it, pools, a studio it started) cannot leak into the
 * next, and an area that fails is reported by name while the others still run. The run exits 1 when
 * any area failed, after printing every figure the others measured.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { snapshotEnv } from '../lib/env';
import type { BenchFigure, BenchModule } from './figure';

const dir = import.meta.dirname;
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const json = args.includes('--json');

function ratio(f: BenchFigure): string {
  if (!f.comparator || f.comparator.value === 0) return '';
  const r = f.higherIsBetter ? f.value / f.comparator.value : f.comparator.value / f.value;
  return `${r.toFixed(2)}x ${f.comparator.name}`;
}

function fmt(n: number): string {
  if (Math.abs(n) >= 1000) return n.toFixed(0);
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(3);
}

/** The child: one area, its figures written as JSON to `out`. */
async function runArea(area: string, out: string) {
  const mod = (await import(path.join(dir, `${area}.bench.ts`))) as BenchModule;
  const restoreEnv = snapshotEnv();
  try {
    await writeFile(out, JSON.stringify(await mod.run()));
  } finally {
    restoreEnv();
  }
}

function child(area: string, out: string): Promise<number | string> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', path.join(dir, 'run.ts'), '--area', area, '--out', out], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    proc.on('error', (e) => resolve(e.message));
    proc.on('exit', (code, signal) => resolve(signal ?? code ?? 1));
  });
}

const area = flag('--area');
if (area) {
  const out = flag('--out');
  if (!out) throw new Error('bench/run.ts --area needs --out <file>');
  await runArea(area, out);
  process.exit(0);
}

const only = args.filter((a) => !a.startsWith('-'));
const areas = (await readdir(dir))
  .filter((f) => f.endsWith('.bench.ts'))
  .sort()
  .map((f) => f.replace('.bench.ts', ''));
const unknown = only.filter((a) => !areas.includes(a));
if (unknown.length) {
  console.error(`no such bench area: ${unknown.join(', ')} (areas: ${areas.join(', ')})`);
  process.exit(2);
}

const figures: BenchFigure[] = [];
const failed: string[] = [];
const tmp = await mkdtemp(path.join(os.tmpdir(), 'witness-bench-'));
try {
  for (const name of areas) {
    if (only.length && !only.includes(name)) continue;
    process.stderr.write(`running ${name}...\n`);
    const out = path.join(tmp, `${name}.json`);
    const started = Date.now();
    const exit = await child(name, out);
    const took = `${((Date.now() - started) / 1000).toFixed(0)} s`;
    if (exit !== 0) {
      failed.push(`${name} (exit ${exit} after ${took})`);
      process.stderr.write(`${name} failed: exit ${exit} after ${took}\n`);
      continue;
    }
    const measured = JSON.parse(await readFile(out, 'utf8')) as BenchFigure[];
    if (measured.length === 0) failed.push(`${name} (no figures)`);
    figures.push(...measured);
    process.stderr.write(`${name} done in ${took}\n`);
  }
} finally {
  await rm(tmp, { recursive: true, force: true });
}

if (json) {
  console.log(JSON.stringify({ figures, failed }, null, 2));
} else {
  const rows = figures.map((f) => [
    f.group,
    f.name,
    `${fmt(f.value)} ${f.unit}`,
    f.comparator ? `${fmt(f.comparator.value)} ${f.unit}` : '',
    ratio(f),
    f.goal ?? '',
  ]);
  const header = ['area', 'figure', 'value', 'comparator', 'ratio', 'goal'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  if (failed.length) console.log(`\nfailed: ${failed.join('; ')}`);
}
process.exit(failed.length ? 1 : 0);
