import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { rename, stat, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bundle } from '@remotion/bundler';
import {
  combineChunks,
  makeCancelSignal,
  openBrowser,
  renderMedia,
  renderStill,
  selectComposition,
  type ChromiumOptions,
} from '@remotion/renderer';
import { env } from '../../lib/env';
import { trajectoryVideoSchema, type TrajectoryVideoProps } from '../../lib/video/schema';
import { chromiumLauncher } from './chromium-launcher';

/**
 * The node renderer (worker / CLI / bench only; never imported by the web app).
 *
 *   const props = trajectoryVideoProps(trajectory);            // lib/video/props.ts, pure
 *   await renderTrajectoryVideo({ props, outPath: 'x.mp4' });   // h264 MP4, written atomically
 *   await renderTrajectoryStill({ props, outPath: 'x.png', frame: 0 });
 *
 * The bundle is built once per process (~12 s) and reused. Each call opens one headless
 * Chromium (CHROMIUM_PATH, Debian's by default, through chromium-launcher.ts for its render
 * switches) and closes it when done.
 */

export type CompositionId = 'TrajectoryVideo' | 'Blank' | 'HeldFrame';

const ENTRY = path.join(import.meta.dirname, '..', 'index.ts');
/**
 * Chromium's GL backend. Our compositions are DOM and text only (no WebGL, no canvas 3D), and
 * here Chromium's plain software compositor (gl: null, Remotion's default) renders them about
 * twice as fast as SwiftShader-through-ANGLE (gl: 'swangle'), with byte-identical output run to
 * run; 'swangle' stays available for compositions that need WebGL (see bench/video.bench.ts).
 */
export type RenderGl = 'swangle' | null;
export const DEFAULT_GL: RenderGl = null;
const chromiumOptions = (gl: RenderGl | undefined): ChromiumOptions => ({ gl: gl === undefined ? DEFAULT_GL : gl });

/**
 * x264's speed preset (Remotion's default is medium, at crf 18). Our frames are typeset text on a
 * flat background, mostly unchanged from one frame to the next; medium's analysis of them
 * (lookahead, sub-pixel motion search, trellis) costs ~10 ms a derivation frame more than a blank
 * frame, veryfast ~2 ms. Encoding the same captured JPEGs offline at crf 18 (render/README.md,
 * "Measuring a render"): luma PSNR against the captures 51 dB (medium 55), SSIM 0.9986 (medium
 * 0.9993), both far past visibly lossless, and the MP4 ~17% smaller.
 */
export const X264_PRESET = 'veryfast' as const;

let bundled: Promise<string> | null = null;

/**
 * Builds the Remotion bundle of render/index.ts once per process; resolves to its serve URL (a
 * folder under the OS temp dir, ~30 MB, removed when the process exits).
 */
export function bundleOnce(): Promise<string> {
  if (!bundled) {
    const outDir = path.join(os.tmpdir(), `witness-video-bundle-${process.pid}`);
    process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
    bundled = bundle({ entryPoint: ENTRY, enableCaching: true, outDir }).catch((err: unknown) => {
      bundled = null;
      throw err;
    });
  }
  return bundled;
}

export interface RenderProgress {
  /** 0..1 over rendering and encoding */
  progress: number;
  renderedFrames: number;
  encodedFrames: number;
  stage: 'rendering' | 'encoding' | 'done';
}

export interface RenderVideoOptions {
  props: TrajectoryVideoProps;
  /** the .mp4 to write; written to a temporary file beside it, then renamed */
  outPath: string;
  /** a frame or an inclusive [first, last] range (Remotion's convention); default: the whole video */
  frameRange?: number | [number, number];
  onProgress?: (progress: RenderProgress) => void;
  /** aborting stops the render and removes the temporary file; the promise rejects */
  cancelSignal?: AbortSignal;
  /** `Blank` renders a plain frame of the same size and length (benchmark baseline) */
  compositionId?: CompositionId;
  /** frames rendered in parallel (default 1: best on 2 cores) */
  concurrency?: number;
  /** Chromium GL backend (default DEFAULT_GL) */
  gl?: RenderGl;
  /** Chromium's render switches (chromium-launcher.ts); default true, false only for the bench's comparison */
  chromiumSwitches?: boolean;
  /** 'h264-ts' for chunks that are later joined with combineVideoChunks (MPEG-TS concatenates seamlessly) */
  codec?: 'h264' | 'h264-ts';
}

export interface RenderResult {
  outPath: string;
  /** frames in the file */
  frames: number;
  fps: number;
  width: number;
  height: number;
  bytes: number;
}

function partialPath(outPath: string): string {
  const dir = path.dirname(outPath);
  const ext = path.extname(outPath);
  return path.join(dir, `.${path.basename(outPath, ext)}.${process.pid}.${randomBytes(4).toString('hex')}.partial${ext}`);
}

function abortError(): Error {
  const err = new Error('render cancelled');
  err.name = 'AbortError';
  return err;
}

type Browser = Awaited<ReturnType<typeof openBrowser>>;
type BrowserPage = Awaited<ReturnType<Browser['newPage']>>;
type CdpSend = (method: string, params?: Record<string, unknown>) => Promise<unknown>;

/** How many screenshots this process took through the viewport path (the render test checks it is in use). */
export const screenshotStats = { viewport: 0 };

/**
 * For bench/video-profile.ts: `trace` records a Chromium trace (every process) of the next
 * render, from its `afterFrames`-th frame (past start-up) to its end, written to `path`.
 */
export const renderHooks: {
  trace: { path: string; afterFrames: number } | null;
  /** for bench/video-profile.ts: each captured frame as Chromium sent it (base64 JPEG), in capture order */
  onCapture: ((base64: string) => void) | null;
  /** for render-video.test.ts: the command line of each Chromium opened (CDP Browser.getBrowserCommandLine) */
  onCommandLine: ((args: string[]) => void) | null;
} = { trace: null, onCapture: null, onCommandLine: null };

const TRACE_CATEGORIES = [
  '-*',
  'toplevel',
  'benchmark',
  'blink',
  'cc',
  'gpu',
  'viz',
  'disabled-by-default-devtools.timeline',
  'devtools.timeline',
  'v8.execute',
];

/** Starts Chromium tracing on the browser's connection; the returned function ends it and writes the trace. */
function startTrace(browser: Browser, file: string): () => Promise<void> {
  const connection = browser.connection;
  // Remotion's typed command list has no Tracing domain; the browser target has it
  const send = connection.send.bind(connection) as unknown as CdpSend;
  const events: unknown[] = [];
  const onData = (params: { value: unknown[] }) => {
    for (const e of params.value) events.push(e);
  };
  connection.on('Tracing.dataCollected', onData);
  const started = send('Tracing.start', {
    traceConfig: { includedCategories: TRACE_CATEGORIES, recordMode: 'recordContinuously', traceBufferSizeInKb: 400_000 },
    transferMode: 'ReportEvents',
  });
  return async () => {
    await started;
    const done = new Promise<void>((resolve) => connection.once('Tracing.tracingComplete', () => resolve()));
    await send('Tracing.end');
    await done;
    connection.off('Tracing.dataCollected', onData);
    await writeFile(file, JSON.stringify({ traceEvents: events }));
  };
}

/**
 * Makes every page Remotion opens on `browser` capture its frames from the viewport only.
 *
 * Remotion (4.0.527, screenshotTask) asks Chromium for `Page.captureScreenshot` with
 * `captureBeyondViewport: true`. For that, Chromium sets a device-metrics override to the capture
 * size, then restores it: two emulation changes per frame, each of which invalidates the whole
 * page, so every tile of every frame is rasterised again even where nothing moved. On the demo
 * derivation that full re-raster was ~18 ms of CPU a frame (measured with Chromium's trace:
 * `DisplayItemList::Raster` ~40 tiles a frame vs 0 for Blank). Our page is exactly the size of the
 * frame (Remotion sets the viewport to the composition's size, and the clip is that rectangle), so
 * the viewport capture is the same picture; render-video.test.ts checks it pixel for pixel, and
 * that a render through it is byte-identical run to run.
 *
 * Remotion has no option for it, so the one CDP call is rewritten on each page's session; if a
 * Remotion upgrade changes the shape this relies on, this throws rather than silently falling back.
 */
function captureViewportOnly(browser: Browser, onCapture?: (n: number) => void): void {
  let captures = 0;
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options: Parameters<Browser['newPage']>[0]): Promise<BrowserPage> => {
    const page = await newPage(options);
    const client = (page as unknown as { _client?: () => { send?: CdpSend } })._client?.();
    if (!client || typeof client.send !== 'function')
      throw new Error('render: Remotion page has no CDP session (_client().send); re-check captureViewportOnly after a Remotion upgrade');
    const send: CdpSend = client.send.bind(client);
    client.send = (method, params) => {
      if (method !== 'Page.captureScreenshot' || !params) return send(method, params);
      screenshotStats.viewport++;
      onCapture?.(++captures);
      const sent = send(method, { ...params, captureBeyondViewport: false });
      const hook = renderHooks.onCapture;
      return hook ? sent.then((r) => (hook((r as { value: { data: string } }).value.data), r)) : sent;
    };
    return page;
  };
}

/** The Chromium Remotion starts: CHROMIUM_PATH through its launcher with the render switches, or bare (bench only). */
const chromiumExecutable = (switches = true) => (switches ? chromiumLauncher(env().CHROMIUM_PATH) : env().CHROMIUM_PATH);

async function withBrowser<T>(
  { gl, switches }: { gl: RenderGl | undefined; switches?: boolean },
  fn: (browser: Browser) => Promise<T>,
): Promise<T> {
  const browser = await openBrowser('chrome', {
    browserExecutable: chromiumExecutable(switches),
    chromeMode: 'headless-shell',
    chromiumOptions: chromiumOptions(gl),
    logLevel: 'error',
  });
  const onCommandLine = renderHooks.onCommandLine;
  if (onCommandLine) {
    const send = browser.connection.send.bind(browser.connection) as unknown as CdpSend;
    // Remotion's connection wraps each result as { value }
    onCommandLine(((await send('Browser.getBrowserCommandLine')) as { value: { arguments: string[] } }).value.arguments);
  }
  const trace = renderHooks.trace;
  let endTrace: (() => Promise<void>) | null = null;
  captureViewportOnly(browser, (n) => {
    if (trace && n === trace.afterFrames) endTrace = startTrace(browser, trace.path);
  });
  try {
    return await fn(browser);
  } finally {
    if (endTrace) await (endTrace as () => Promise<void>)();
    await browser.close({ silent: true });
  }
}

/** Renders the props to an h264 MP4 at `outPath` (atomically: a partial file is renamed on success). */
export async function renderTrajectoryVideo(options: RenderVideoOptions): Promise<RenderResult> {
  const props = trajectoryVideoSchema.parse(options.props);
  if (options.cancelSignal?.aborted) throw abortError();
  const serveUrl = await bundleOnce();
  if (options.cancelSignal?.aborted) throw abortError();
  const tmp = partialPath(options.outPath);
  const { cancelSignal, cancel } = makeCancelSignal();
  const onAbort = () => cancel();
  options.cancelSignal?.addEventListener('abort', onAbort, { once: true });
  try {
    const composition = await withBrowser({ gl: options.gl, switches: options.chromiumSwitches }, async (browser) => {
      const comp = await selectComposition({
        serveUrl,
        id: options.compositionId ?? 'TrajectoryVideo',
        inputProps: props,
        puppeteerInstance: browser,
        browserExecutable: chromiumExecutable(options.chromiumSwitches),
        chromeMode: 'headless-shell',
        chromiumOptions: chromiumOptions(options.gl),
        logLevel: 'error',
      });
      await renderMedia({
        composition: comp,
        serveUrl,
        codec: options.codec ?? 'h264',
        x264Preset: X264_PRESET,
        muted: true,
        outputLocation: tmp,
        inputProps: props,
        frameRange: options.frameRange ?? null,
        puppeteerInstance: browser,
        browserExecutable: chromiumExecutable(options.chromiumSwitches),
        chromeMode: 'headless-shell',
        chromiumOptions: chromiumOptions(options.gl),
        concurrency: options.concurrency ?? 1,
        cancelSignal,
        overwrite: true,
        logLevel: 'error',
        onProgress: (p) =>
          options.onProgress?.({
            progress: p.progress,
            renderedFrames: p.renderedFrames,
            encodedFrames: p.encodedFrames,
            stage: p.progress >= 1 ? 'done' : p.stitchStage === 'muxing' || p.renderedDoneIn !== null ? 'encoding' : 'rendering',
          }),
      });
      return comp;
    });
    if (options.cancelSignal?.aborted) throw abortError();
    await rename(tmp, options.outPath);
    const range = options.frameRange;
    const frames = range === undefined ? composition.durationInFrames : typeof range === 'number' ? 1 : range[1] - range[0] + 1;
    return {
      outPath: options.outPath,
      frames,
      fps: composition.fps,
      width: composition.width,
      height: composition.height,
      bytes: (await stat(options.outPath)).size,
    };
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    if (options.cancelSignal?.aborted) throw abortError();
    throw err;
  } finally {
    options.cancelSignal?.removeEventListener('abort', onAbort);
  }
}

export interface RenderStillOptions {
  props: TrajectoryVideoProps;
  /** .png or .jpeg/.jpg (from the extension) */
  outPath: string;
  /** default 0 */
  frame?: number;
  /** 1 = 1280x720; 0.25 for a small thumbnail */
  scale?: number;
  compositionId?: CompositionId;
  gl?: RenderGl;
}

/** Renders one frame to a PNG or JPEG (a thumbnail, or a frame to look at), atomically. */
export async function renderTrajectoryStill(
  options: RenderStillOptions,
): Promise<{ outPath: string; width: number; height: number; bytes: number }> {
  const props = trajectoryVideoSchema.parse(options.props);
  const serveUrl = await bundleOnce();
  const tmp = partialPath(options.outPath);
  const ext = path.extname(options.outPath).toLowerCase();
  const scale = options.scale ?? 1;
  try {
    await withBrowser({ gl: options.gl }, async (browser) => {
      const composition = await selectComposition({
        serveUrl,
        id: options.compositionId ?? 'TrajectoryVideo',
        inputProps: props,
        puppeteerInstance: browser,
        logLevel: 'error',
      });
      await renderStill({
        composition,
        serveUrl,
        output: tmp,
        frame: options.frame ?? 0,
        inputProps: props,
        imageFormat: ext === '.jpg' || ext === '.jpeg' ? 'jpeg' : 'png',
        scale,
        puppeteerInstance: browser,
        overwrite: true,
        logLevel: 'error',
      });
    });
    await rename(tmp, options.outPath);
    return {
      outPath: options.outPath,
      width: Math.round(props.width * scale),
      height: Math.round(props.height * scale),
      bytes: (await stat(options.outPath)).size,
    };
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/**
 * Renders several stills with one browser (for looking at frames, tests). Writes each atomically.
 */
export async function renderTrajectoryStills(
  props: TrajectoryVideoProps,
  shots: Array<{ frame: number; outPath: string }>,
  compositionId: CompositionId = 'TrajectoryVideo',
): Promise<void> {
  const parsed = trajectoryVideoSchema.parse(props);
  const serveUrl = await bundleOnce();
  await withBrowser({ gl: undefined }, async (browser) => {
    const composition = await selectComposition({
      serveUrl,
      id: compositionId,
      inputProps: parsed,
      puppeteerInstance: browser,
      logLevel: 'error',
    });
    for (const shot of shots) {
      const tmp = partialPath(shot.outPath);
      try {
        await renderStill({
          composition,
          serveUrl,
          output: tmp,
          frame: shot.frame,
          inputProps: parsed,
          imageFormat: 'png',
          puppeteerInstance: browser,
          overwrite: true,
          logLevel: 'error',
        });
        await rename(tmp, shot.outPath);
      } catch (err) {
        await unlink(tmp).catch(() => undefined);
        throw err;
      }
    }
  });
}

/**
 * Joins chunks rendered with `codec: 'h264-ts'` (in frame order) into one h264 MP4 without
 * re-encoding, written atomically to `outPath`.
 */
export async function combineVideoChunks(options: {
  files: string[];
  outPath: string;
  fps: number;
  framesPerChunk: number;
  totalFrames: number;
}): Promise<void> {
  const tmp = partialPath(options.outPath);
  try {
    await combineChunks({
      outputLocation: tmp,
      videoFiles: options.files,
      audioFiles: [],
      codec: 'h264',
      fps: options.fps,
      framesPerChunk: options.framesPerChunk,
      preferLossless: false,
      compositionDurationInFrames: options.totalFrames,
      logLevel: 'error',
    });
    await rename(tmp, options.outPath);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}
