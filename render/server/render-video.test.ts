import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harborImporter } from '../../lib/formats/harbor';
import { dirSource } from '../../lib/formats/source';
import { trajectoryVideoProps } from '../../lib/video/props';
import type { TrajectoryVideoProps } from '../../lib/video/schema';
import { RENDER_CHROMIUM_SWITCHES } from './chromium-launcher';
import { probeVideo as probe } from './probe-video-testing';
import { bundleOnce, renderHooks, renderTrajectoryStill, renderTrajectoryVideo, screenshotStats } from './render-video';

/**
 * Real renders (bundle ~15 s, then Chromium + ffmpeg): a 2 s MP4 of the harbor fixture checked
 * with ffprobe, rendered twice to check it is byte-identical (both through the viewport capture,
 * with Chromium's render switches), a still checked for content, and a
 * cancelled render that leaves no file behind. Slow by nature: kept to the minimum.
 */

const dir = mkdtempSync(path.join(os.tmpdir(), 'witness-render-test-'));
let props: TrajectoryVideoProps;
// frames 430..489 of the fixture: the end of a step card and the start of its terminal replay
const RANGE: [number, number] = [430, 489];

beforeAll(async () => {
  for await (const item of harborImporter.parse({
    kind: 'dir',
    dir: dirSource(path.join(import.meta.dirname, '..', '..', 'lib', 'formats', 'fixtures', 'harbor', 'trial-basic')),
  })) {
    if (item.ok) props = trajectoryVideoProps(item.trajectory);
  }
  await bundleOnce();
}, 180_000);

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  // test workers may not run 'exit' handlers: remove the bundle here
  rmSync(await bundleOnce(), { recursive: true, force: true });
});

describe('renderTrajectoryVideo', () => {
  it('renders a short h264 MP4, byte-identical when rendered again (with and without the render switches)', async () => {
    const a = path.join(dir, 'a.mp4');
    const b = path.join(dir, 'b.mp4');
    const progress: number[] = [];
    const shots = screenshotStats.viewport;
    const commandLines: string[][] = [];
    renderHooks.onCommandLine = (args) => commandLines.push(args);
    try {
      const result = await renderTrajectoryVideo({ props, outPath: a, frameRange: RANGE, onProgress: (p) => progress.push(p.progress) });
      expect(result).toMatchObject({ frames: 60, fps: 30, width: 1280, height: 720 });
      expect(progress[progress.length - 1]).toBe(1);
      expect(probe(a)).toEqual({ codec: 'h264', width: 1280, height: 720, frames: 60, duration: 2 });
      // again, without Chromium's render switches: the switches change the pacing, not a pixel
      await renderTrajectoryVideo({ props, outPath: b, frameRange: RANGE, chromiumSwitches: false });
    } finally {
      renderHooks.onCommandLine = null;
    }
    // the first Chromium ran with the render switches (chromium-launcher.ts) beside Remotion's own, the second without
    expect(commandLines).toHaveLength(2);
    expect(commandLines[0]).toEqual(expect.arrayContaining([...RENDER_CHROMIUM_SWITCHES, '--headless=old']));
    expect(commandLines[1]).toEqual(expect.arrayContaining(['--headless=old']));
    for (const s of RENDER_CHROMIUM_SWITCHES) expect(commandLines[1]).not.toContain(s);
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
    // encoded at crf 18 with x264's veryfast preset (X264_PRESET): x264 writes its settings into the stream; veryfast is subme=2, ref=1
    const x264 = /x264 - core \d+[^\0]*?options: ([^\0]+)/.exec(readFileSync(a).toString('latin1'))?.[1] ?? '';
    expect(x264).toMatch(/\bsubme=2\b/);
    expect(x264).toMatch(/\bref=1\b/);
    expect(x264).toMatch(/\bcrf=18\.0\b/);
    // every frame of both went through the viewport capture (captureViewportOnly), not a full-page one
    expect(screenshotStats.viewport - shots).toBeGreaterThanOrEqual(120);
    // only the two finished files: no partial file left behind
    expect(readdirSync(dir).sort()).toEqual(['a.mp4', 'b.mp4']);
  }, 240_000);

  it('renders a still that is not blank', async () => {
    const out = path.join(dir, 'still.png');
    const closing = props.scenes[props.scenes.length - 1]!;
    await renderTrajectoryStill({ props, outPath: out, frame: closing.from + 30 });
    const png = PNG.sync.read(readFileSync(out));
    expect([png.width, png.height]).toEqual([1280, 720]);
    // luminance variance: a blank frame has ~0; text, bars and the checklist give plenty
    let sum = 0;
    let sq = 0;
    const n = png.width * png.height;
    const colours = new Set<number>();
    for (let i = 0; i < png.data.length; i += 4) {
      const y = 0.2126 * png.data[i]! + 0.7152 * png.data[i + 1]! + 0.0722 * png.data[i + 2]!;
      sum += y;
      sq += y * y;
      if (i % 64 === 0) colours.add((png.data[i]! << 16) | (png.data[i + 1]! << 8) | png.data[i + 2]!);
    }
    const variance = sq / n - (sum / n) ** 2;
    expect(variance).toBeGreaterThan(50);
    expect(colours.size).toBeGreaterThan(50);
  }, 120_000);

  it('stops when cancelled and leaves no file', async () => {
    const out = path.join(dir, 'cancelled.mp4');
    const controller = new AbortController();
    const render = renderTrajectoryVideo({
      props,
      outPath: out,
      frameRange: [0, 299],
      cancelSignal: controller.signal,
      onProgress: (p) => {
        if (p.renderedFrames >= 3) controller.abort();
      },
    });
    await expect(render).rejects.toMatchObject({ name: 'AbortError' });
    expect(readdirSync(dir).filter((f) => f.includes('cancelled'))).toEqual([]);
  }, 120_000);
});
