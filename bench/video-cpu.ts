import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * CPU of a render's whole process tree, read from /proc thread by thread: node, Chromium's
 * browser, renderer and GPU (display compositor) processes, ffmpeg. For bench/video.bench.ts and
 * bench/video-profile.ts.
 *
 * Read at two moments of a render (after its first frames, at its last) so the figure is the
 * steady state of frames, not the browser's start and shutdown. Not `cutime`: Chromium's
 * renderer and GPU processes are not children of node, and when the browser exits before them
 * their CPU never reaches node's counters.
 */

export interface ThreadTicks {
  /** node, chromium browser, chromium renderer, chromium gpu-process, ffmpeg, ... */
  kind: string;
  /** the thread's name, numbers cut (CompositorTileW1 -> CompositorTileW) */
  thread: string;
  /** user + system clock ticks (USER_HZ = 100) */
  ticks: number;
}

const kinds = new Map<number, string>();

function kindOf(pid: number): string {
  if (pid === process.pid) return 'node';
  let cmd: string;
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return 'gone';
  }
  const type = /--type=([\w-]+)/.exec(cmd)?.[1];
  if (/chrom|--type=/.test(cmd)) return type ? `chromium ${type}${/--top-chrome-webui/.test(cmd) ? ' (webui)' : ''}` : 'chromium browser';
  if (/ffmpeg/.test(cmd)) return 'ffmpeg';
  return path.basename(cmd.split(' ')[0] ?? '?');
}

/** The children of `pid`, from /proc/<pid>/task/<tid>/children (each thread lists the children it forked). */
function childrenOf(pid: number): number[] {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const tid of tids) {
    try {
      for (const c of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ')) if (c) out.push(Number(c));
    } catch {
      /* ended */
    }
  }
  return out;
}

/** Whether this kernel has /proc/<pid>/task/<tid>/children (CONFIG_PROC_CHILDREN); if not, the whole of /proc is scanned. */
const hasChildrenFiles = (() => {
  try {
    readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8');
    return true;
  } catch {
    return false;
  }
})();

/**
 * This process and all its descendants. Walked from this process down through the children files,
 * so a walk reads about one file per thread of the tree, not one per process on the machine: the
 * samplers below run every 100-250 ms in this process, and the old scan of every /proc/<pid>/stat
 * cost ~100 ms of node CPU a second on a machine with ~180 processes, charged to node as CPU per
 * frame, and so twice as heavily to a composition that renders at half the fps.
 */
export function descendants(): number[] {
  if (!hasChildrenFiles) return descendantsByScan();
  const out: number[] = [];
  const stack = [process.pid];
  while (stack.length) {
    const pid = stack.pop()!;
    out.push(pid);
    stack.push(...childrenOf(pid));
  }
  return out;
}

function descendantsByScan(): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid)!.push(Number(entry));
    } catch {
      /* ended */
    }
  }
  const out: number[] = [];
  const stack = [process.pid];
  while (stack.length) {
    const pid = stack.pop()!;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

let rssPids: { at: number; pids: number[] } = { at: -Infinity, pids: [] };

/**
 * Resident memory of this process and all its descendants (Chromium, ffmpeg), in bytes. Sampled
 * every 250 ms during a render: the tree is walked again at most every 2 s (a walk reads a file
 * per thread), the RSS of each known process every call (one small file each).
 */
export function treeRss(): number {
  const now = performance.now();
  if (now - rssPids.at > 2000) rssPids = { at: now, pids: descendants() };
  let total = 0;
  for (const pid of rssPids.pids) {
    try {
      total += Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096;
    } catch {
      /* ended */
    }
  }
  return total;
}

/** Every thread of the tree now, keyed pid/tid. */
export function treeThreads(): Map<string, ThreadTicks> {
  const out = new Map<string, ThreadTicks>();
  for (const pid of descendants()) {
    let kind = kinds.get(pid);
    if (!kind) kinds.set(pid, (kind = kindOf(pid)));
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const thread = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+$/, '');
        out.set(`${pid}/${tid}`, { kind, thread, ticks: Number(f[11]) + Number(f[12]) });
      } catch {
        /* ended */
      }
    }
  }
  return out;
}

/** CPU milliseconds per "kind :: thread" between two snapshots (a thread that ended in between counts up to its last snapshot: none, here). */
export function cpuBetween(a: Map<string, ThreadTicks>, b: Map<string, ThreadTicks>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, t] of b) {
    const key2 = `${t.kind} :: ${t.thread}`;
    out.set(key2, (out.get(key2) ?? 0) + (t.ticks - (a.get(key)?.ticks ?? 0)) * 10);
  }
  return out;
}

/** Sum of a split, optionally of one kind. */
export function cpuTotal(split: Map<string, number>, kind?: string): number {
  let n = 0;
  for (const [k, v] of split) if (kind === undefined || k.startsWith(`${kind} ::`)) n += v;
  return n;
}

/** Adds split b into a. */
export function addSplit(a: Map<string, number>, b: Map<string, number>): void {
  for (const [k, v] of b) a.set(k, (a.get(k) ?? 0) + v);
}

/**
 * The encoder's CPU over a whole render: ffmpeg (a child of node, one per render) lags the
 * frames it is given by its lookahead, so a window over the rendered frames would miss its work
 * on the last ones. Sampled every 100 ms; `ticks()` is the CPU ms of every ffmpeg seen, at its
 * last sample (what it spends in the last < 100 ms before it exits is not seen).
 */
export class EncoderSampler {
  private last = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  private samples = 0;
  start(): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), 100);
    return this;
  }
  stop(): number {
    if (this.timer) clearInterval(this.timer);
    this.sample(true);
    return [...this.last.values()].reduce((a, b) => a + b, 0) * 10;
  }
  /** Reads the CPU of each ffmpeg known; looks for new ones (Remotion spawns ffmpeg from this process) every 5th sample. */
  private sample(find = false) {
    if (find || this.samples++ % 5 === 0)
      for (const pid of hasChildrenFiles ? childrenOf(process.pid) : descendants()) {
        if (this.last.has(pid)) continue;
        let kind = kinds.get(pid);
        if (!kind) kinds.set(pid, (kind = kindOf(pid)));
        if (kind === 'ffmpeg') this.last.set(pid, 0);
      }
    for (const pid of this.last.keys()) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        this.last.set(pid, Number(f[11]) + Number(f[12]));
      } catch {
        /* ended: keeps its last sample */
      }
    }
  }
}
