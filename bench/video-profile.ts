/**
 * Where a frame's CPU goes: renders the bench's derivation-heavy ranges (bench/video.bench.ts)
 * with Blank and TrajectoryVideo alternated, measured as the bench measures them (the steady
 * state of each render, CPU from /proc per thread of node, Chromium's browser, renderer and GPU
 * processes, ffmpeg), and prints the split per process and thread side by side. `--trace F`
 * also writes a Chromium trace (every process) of the first range of each composition, from its
 * 20th frame, to F-<composition>.json (chrome://tracing, Perfetto). `--frames` first renders each
 * range once per composition and says how many captured frames differ from the one before (an
 * md5 of each JPEG Chromium sends) and their mean size: what reaches the encoders.
 *
 *   node --import tsx bench/video-profile.ts [--passes 2] [--trace /tmp/t.json] [--frames] [--ids Blank,HeldFrame,TrajectoryVideo]
 *
 * `--ids` picks what is rendered and compared (the first is the ratio's baseline): Blank,
 * HeldFrame, TrajectoryVideo, and TrajectoryVideo:paced (without Chromium's render switches).
 *
 * Not a bench area (no `.bench.ts`): a tool for reading a render.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleOnce, renderHooks, renderTrajectoryVideo } from '../render/server/render-video';
import { alternate, derivationProps, derivationRanges, variantOptions, type Variant } from './video.bench';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const passes = Number(flag('--passes') ?? 2);
const tracePath = flag('--trace');
const known: Variant[] = ['Blank', 'HeldFrame', 'TrajectoryVideo', 'TrajectoryVideo:paced'];
const ids = (flag('--ids') ?? 'Blank,TrajectoryVideo').split(',') as Variant[];
for (const id of ids) if (!known.includes(id)) throw new Error(`video-profile --ids: unknown ${id}; expected some of ${known.join(', ')}`);

const props = await derivationProps();
const ranges = derivationRanges(props);
const dir = mkdtempSync(path.join(os.tmpdir(), 'witness-video-profile-'));
try {
  await bundleOnce();
  await renderTrajectoryVideo({ props, outPath: path.join(dir, 'warm.mp4'), frameRange: [0, 9] });
  if (tracePath)
    for (const id of ids) {
      renderHooks.trace = { path: `${tracePath.replace(/\.json$/, '')}-${id}.json`, afterFrames: 20 };
      await renderTrajectoryVideo({
        props,
        outPath: path.join(dir, `trace-${id.replace(':', '-')}.mp4`),
        ...variantOptions(id),
        frameRange: ranges[0]!,
      });
      renderHooks.trace = null;
    }
  if (args.includes('--frames'))
    for (const id of ids)
      for (const range of ranges) {
        const hashes: string[] = [];
        let bytes = 0;
        renderHooks.onCapture = (b64) => {
          hashes.push(createHash('md5').update(b64).digest('hex'));
          bytes += (b64.length * 3) / 4;
        };
        await renderTrajectoryVideo({
          props,
          outPath: path.join(dir, `frames-${id.replace(':', '-')}.mp4`),
          ...variantOptions(id),
          frameRange: range,
        });
        renderHooks.onCapture = null;
        const changed = hashes.filter((h, i) => i > 0 && h !== hashes[i - 1]).length;
        console.log(
          `${id} frames ${range.join('-')}: ${hashes.length} captured, ${changed} differ from the frame before, mean JPEG ${(bytes / hashes.length / 1024).toFixed(1)} KiB`,
        );
      }
  const runs = await alternate(props, dir, Array.from({ length: passes }, () => ranges).flat(), ids);
  const of = ids.map((id) => runs.of(id));
  const keys = new Set<string>();
  for (const t of of) for (const [k, v] of t.split) if (v >= 0.3) keys.add(k);
  const kinds = [...new Set([...keys].map((k) => k.split(' :: ')[0]!))].sort();
  const cell = (v: number | undefined) => (v ?? 0).toFixed(1).padStart(8);
  const rows = [`${'ms CPU / frame'.padEnd(40)}${ids.map((id) => id.padStart(16)).join('')}`];
  for (const kind of kinds) {
    const sum = (i: number) => [...of[i]!.split].filter(([k]) => k.startsWith(`${kind} ::`)).reduce((n, [, v]) => n + v, 0);
    rows.push(`${kind.padEnd(40)}${of.map((_, i) => cell(sum(i)).padStart(16)).join('')}`);
    for (const key of [...keys].filter((k) => k.startsWith(`${kind} ::`)).sort())
      rows.push(`  ${key.split(' :: ')[1]!.padEnd(38)}${of.map((t) => cell(t.split.get(key)).padStart(16)).join('')}`);
  }
  rows.push(`${'total'.padEnd(40)}${of.map((t) => cell(t.cpuMs).padStart(16)).join('')}`);
  rows.push(`${'fps (steady state, wall)'.padEnd(40)}${of.map((t) => t.fps.toFixed(2).padStart(16)).join('')}`);
  rows.push(`${'frames measured'.padEnd(40)}${of.map((t) => String(t.frames).padStart(16)).join('')}`);
  rows.push(
    `CPU ratio (${ids[0]} / ${ids[1]}) ${(of[0]!.cpuMs / of[1]!.cpuMs).toFixed(3)}, fps ratio ${(of[1]!.fps / of[0]!.fps).toFixed(3)}`,
  );
  rows.push(
    `load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(rows.join('\n'));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
