import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { demoUsers } from '../prisma/seed/demo-users';
import type { BenchFigure } from './figure';
import { killBenchStudio, launchBenchChromium, signInCookie, startBenchStudio, stopBenchStudio, untilHealthy } from './bench-studio';
import { freePort } from './free-port';
import { BIG_STEPS, openBenchPagesDatabases, REVIEWERS, TRAJECTORIES, type BenchPagesIds } from './pages-bench-data';
import { refreshCampaignSnapshots } from '../lib/campaigns/refresh-campaign-snapshots';
import { disconnectDb } from '../lib/db/client';
import { closeSqlPool } from '../lib/db/sql';
import { setEnv } from '../lib/env';
import { pacingOfTrajectory } from '../lib/video/queries/videos';
import { prepareVideoProps } from '../lib/video/video-props-for';

/**
 * Every studio page's server render, HTML and RSC (the payload a client-side navigation
 * fetches), as the role that uses it, against the production build: p95 of RUNS requests each,
 * beside the sign-in page (a static route of the same build) timed in the same loop.
 *
 * Twice: at demo scale (the demo seed), then at bench scale (bench/pages-bench-data.ts: 100k
 * trajectories, 1M reviews, a 1,000-step trajectory with a 10 MB terminal recording), each with
 * its own studio on its own database. At bench scale the 1,000-step trajectory's page is timed
 * too, and its video in Chromium: from navigation until the Player is hydrated and its time
 * moves after a click on play.
 *
 * The databases are kept between runs under .data/bench-pages-cache (see pages-bench-data.ts);
 * the studios' data dir (.data/bench-pages) is removed at the end.
 *
 * Knobs: BENCH_PAGES_RUNS, requests per page (default 20 at demo scale, half at bench scale);
 * BENCH_PAGES_SCALE=demo|bench|both (default both); BENCH_PAGES_ONLY=text[,text...], only the pages whose
 * label contains one of them; BENCH_PAGES_TIMEOUT_S (default 30): a request still unanswered after it is
 * recorded as "> N s" and its page is not asked again (the figure says so), so the area ends.
 * BENCH_PAGES_DATA=video (see pages-bench-data.ts): the bench-scale database holds only the demo seed
 * and the 1,000-step run, so at bench scale only that page and its video are timed (figures named
 * "video data", not "bench scale"); the demo-scale pages are timed as usual.
 * BENCH_PAGES_CPU_RUNS (default 10; 0 = off): after a page's timed loop, that many HTML requests
 * then as many RSC requests back to back, and the studio's CPU they cost (from /proc/PID/stat, a
 * figure that does not move with the machine's load) beside the sign-in page's, measured the same
 * way. BENCH_PAGES_PROFILE=DIR: the studios run with node --cpu-prof, their profiles written there.
 * BENCH_PAGES_BROWSER_PROFILE=DIR: each timed load of the 1,000-step page is profiled in Chromium
 * (CDP Profiler, navigation until playing), written there as video-run-N.cpuprofile (DevTools opens it);
 * the profiler slows the page: its run's figures are not the unprofiled ones.
 */
const GROUP = 'pages';
const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, '.data', 'bench-pages');
const RUNS = Number(process.env.BENCH_PAGES_RUNS ?? 20);
const SCALE = process.env.BENCH_PAGES_SCALE ?? 'both';
const ONLY = (process.env.BENCH_PAGES_ONLY ?? '').split(',');
const REQUEST_TIMEOUT_MS = Number(process.env.BENCH_PAGES_TIMEOUT_S ?? 30) * 1000;
if (!['demo', 'bench', 'both'].includes(SCALE)) throw new Error(`BENCH_PAGES_SCALE=${SCALE}: expected demo, bench or both`);
if (!(REQUEST_TIMEOUT_MS > 0))
  throw new Error(`BENCH_PAGES_TIMEOUT_S=${process.env.BENCH_PAGES_TIMEOUT_S}: expected a number of seconds > 0`);
if (!(RUNS >= 1)) throw new Error(`BENCH_PAGES_RUNS=${process.env.BENCH_PAGES_RUNS}: expected a whole number >= 1`);
const CPU_RUNS = Number(process.env.BENCH_PAGES_CPU_RUNS ?? 10);
const PROFILE_DIR = process.env.BENCH_PAGES_PROFILE;
const BROWSER_PROFILE_DIR = process.env.BENCH_PAGES_BROWSER_PROFILE;
const BROWSER_TRACE = process.env.BENCH_PAGES_BROWSER_TRACE === '1';
/** loads of the 1,000-step page in Chromium a way of clicking Play, the first a warm-up */
const VIDEO_RUNS = Number(process.env.BENCH_PAGES_VIDEO_RUNS ?? 4);
if (!(Number.isInteger(VIDEO_RUNS) && VIDEO_RUNS >= 2))
  throw new Error(`BENCH_PAGES_VIDEO_RUNS=${process.env.BENCH_PAGES_VIDEO_RUNS}: expected a whole number >= 2`);
if (!(CPU_RUNS >= 0)) throw new Error(`BENCH_PAGES_CPU_RUNS=${process.env.BENCH_PAGES_CPU_RUNS}: expected a whole number >= 0`);
const log = (line: string) => process.stderr.write(`  [pages] ${line}\n`);

type Role = 'admin' | 'lead' | 'physicist' | 'reviewer';
interface PageCase {
  role: Role;
  path: string;
  label: string;
}

/**
 * Next answers an RSC request without its cache-busting `_rsc` search parameter with a redirect
 * to the URL that has it: the URL a client navigation would fetch, found once per page.
 */
const rscUrls = new Map<string, string>();

/**
 * ms to fetch a page whole (the body read to its end), or null when no answer came within
 * REQUEST_TIMEOUT_MS; throws unless it answers 200 as that role.
 */
async function timeOnce(base: string, path: string, cookie: string | null, rsc: boolean): Promise<number | null> {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (rsc) headers.rsc = '1';
  let url = rsc ? (rscUrls.get(path) ?? path) : path;
  const what = `${path}${rsc ? ' (RSC)' : ''}`;
  try {
    if (rsc && !rscUrls.has(path)) {
      const probe = await fetch(`${base}${url}`, { headers, redirect: 'manual', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      await probe.arrayBuffer();
      const location = probe.headers.get('location');
      if (probe.status === 307 && location && new URL(location, base).searchParams.has('_rsc')) {
        const to = new URL(location, base);
        url = `${to.pathname}${to.search}`;
      }
      rscUrls.set(path, url);
    }
    const t0 = performance.now();
    const res = await fetch(`${base}${url}`, { headers, redirect: 'manual', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const body = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`${what}: HTTP ${res.status} ${body.slice(0, 300)}`);
    if (body.length < 200) throw new Error(`${what}: a ${body.length}-byte answer`);
    return ms;
  } catch (error) {
    if ((error as Error).name !== 'TimeoutError') throw error;
    log(`${what}: no answer within ${REQUEST_TIMEOUT_MS / 1000} s`);
    return null;
  }
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)]!;

interface Timed {
  label: string;
  role: Role;
  html: number;
  rsc: number;
  /** requests of each kind timed (fewer than asked when the page ran past its time budget) */
  samples: number;
  /** a request got no answer within REQUEST_TIMEOUT_MS: html and rsc are that limit, a lower bound */
  timedOut: boolean;
  /** the studio's CPU (ms) per HTML and per RSC request, over CPU_RUNS back-to-back requests each (null: not measured) */
  cpu: { html: number; rsc: number } | null;
}

/** CPU (user + system, ms) a process has used so far, from /proc/PID/stat (every thread of it). */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // USER_HZ is 100 on Linux
}

/** the studio's CPU per request of `path`, over CPU_RUNS requests one after another (ticks of 10 ms: the mean is what counts) */
async function cpuPerRequest(base: string, path: string, cookie: string | null, rsc: boolean, studioCpuMs: () => number) {
  const cpu0 = studioCpuMs();
  for (let i = 0; i < CPU_RUNS; i++) if ((await timeOnce(base, path, cookie, rsc)) === null) return null;
  return (studioCpuMs() - cpu0) / CPU_RUNS;
}

/** a slow page gets this long (after its warm-up) for its samples, so the area ends */
const PAGE_BUDGET_MS = 30_000;

/**
 * p95 of every page, HTML and RSC, and of the static route measured in the same loop (one static
 * request beside each page request). A page with a request over REQUEST_TIMEOUT_MS is not asked
 * again: its figure is "> the limit".
 */
async function timePages(
  base: string,
  cookies: Record<Role, string>,
  pages: PageCase[],
  runs: number,
  restart: () => Promise<void>,
  studioCpuMs: () => number,
) {
  const statik: number[] = [];
  const out: Timed[] = [];
  for (const p of pages) {
    const cookie = cookies[p.role];
    const html: number[] = [];
    const rsc: number[] = [];
    let timedOut = false;
    // warm-up, untimed: the first render of a route loads its server chunks
    if ((await timeOnce(base, p.path, cookie, false)) === null || (await timeOnce(base, p.path, cookie, true)) === null) timedOut = true;
    const until = performance.now() + PAGE_BUDGET_MS;
    for (let i = 0; !timedOut && i < runs && (i < 2 || performance.now() < until); i++) {
      const h = await timeOnce(base, p.path, cookie, false);
      const r = h === null ? null : await timeOnce(base, p.path, cookie, true);
      if (h === null || r === null) timedOut = true;
      else {
        html.push(h);
        rsc.push(r);
      }
      if (timedOut) break;
      const s = await timeOnce(base, '/sign-in', null, false);
      if (s === null) throw new Error(`the static route took over ${REQUEST_TIMEOUT_MS / 1000} s`);
      statik.push(s);
    }
    let cpu: Timed['cpu'] = null;
    if (!timedOut && CPU_RUNS > 0) {
      const h = await cpuPerRequest(base, p.path, cookie, false, studioCpuMs);
      const r = h === null ? null : await cpuPerRequest(base, p.path, cookie, true, studioCpuMs);
      if (h === null || r === null) timedOut = true;
      else cpu = { html: h, rsc: r };
    }
    // the studio is still working on the request given up on: a fresh one for the next page
    if (timedOut) await restart();
    const t: Timed = timedOut
      ? { label: p.label, role: p.role, html: REQUEST_TIMEOUT_MS, rsc: REQUEST_TIMEOUT_MS, samples: html.length, timedOut, cpu: null }
      : { label: p.label, role: p.role, html: p95(html), rsc: p95(rsc), samples: html.length, timedOut, cpu };
    out.push(t);
    log(
      timedOut
        ? `${p.label} as ${p.role}: > ${REQUEST_TIMEOUT_MS / 1000} s (timed out)`
        : `${p.label} as ${p.role}: HTML p95 ${t.html.toFixed(0)} ms, RSC p95 ${t.rsc.toFixed(0)} ms (${html.length} each)${cpu ? `; studio CPU ${cpu.html.toFixed(1)} / ${cpu.rsc.toFixed(1)} ms a request` : ''}`,
    );
  }
  const staticCpu = CPU_RUNS > 0 ? await cpuPerRequest(base, '/sign-in', null, false, studioCpuMs) : null;
  if (staticCpu !== null) log(`static route (sign-in): studio CPU ${staticCpu.toFixed(1)} ms a request over ${CPU_RUNS}`);
  if (statik.length === 0) {
    const s = await timeOnce(base, '/sign-in', null, false);
    if (s !== null) statik.push(s);
  }
  log(`static route (sign-in) p95 ${p95(statik).toFixed(0)} ms over ${statik.length}`);
  return { pages: out, static: p95(statik), staticCpu };
}

function pagesOf(ids: BenchPagesIds, scale: { campaign: string; item: string }): PageCase[] {
  return [
    { role: 'admin', path: '/admin', label: 'admin' },
    { role: 'admin', path: '/admin/sinks', label: 'admin/sinks' },
    { role: 'lead', path: '/settings/tokens', label: 'settings/tokens' },
    { role: 'lead', path: '/lead', label: 'lead' },
    { role: 'lead', path: '/lead/campaigns', label: 'lead/campaigns' },
    { role: 'lead', path: '/lead/campaigns/new', label: 'lead/campaigns/new' },
    { role: 'lead', path: `/lead/campaigns/${scale.campaign}`, label: 'lead/campaigns/[id]' },
    { role: 'lead', path: `/lead/campaigns/${scale.campaign}/agreement`, label: 'lead/campaigns/[id]/agreement' },
    { role: 'lead', path: `/lead/campaigns/${scale.campaign}/adjudication`, label: 'lead/campaigns/[id]/adjudication' },
    {
      role: 'lead',
      path: `/lead/campaigns/${scale.campaign}/adjudication/${scale.item}`,
      label: 'lead/campaigns/[id]/adjudication/[item]',
    },
    { role: 'lead', path: '/lead/agreement', label: 'lead/agreement' },
    { role: 'lead', path: '/lead/datasets', label: 'lead/datasets' },
    { role: 'lead', path: '/trajectories', label: 'trajectories' },
    { role: 'lead', path: `/trajectories/${ids.derivation}`, label: 'trajectories/[id] (demo derivation)' },
    { role: 'lead', path: `/trajectories/${ids.derivation}?view=source`, label: 'trajectories/[id]?view=source' },
    { role: 'lead', path: '/insight/policies', label: 'insight/policies' },
    { role: 'lead', path: '/insight/environments', label: 'insight/environments' },
    { role: 'lead', path: '/insight/compare', label: 'insight/compare' },
    { role: 'physicist', path: '/review', label: 'review' },
    { role: 'physicist', path: `/review/items/${ids.reviewAssignment}`, label: 'review/items/[id] (physics, read pacing)' },
    { role: 'reviewer', path: `/review/compare/${ids.compareAssignment}`, label: 'review/compare/[id]' },
  ];
}

const bigLabel = `trajectories/[id] (${BIG_STEPS} steps, 10 MB cast)`;

/** A studio on `databaseUrl`, signed in as each role; `time` runs with it, then it stops. */
async function withStudio<T>(
  browser: Browser,
  databaseUrl: string,
  time: (base: string, cookies: Record<Role, string>, restart: () => Promise<void>, studioCpuMs: () => number) => Promise<T>,
): Promise<T> {
  const port = await freePort();
  const base = `http://localhost:${port}`;
  let studio: ChildProcess | undefined;
  const restart = async () => {
    log('restarting the studio (it is still busy with the request given up on)');
    await killBenchStudio(studio);
    studio = startBenchStudio({ port, databaseUrl, dataDir, worker: false, nodeArgs });
    await untilHealthy(base, studio);
  };
  const nodeArgs = PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : [];
  try {
    studio = startBenchStudio({ port, databaseUrl, dataDir, worker: false, nodeArgs });
    await untilHealthy(base, studio);
    const password = (email: string) => demoUsers.find((u) => u.email === email)!.password;
    const as = (email: string) => signInCookie(browser, base, email, password(email));
    const cookies: Record<Role, string> = {
      admin: await as('admin@witness.local'),
      lead: await as('lead@witness.local'),
      physicist: await as('physicist@witness.local'),
      reviewer: await as('reviewer@witness.local'),
    };
    return await time(base, cookies, restart, () => processCpuMs(studio!.pid!));
  } finally {
    await stopBenchStudio(studio);
  }
}

/**
 * The 1,000-step run's video in Chromium: ms from navigation until the Player is hydrated and
 * plays (the first load is a warm-up), and in the same loop the comparator, the static sign-in
 * page from navigation until its form is hydrated. Each run's split is logged: first byte, the
 * page's load event, the video head's fetch, its first part's fetch, the font files' fetches, the Player hydrated, playing, and
 * (in the page's own clock) when the click reached it and when the player's time first moved.
 */
async function timeVideo(
  browser: Browser,
  base: string,
  leadCookie: string,
  bigId: string,
): Promise<{ playable: number[]; afterLoad: number[]; signIn: number[]; liveAfterLoad: number[] }> {
  const hydratedIn = async (page: Page, selector: string) =>
    page.waitForFunction(
      (sel) => {
        const el = document.querySelector(sel);
        return el !== null && Object.keys(el).some((k) => k.startsWith('__reactProps$'));
      },
      selector,
      { timeout: REQUEST_TIMEOUT_MS, polling: 16 },
    );
  // BENCH_PAGES_BROWSER_PROFILE: a Chromium CPU profile of one load (and with BENCH_PAGES_BROWSER_TRACE=1 a trace), written to DIR/NAME.cpuprofile (DIR/NAME.trace.json) when the returned stop is called
  const profileLoad = async (on: Page, name: string): Promise<() => Promise<void>> => {
    if (!BROWSER_PROFILE_DIR) return async () => {};
    const dir = BROWSER_PROFILE_DIR;
    const cdp = await on.context().newCDPSession(on);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    await cdp.send('Profiler.start');
    await mkdir(dir, { recursive: true });
    // BENCH_PAGES_BROWSER_TRACE=1: and a trace of the renderer (parse, compile, style, layout, paint: the profile's "(program)"), which slows the page
    if (BROWSER_TRACE)
      await on
        .context()
        .browser()!
        .startTracing(on, { path: path.join(dir, `${name}.trace.json`), screenshots: false });
    return async () => {
      const { profile } = await cdp.send('Profiler.stop');
      if (BROWSER_TRACE) await on.context().browser()!.stopTracing();
      await writeFile(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
      await cdp.detach();
    };
  };
  const anonymous = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 } });
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 } });
  await context.addCookies(
    leadCookie.split('; ').map((c) => ({ name: c.slice(0, c.indexOf('=')), value: c.slice(c.indexOf('=') + 1), url: base })),
  );
  const page = await context.newPage();
  const signInPage = await anonymous.newPage();
  const playable: number[] = [];
  const afterLoad: number[] = [];
  const signIn: number[] = [];
  const liveAfterLoad: number[] = [];
  try {
    try {
      for (let i = 0; i < VIDEO_RUNS; i++) {
        await signInPage.goto('about:blank');
        const s0 = Date.now();
        await signInPage.goto('/sign-in', { waitUntil: 'commit', timeout: REQUEST_TIMEOUT_MS });
        await hydratedIn(signInPage, 'form button[type="submit"]');
        const signInMs = Date.now() - s0;

        await page.goto('about:blank');
        const stopProfile = i > 0 ? await profileLoad(page, `video-run-${i}`) : async () => {};
        const t0 = Date.now();
        await page.goto(`/trajectories/${bigId}`, { waitUntil: 'commit', timeout: REQUEST_TIMEOUT_MS });
        await hydratedIn(page, '[data-testid="trajectory-player"] select[aria-label="Playback speed"]');
        const hydrated = Date.now() - t0;
        // the player's time before the click, and (in the page's own clock, without the round trips
        // between Playwright and the browser that the times above include) when the click reaches
        // the page and when the time first moves: one round trip, as the plain read of the time was
        const before = await page.evaluate(() => {
          const w = window as unknown as { benchClickAt?: number; benchMovedAt?: number };
          document.addEventListener('click', () => (w.benchClickAt ??= performance.now()), { capture: true, once: true });
          const time = document.querySelector('[data-testid="player-time"]');
          if (time)
            new MutationObserver((_, o) => {
              w.benchMovedAt = performance.now();
              o.disconnect();
            }).observe(time, { childList: true, characterData: true, subtree: true });
          return time?.textContent ?? null;
        });
        await page.locator('[data-testid="trajectory-player"] button[aria-label="Play video"]').first().click(); // CSS: a role query computes the accessible name of every element (seconds on a long page)
        await page.waitForFunction((b) => document.querySelector('[data-testid="player-time"]')?.textContent !== b, before, {
          timeout: REQUEST_TIMEOUT_MS,
          polling: 16,
        });
        const playing = Date.now() - t0;
        await stopProfile();
        const split = await page.evaluate(() => {
          const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
          const head = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((r) =>
            /\/video\?pacing=[a-z]+$/.test(r.name),
          );
          const part1 = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((r) =>
            /\/video\?pacing=[a-z]+&part=1&rev=/.test(r.name),
          );
          return {
            ttfb: nav.responseStart,
            load: nav.loadEventEnd,
            head: head ? { from: head.startTime, to: head.responseEnd } : null,
            part1: part1 ? { from: part1.startTime, to: part1.responseEnd, bytes: part1.decodedBodySize } : null,
            click: (window as unknown as { benchClickAt?: number }).benchClickAt ?? null,
            moved: (window as unknown as { benchMovedAt?: number }).benchMovedAt ?? null,
            fonts: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
              .filter((r) => /\.woff2?$/.test(r.name))
              .map((r) => ({ from: r.startTime, to: r.responseEnd })),
          };
        });
        if (i > 0) {
          playable.push(playing);
          afterLoad.push(playing - split.load);
          signIn.push(signInMs);
        }
        const ms = (v: number) => v.toFixed(0);
        log(
          `${BIG_STEPS}-step page in Chromium: first byte ${ms(split.ttfb)}, load ${ms(split.load)}, video head ${split.head ? `${ms(split.head.from)}-${ms(split.head.to)}` : 'not fetched'}, part 1 ${split.part1 ? `${ms(split.part1.from)}-${ms(split.part1.to)} (${(split.part1.bytes / 1024).toFixed(0)} KiB)` : 'not fetched'}, ${split.fonts.length} fonts ${split.fonts.length ? `${ms(Math.min(...split.fonts.map((f) => f.from)))}-${ms(Math.max(...split.fonts.map((f) => f.to)))}` : ''}, Player hydrated ${hydrated}, playing ${playing} ms; in the page: click ${split.click === null ? '?' : ms(split.click)}, time moved ${split.moved === null ? '?' : ms(split.moved)} (sign-in hydrated ${signInMs} ms)`,
        );
      }
    } catch (error) {
      if ((error as Error).name !== 'TimeoutError') throw error;
      log(`${BIG_STEPS}-step page in Chromium: not playing within ${REQUEST_TIMEOUT_MS / 1000} s`);
      playable.push(Infinity);
    }
    try {
      // The same page, clicked by the page itself: a script that runs before the page's own clicks
      // Play the moment its button has React's handler (polled every 4 ms), and notes, in the
      // page's clock, when that was and when the time first moved. Playwright's click above waits
      // for its own checks (the button stable over two animation frames, scrolled into view, hit
      // by the pointer), each a round trip to the browser: 300-450 ms between the Player hydrated
      // and the click reaching the page on this machine, none of it the page's.
      const live = await context.newPage();
      // a string, not a function: tsx's helpers (__name) do not exist in the page
      await live.addInitScript(`(() => {
      if (!location.pathname.startsWith('/trajectories/')) return;
      const selector = '[data-testid="trajectory-player"] button[aria-label="Play video"]';
      const time = () => document.querySelector('[data-testid="player-time"]')?.textContent ?? null;
      let before = null;
      const look = () => {
        if (window.benchLiveAt === undefined) {
          const button = document.querySelector(selector);
          if (!button || !Object.keys(button).some((k) => k.startsWith('__reactProps$'))) return void setTimeout(look, 4);
          window.benchLiveAt = performance.now();
          before = time();
          button.click();
        } else if (time() !== before) return void (window.benchMovedAt = performance.now());
        setTimeout(look, 4);
      };
      look();
    })();`);
      for (let i = 0; i < VIDEO_RUNS; i++) {
        await live.goto('about:blank');
        const stopProfile = i > 0 ? await profileLoad(live, `video-live-run-${i}`) : async () => {};
        await live.goto(`/trajectories/${bigId}`, { waitUntil: 'commit', timeout: REQUEST_TIMEOUT_MS });
        await live.waitForFunction(() => (window as unknown as { benchMovedAt?: number }).benchMovedAt !== undefined, undefined, {
          timeout: REQUEST_TIMEOUT_MS,
          polling: 16,
        });
        const at = await live.evaluate(() => {
          const w = window as unknown as { benchLiveAt: number; benchMovedAt: number };
          const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
          const parts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
            .filter((r) => /\/video\?pacing=[a-z]+(&part=\d+|$)/.test(r.name) && r.startTime < w.benchMovedAt)
            .map(
              (r) =>
                `${/&part=(\d+)/.exec(r.name)?.[1] ?? 'head'} ${r.startTime.toFixed(0)}-${r.responseEnd.toFixed(0)} (${(r.decodedBodySize / 1024).toFixed(0)} KiB)`,
            );
          const others = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
            .filter((r) => r.startTime < w.benchMovedAt && !/\/_next\/static\/|\/video\?/.test(r.name))
            .map((r) => `${r.name.replace(location.origin, '')} ${r.startTime.toFixed(0)}-${r.responseEnd.toFixed(0)}`);
          return { load: nav.loadEventEnd, live: w.benchLiveAt, moved: w.benchMovedAt, parts, others };
        });
        await stopProfile();
        if (i > 0) liveAfterLoad.push(at.moved - at.load);
        log(
          `${BIG_STEPS}-step page in Chromium, clicked by the page: load ${at.load.toFixed(0)}, Play live ${at.live.toFixed(0)}, time moved ${at.moved.toFixed(0)} ms; video fetched before it moved: ${at.parts.join(', ')}; other requests: ${at.others.join(', ') || 'none'}`,
        );
      }
    } catch (error) {
      if ((error as Error).name !== 'TimeoutError') throw error;
      log(`${BIG_STEPS}-step page in Chromium, clicked by the page: not playing within ${REQUEST_TIMEOUT_MS / 1000} s`);
      liveAfterLoad.push(Infinity);
    }
  } finally {
    await context.close();
    await anonymous.close();
  }
  return { playable, afterLoad, signIn, liveAfterLoad };
}

/**
 * The campaign, agreement and adjudication pages read stored snapshots (lib/campaigns/): built
 * here as the campaign.snapshot job would (the bench's studios run no worker). They are kept in
 * the cached databases, so this is a no-op once they are current.
 */
async function ensureSnapshots(databaseUrl: string, campaignId: string, scale: string): Promise<void> {
  setEnv('DATABASE_URL', databaseUrl);
  try {
    const t0 = performance.now();
    const r = await refreshCampaignSnapshots(campaignId);
    const took = ((performance.now() - t0) / 1000).toFixed(1);
    log(
      `${scale}: campaign snapshots ${r.written.length ? `built (${r.written.join(', ')}) in ${took} s` : `current (${took} s to check)`}`,
    );
  } finally {
    await closeSqlPool();
    await disconnectDb();
  }
}

export async function run(): Promise<BenchFigure[]> {
  await rm(dataDir, { recursive: true, force: true });
  const dbs = await openBenchPagesDatabases(log);
  const browser = await launchBenchChromium();
  const wanted = (label: string) => ONLY.some((o) => label.includes(o));
  const selected = (pages: PageCase[]) => pages.filter((p) => wanted(p.label));
  const figures: BenchFigure[] = [];
  const add = (scale: string, goal: string, runs: number, r: { pages: Timed[]; static: number; staticCpu: number | null }) => {
    for (const p of r.pages)
      for (const kind of ['html', 'rsc'] as const) {
        const note = p.timedOut
          ? ` (timed out: > ${REQUEST_TIMEOUT_MS / 1000} s, a lower bound)`
          : p.samples < runs
            ? ` (${p.samples} requests: over its time budget)`
            : '';
        figures.push({
          group: GROUP,
          name: `${scale}: ${p.label} as ${p.role}, ${kind.toUpperCase()} p95${note}`,
          value: p[kind],
          unit: 'ms',
          higherIsBetter: false,
          comparator: { name: 'sign-in page (static, same loop)', value: r.static },
          goal,
        });
        const cpu = p.cpu?.[kind];
        if (cpu !== undefined && r.staticCpu !== null)
          figures.push({
            group: GROUP,
            name: `${scale}: ${p.label} as ${p.role}, studio CPU per ${kind.toUpperCase()} request (mean of ${CPU_RUNS})`,
            value: cpu,
            unit: 'ms',
            higherIsBetter: false,
            comparator: { name: 'sign-in page (static), studio CPU per request', value: r.staticCpu },
          });
      }
    if (r.pages.length === 0) return;
    const worst = r.pages.reduce((a, b) => (Math.max(b.html, b.rsc) > Math.max(a.html, a.rsc) ? b : a));
    figures.push({
      group: GROUP,
      name: `${scale}: slowest page p95 (${worst.label}, ${worst.html >= worst.rsc ? 'HTML' : 'RSC'}${worst.timedOut ? ', timed out' : ''})`,
      value: Math.max(worst.html, worst.rsc),
      unit: 'ms',
      higherIsBetter: false,
      comparator: { name: 'sign-in page (static, same loop)', value: r.static },
      goal,
    });
  };
  try {
    const { ids } = dbs;
    // only the campaign pages read the snapshots (building them at bench scale takes minutes of CPU)
    const needsSnapshots = (pages: PageCase[]) => pages.some((p) => p.path.includes('/campaigns/'));
    if (SCALE !== 'bench') {
      if (needsSnapshots(selected(pagesOf(ids, ids.demo)))) await ensureSnapshots(dbs.demoUrl, ids.demo.campaign, 'demo scale');
      const demo = await withStudio(browser, dbs.demoUrl, (base, cookies, restart, cpuMs) =>
        timePages(base, cookies, selected(pagesOf(ids, ids.demo)), RUNS, restart, cpuMs),
      );
      add('demo scale', '<= 200 ms', RUNS, demo);
    }
    if (SCALE !== 'demo') {
      if (ids.bench && needsSnapshots(selected(pagesOf(ids, ids.bench))))
        await ensureSnapshots(dbs.benchUrl, ids.bench.campaign, 'bench scale');
      const benchRuns = Math.max(5, Math.round(RUNS / 2));
      if (wanted(bigLabel)) {
        // the page reads stored props and never derives them (a worker's video.props job, or the
        // render after import, does): derived here once, as that job would, before the page is timed
        setEnv('DATABASE_URL', dbs.benchUrl);
        const t0 = performance.now();
        const { derived } = await prepareVideoProps(ids.big, { pacing: await pacingOfTrajectory(ids.big) });
        log(
          `${BIG_STEPS}-step run's video props ${derived ? `derived and stored in ${((performance.now() - t0) / 1000).toFixed(1)} s` : 'already stored'}`,
        );
        await disconnectDb();
        await closeSqlPool();
      }
      const scalePages = ids.bench ? pagesOf(ids, ids.bench) : [];
      if (!ids.bench) log(`BENCH_PAGES_DATA=video: at bench scale only "${bigLabel}" is timed (no bench-scale rows)`);
      const all = selected([...scalePages, { role: 'lead', path: `/trajectories/${ids.big}`, label: bigLabel }]);
      // the pages that read every review of the campaign go last (the studio is restarted after a
      // page that timed out, as it is still busy with the request given up on)
      const last = (p: PageCase) => /\/campaigns\/[^/]+\/(agreement|adjudication)$/.test(p.path);
      const { timed, playable } = await withStudio(browser, dbs.benchUrl, async (base, cookies, restart, cpuMs) => {
        const first = await timePages(
          base,
          cookies,
          all.filter((p) => !last(p)),
          benchRuns,
          restart,
          cpuMs,
        );
        const playable = wanted(bigLabel) ? await timeVideo(browser, base, cookies.lead, ids.big) : null;
        const rest = await timePages(base, cookies, all.filter(last), benchRuns, restart, cpuMs);
        const timed = { pages: [...first.pages, ...rest.pages], static: first.static, staticCpu: first.staticCpu };
        return { timed, playable };
      });
      const scaleName = ids.bench ? 'bench scale' : `video data (BENCH_PAGES_DATA=video: the demo seed and the ${BIG_STEPS}-step run only)`;
      add(
        ids.bench ? `bench scale (${TRAJECTORIES / 1000}k trajectories, ${(TRAJECTORIES * REVIEWERS) / 1e6}M reviews)` : scaleName,
        '<= 1000 ms',
        benchRuns,
        timed,
      );
      if (playable?.playable.length) {
        const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
        const m = median(playable.playable);
        const comparator = playable.signIn.length
          ? { name: 'sign-in page, navigation until hydrated (same browser, same loop)', value: median(playable.signIn) }
          : undefined;
        figures.push({
          group: GROUP,
          name: `${scaleName}: ${BIG_STEPS}-step trajectory page in Chromium, navigation until its video plays (median of ${playable.playable.length}${m === Infinity ? `; timed out: > ${REQUEST_TIMEOUT_MS / 1000} s` : ''})`,
          value: m === Infinity ? REQUEST_TIMEOUT_MS : m,
          unit: 'ms',
          higherIsBetter: false,
          comparator,
          // no goal: issue 17's goal is the video playable within 1 s of the page's load (the two
          // figures below); this one adds the load itself, where the static sign-in page beside it
          // takes ~70% of a second on this machine to be hydrated
        });
        if (playable.afterLoad.length)
          figures.push({
            group: GROUP,
            name: `${scaleName}: ${BIG_STEPS}-step trajectory page in Chromium, from the page's load event until its video plays (median of ${playable.afterLoad.length})`,
            value: median(playable.afterLoad),
            unit: 'ms',
            higherIsBetter: false,
            comparator,
            goal: '<= 1000 ms',
          });
        if (playable.liveAfterLoad.length) {
          const live = median(playable.liveAfterLoad);
          figures.push({
            group: GROUP,
            name: `${scaleName}: ${BIG_STEPS}-step trajectory page in Chromium, from the page's load event until its video plays, Play clicked by the page as soon as it is live (median of ${playable.liveAfterLoad.length})`,
            value: live === Infinity ? REQUEST_TIMEOUT_MS : live,
            unit: 'ms',
            higherIsBetter: false,
            comparator,
            goal: '<= 1000 ms',
          });
        }
      }
    }
    return figures;
  } finally {
    await browser.close();
    await dbs.postgres.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
