import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspectImporter } from './lib/formats/inspect';
import { fileSource } from './lib/formats/source';
import { trajectoryVideoProps } from './lib/video/props';
import { bundleOnce, renderTrajectoryVideo, type CompositionId } from './render/server/render-video';
const file = 'prisma/seed/demo/physics-derivations/damped-spring-release_claude-sonnet-4-5.json';
let props: any;
for await (const item of inspectImporter.parse({ kind: 'file', file: fileSource(file, statSync(file).size) })) if (item.ok) props = trajectoryVideoProps(item.trajectory, { pacing: 'read' });
const d = props.scenes.find((s: any) => s.kind === 'derivation');
const cut = d.beats[Math.min(4, d.beats.length - 1)].from;
const N = Number(process.env.N ?? 150);
const range: [number, number] = [cut - N / 2, cut + N / 2 - 1];
const dir = mkdtempSync(path.join(os.tmpdir(), 'exp-'));
await bundleOnce();
await renderTrajectoryVideo({ props, outPath: path.join(dir, 'w.mp4'), frameRange: [0, 9] });
const ids = (process.env.IDS ?? 'Blank,TrajectoryVideo,TrajectoryVideoLayered').split(',') as CompositionId[];
for (let rep = 0; rep < 3; rep++)
  for (const id of ids) {
    const t0 = performance.now();
    const r = await renderTrajectoryVideo({ props, outPath: path.join(dir, `${id}.mp4`), frameRange: range, compositionId: id });
    const s = (performance.now() - t0) / 1000;
    console.log(rep, id, (N / s).toFixed(2), 'fps', (r.bytes / 1024).toFixed(0), 'KiB');
  }
