/**
 * `npm run bench`: runs every bench/<area>.bench.ts (or those named: npm run bench -- foundation)
 * and prints one table. Figures with a comparator measured in the same run show the ratio.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { snapshotEnv } from '../lib/env';
import type { BenchFigure, BenchModule } from './figure';

const dir = import.meta.dirname;
const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const json = process.argv.includes('--json');

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

const files = (await readdir(dir)).filter((f) => f.endsWith('.bench.ts')).sort();
const figures: BenchFigure[] = [];
for (const file of files) {
  const area = file.replace('.bench.ts', '');
  if (only.length && !only.includes(area)) continue;
  process.stderr.write(`running ${area}...\n`);
  const mod = (await import(path.join(dir, file))) as BenchModule;
  // each area sets what it needs (its own database's DATABASE_URL, a data dir): put it all back after
  const restoreEnv = snapshotEnv();
  try {
    figures.push(...(await mod.run()));
  } finally {
    restoreEnv();
  }
}

if (json) {
  console.log(JSON.stringify({ figures }, null, 2));
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
}
