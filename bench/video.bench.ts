import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { statSync } from 'node:fs';
import { harborImporter } from '../lib/formats/harbor';
import { inspectImporter } from '../lib/formats/inspect';
import { fileSource } from '../lib/formats/source';
import { dirSource } from '../lib/formats/source';
import type { CastEvent, Step, Trajectory } from '../lib/formats/trajectory';
import { trajectoryVideoProps } from '../lib/video/props';
import type { TrajectoryVideoProps } from '../lib/video/schema';
import { bundleOnce, renderTrajectoryVideo, type CompositionId, type RenderGl } from '../render/server/render-video';
import type { BenchFigure } from './figure';

/**
 * Proof-of-work video rendering: fps of the TrajectoryVideo composition against a Blank
 * composition of the same size and length rendered in the same run (goal >= 0.9x blank), the
 * peak memory of the render (node + Chromium + ffmpeg), the GL backend choice, and the time to
 * derive props for a large trajectory. The bundle is built first, untimed.
 */

const root = path.resolve(import.meta.dirname, '..');

async function fixtureProps(): Promise<TrajectoryVideoProps> {
  for await (const item of harborImporter.parse({
    kind: 'dir',
    dir: dirSource(path.join(root, 'lib', 'formats', 'fixtures', 'harbor', 'trial-basic')),
  })) {
    if (item.ok) return trajectoryVideoProps(item.trajectory);
  }
  throw new Error('fixture did not import');
}

/** The demo's damped-spring derivation under read pacing: five display equations built up with diffs, a result card with a plot. */
async function derivationProps(): Promise<TrajectoryVideoProps> {
  const file = path.join(root, 'prisma', 'seed', 'demo', 'physics-derivations', 'damped-spring-release_claude-sonnet-4-5.json');
  for await (const item of inspectImporter.parse({ kind: 'file', file: fileSource(file, statSync(file).size) })) {
    if (item.ok) return trajectoryVideoProps(item.trajectory, { pacing: 'read' });
  }
  throw new Error('demo derivation did not import');
}

/** RSS of this process and all its descendants (Chromium, ffmpeg), in bytes. */
function treeRss(): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      const pages = Number(fields[21]);
      const pid = Number(entry);
      rss.set(pid, pages * 4096);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid)!.push(pid);
    } catch {
      /* process ended */
    }
  }
  let total = 0;
  const stack = [process.pid];
  while (stack.length) {
    const pid = stack.pop()!;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

async function timedRender(
  props: TrajectoryVideoProps,
  id: CompositionId,
  dir: string,
  frameRange?: [number, number],
  gl?: RenderGl,
): Promise<{ fps: number; peakRss: number }> {
  let peak = treeRss();
  const sampler = setInterval(() => (peak = Math.max(peak, treeRss())), 100);
  const t0 = performance.now();
  try {
    const r = await renderTrajectoryVideo({
      props,
      outPath: path.join(dir, `${id}-${gl ?? 'default'}.mp4`),
      compositionId: id,
      frameRange,
      gl,
    });
    return { fps: r.frames / ((performance.now() - t0) / 1000), peakRss: peak };
  } finally {
    clearInterval(sampler);
  }
}

function bigTrajectory(): Trajectory {
  const steps: Step[] = Array.from({ length: 200 }, (_, i) => ({
    index: i,
    source: 'agent',
    text: `Step ${i}: running the next command and checking $x_${i}$.`,
    reasoning: 'Look at the output, then decide. '.repeat(5),
    toolCalls: [{ id: `c${i}`, name: 'bash', arguments: { command: `make test-${i}` } }],
    observations: [{ toolCallId: `c${i}`, content: Array.from({ length: 1000 }, (_, k) => `output line ${k}`).join('\n'), isError: false }],
    timestamp: null,
    castTime: i * 18,
    usage: null,
  }));
  const events: CastEvent[] = Array.from(
    { length: 20_000 },
    (_, k) => [k * 0.18, 'o', `\x1b[32mline\x1b[0m ${k} ${'x'.repeat(k % 60)}\r\n`] as CastEvent,
  );
  return {
    format: 'harbor',
    externalId: null,
    task: { name: 'big', instruction: 'A long run.', acceptanceCriteria: [], environment: null, split: null, metadata: {} },
    policy: { model: null, checkpoint: null, agent: null },
    steps,
    verifier: null,
    judgeScores: [],
    usage: null,
    terminal: { version: 2, width: 120, height: 40, title: null, events },
    submission: null,
    exitStatus: null,
    startedAt: null,
    endedAt: null,
    metadata: {},
  };
}

export async function run(): Promise<BenchFigure[]> {
  const props = await fixtureProps();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'witness-video-bench-'));
  try {
    await bundleOnce();
    // warm-up (page and font caches), untimed
    await renderTrajectoryVideo({ props, outPath: path.join(dir, 'warm.mp4'), frameRange: [0, 9] });
    const blank = await timedRender(props, 'Blank', dir);
    const video = await timedRender(props, 'TrajectoryVideo', dir);
    const range: [number, number] = [380, 559];
    const swangle = await timedRender(props, 'TrajectoryVideo', dir, range, 'swangle');
    const plain = await timedRender(props, 'TrajectoryVideo', dir, range, null);

    // derivation-heavy: 300 frames across the derivation's beats and the result card with its plot
    const dprops = await derivationProps();
    const derivation = dprops.scenes.find((s) => s.kind === 'derivation')!;
    const result = dprops.scenes.find((s) => s.kind === 'result')!;
    const beats = derivation.kind === 'derivation' ? derivation.beats : [];
    // 300 frames across a beat change (the next equation typeset, its diff lit) and 150 of the plot drawing itself
    const cut = beats[Math.min(4, beats.length - 1)]!.from;
    const dFrames: Array<[number, number]> = [
      [cut - 150, cut + 149],
      [result.from, Math.min(result.from + 149, result.from + result.duration - 1)],
    ];
    const dTimed = async (id: CompositionId) => {
      let frames = 0;
      let seconds = 0;
      for (const r of dFrames) {
        const t = await timedRender(dprops, id, dir, r);
        frames += r[1] - r[0] + 1;
        seconds += (r[1] - r[0] + 1) / t.fps;
      }
      return frames / seconds;
    };
    const dBlank = await dTimed('Blank');
    const dVideo = await dTimed('TrajectoryVideo');

    const big = bigTrajectory();
    const t0 = performance.now();
    const bigProps = trajectoryVideoProps(big);
    const deriveMs = performance.now() - t0;
    const size = JSON.stringify(bigProps).length;

    const frames = props.durationInFrames;
    return [
      {
        group: 'video',
        name: `render fps, TrajectoryVideo 1280x720 (${frames} frames)`,
        value: video.fps,
        unit: 'fps',
        higherIsBetter: true,
        comparator: { name: 'Blank', value: blank.fps },
        goal: '>= 0.9x Blank',
      },
      {
        group: 'video',
        name: 'render fps, derivation-heavy TrajectoryVideo 1280x720 (read pacing: a derivation beat change + the result card plot, 450 frames)',
        value: dVideo,
        unit: 'fps',
        higherIsBetter: true,
        comparator: { name: 'Blank (same props, same frames)', value: dBlank },
        goal: '>= 0.9x Blank',
      },
      {
        group: 'video',
        name: 'render peak RSS (node + Chromium + ffmpeg)',
        value: video.peakRss / 2 ** 20,
        unit: 'MiB',
        higherIsBetter: false,
        comparator: { name: 'Blank', value: blank.peakRss / 2 ** 20 },
      },
      {
        group: 'video',
        name: 'render fps, gl swangle (180 frames)',
        value: swangle.fps,
        unit: 'fps',
        higherIsBetter: true,
        comparator: { name: 'gl default', value: plain.fps },
      },
      {
        group: 'video',
        name: `props derivation, 200 steps x 1k-line outputs + 20k-event cast (${(size / 2 ** 10).toFixed(0)} KiB props)`,
        value: deriveMs,
        unit: 'ms',
        higherIsBetter: false,
        goal: '< 5000 ms',
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
