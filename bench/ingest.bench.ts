import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pg from 'pg';
import { disconnectDb } from '../lib/db/client';
import { copyFrom } from '../lib/db/copy-from';
import { closeTrajectoryBatchPool } from '../lib/db/pg-pool';
import { startEmbeddedPostgres } from '../lib/db/embedded-postgres';
import { migrateDatabase } from '../lib/migrate-database';
import { ensureProject } from '../lib/trajectories/queries/projects';
import { binaryCopyData, type BinaryField } from '../lib/ingest/queries/binary-copy';
import { newId } from '../lib/ingest/queries/storable-trajectory';
import { IMPORT_SOURCE_COPY } from '../lib/ingest/queries/store-trajectory-batch';
import { setEnv } from '../lib/env';
import { detectFormat } from '../lib/formats/detect';
import { getImporter } from '../lib/formats/registry';
import { probeFile } from '../lib/formats/source';
import type { Trajectory } from '../lib/formats/trajectory';
import { collectInputs } from '../lib/ingest/collect-inputs';
import { importTrajectories, type ImportProfile } from '../lib/ingest/import-trajectories';
import { defaultParseWorkers, ParsePool } from '../lib/ingest/parse-pool';
import { defaultReadAhead, ReadAheadPool } from '../lib/ingest/read-ahead-pool';
import { prepareTrajectory, type PreparedTrajectory } from '../lib/ingest/prepare-trajectory';
import { rawSource } from '../lib/ingest/raw-source';
import { mulberry32 } from '../lib/stats/prng';
import type { BenchFigure } from './figure';
import { freePort } from './free-port';

/**
 * Ingest benchmark: `witness import`'s code path (collectInputs + importTrajectories, in
 * process) on 10,000 generated ATIF trajectories of about 30 steps each (agent messages with
 * reasoning, bash tool calls with object arguments, observations of a few hundred bytes;
 * seeded, so every run sees the same files), into a fresh project of a fresh embedded
 * PostgreSQL, over its Unix socket (as `witness import` connects).
 *
 * Comparator, same run, same database: the same rows (tasks, policies, import sources with the
 * compressed file and its item count, trajectories, steps; same columns, same JSON payloads,
 * ids from the import's own generator) bulk-loaded with `COPY ... FROM STDIN` into a fresh
 * project, from COPY data built beforehand in memory (untimed), in one transaction: text format,
 * but the import sources in binary (their compressed bytes, the import's own statement and
 * encoder), as the import sends them. Each side runs PASSES times (default 2), on every file
 * each time, as the issue measures it (one `witness import` of 10,000 files), into fresh
 * projects, ABBA: pass 0 imports then COPYs, pass 1 COPYs then imports, so neither side always
 * runs second (bigger tables, the first's leftovers, the load of the minute). Each pass's two
 * projects are compared row by row (an md5 of their ordered contents), so the comparator loads
 * exactly what the import wrote. (Until session 20 the files were split into 5 rounds of 2,000,
 * one import each: that measured five imports' start and end and the COPY data's leftovers in
 * the heap too, 0.65-0.76x where one import of the 10,000 measured 0.81-0.84x in the same
 * sessions.)
 *
 * Also reported: peak RSS of the first import (VmHWM after resetting it through
 * /proc/self/clear_refs; sampled RSS where that is not available) beside its peak at a fifth
 * of the files (flat in the number of files); the re-import of the same files (every
 * file unchanged, skipped by its hash unparsed) beside the first import and beside a re-import
 * that parses every file (the sources' item counts cleared first: what a re-import did before);
 * and, on stderr, the import's time split (parse/validate/hash/compress on the Node side vs waiting
 * on the database), the CPU seconds of each phase split into this process's main thread (the
 * writer), its other threads (parse workers, the thread pool) and PostgreSQL (from /proc: the
 * client backends, which run the statements, read before their connection closes; the
 * background processes by title; the postmaster and processes that exited), with the load
 * average, the ceiling that CPU puts on the ratio on idle cores, plus a parse-only pass (no
 * database) over the same files.
 *
 * BENCH_INGEST_N overrides the number of trajectories (default 10000); BENCH_INGEST_WORKERS the
 * number of parse workers (default as `witness import`, defaultParseWorkers: none on two cores, one a core beyond
 * two, at most two; 0 = parse on the main thread); BENCH_INGEST_READ_AHEAD=0|1 the read-ahead worker (default as
 * `witness import`, defaultReadAhead: on where parsing is inline and there is a second core);
 * BENCH_INGEST_PASSES the passes; BENCH_INGEST_ONLY=copy runs only the import and the COPY (no
 * re-imports, no import without workers, no parse-only pass).
 */
const GROUP = 'ingest';
const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, '.data', 'bench-ingest');
const COUNT = Number(process.env.BENCH_INGEST_N ?? 10_000);
const STEPS = 30;
/** parse workers, as `witness import` runs (lib/ingest/parse-pool.ts defaultParseWorkers); BENCH_INGEST_WORKERS=0 parses on the main thread as before */
const WORKERS = Number(process.env.BENCH_INGEST_WORKERS ?? defaultParseWorkers());
/** a read-ahead worker, as `witness import` runs (lib/ingest/read-ahead-pool.ts defaultReadAhead: where the import parses on its main thread); BENCH_INGEST_READ_AHEAD=0 reads, hashes and compresses on the main thread as before */
const READ_AHEAD = process.env.BENCH_INGEST_READ_AHEAD === undefined ? defaultReadAhead() : process.env.BENCH_INGEST_READ_AHEAD !== '0';
/** passes of one import of every file and one COPY of the same rows, alternating which goes first (BENCH_INGEST_PASSES, default 2) */
const PASSES = Math.max(1, Number(process.env.BENCH_INGEST_PASSES ?? 2));
/** BENCH_INGEST_ONLY=copy: only the import and the COPY of the same rows (no re-imports, no import without workers, no parse-only pass) */
const COPY_ONLY = process.env.BENCH_INGEST_ONLY === 'copy';

const log = (line: string) => process.stderr.write(`  [ingest] ${line}\n`);

// ------------------------------------------------------------------ generated ATIF

const WORDS =
  'the a file test build error config module function value check output install package path directory run script fix update check import failing passes expected result line missing permission denied version python node cargo make install requirements'.split(
    ' ',
  );
const MODELS = [
  'anthropic/claude-sonnet-4-5',
  'openai/gpt-5',
  'openai/gpt-5-mini',
  'google/gemini-2.5-pro',
  'qwen/qwen3-coder',
  'deepseek/deepseek-v3.2',
  'moonshot/kimi-k2',
  'zai/glm-4.6',
];
const COMMANDS = [
  'ls -la /app',
  'cat /app/README.md',
  'python3 -m pytest -q tests/',
  'grep -rn "TODO" src/',
  'pip install -r requirements.txt',
  'git diff --stat',
  'make build 2>&1 | tail -n 20',
  "sed -n '1,40p' src/main.py",
  'chmod +x /app/run.sh && /app/run.sh',
  'find . -name "*.py" | head',
];

function sentence(random: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(random() * WORDS.length)]!);
  const s = out.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
}

function terminalOutput(random: () => number, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const kind = random();
    const line =
      kind < 0.3
        ? `-rw-r--r-- 1 root root ${Math.floor(random() * 90000)} Nov  2 09:${String(Math.floor(random() * 60)).padStart(2, '0')} ${WORDS[Math.floor(random() * WORDS.length)]}.py`
        : kind < 0.5
          ? `tests/test_${WORDS[Math.floor(random() * WORDS.length)]}.py::test_${Math.floor(random() * 99)} ${random() < 0.8 ? '\u001b[32mPASSED\u001b[0m' : '\u001b[31mFAILED\u001b[0m'}`
          : kind < 0.55
            ? `  File "/app/src/main.py", line ${Math.floor(random() * 400)}, in <module> — naïve “quote” ✓`
            : sentence(random, 6 + Math.floor(random() * 8));
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/** One ATIF document (deterministic in its index). */
export function atifDocument(i: number): object {
  const random = mulberry32(1_000_003 * (i + 1));
  const task = `task-${String(i % 500).padStart(3, '0')}`;
  const model = MODELS[i % MODELS.length]!;
  const t0 = Date.UTC(2025, 10, 2, 9, 0, 0) + i * 60_000;
  let t = t0;
  const stamp = () => {
    t += 500 + Math.floor(random() * 8000);
    return new Date(t).toISOString();
  };
  const steps: object[] = [
    {
      step_id: 1,
      timestamp: stamp(),
      source: 'system',
      message: `You are an autonomous agent in a Linux terminal. ${sentence(random, 30)} ${sentence(random, 25)}`,
    },
    { step_id: 2, timestamp: stamp(), source: 'user', message: `Task ${task}: ${sentence(random, 25)} ${sentence(random, 15)}` },
  ];
  let prompt = 1200;
  for (let s = 3; s <= STEPS; s++) {
    const calls = random() < 0.15 ? 2 : s === STEPS ? 0 : 1;
    const toolCalls = [];
    const results = [];
    for (let c = 0; c < calls; c++) {
      const id = `call_${s}_${c}`;
      toolCalls.push({
        tool_call_id: id,
        function_name: 'bash',
        arguments: { command: COMMANDS[Math.floor(random() * COMMANDS.length)], timeout_sec: 30 },
      });
      results.push({ source_call_id: id, content: terminalOutput(random, 150 + Math.floor(random() * 500)) });
    }
    prompt += 300 + Math.floor(random() * 700);
    steps.push({
      step_id: s,
      timestamp: stamp(),
      source: 'agent',
      model_name: model,
      message: sentence(random, 8 + Math.floor(random() * 20)),
      ...(random() < 0.5 ? { reasoning_content: `${sentence(random, 20)} ${sentence(random, 10)}` } : {}),
      ...(calls > 0 ? { tool_calls: toolCalls, observation: { results } } : {}),
      metrics: {
        prompt_tokens: prompt,
        completion_tokens: 40 + Math.floor(random() * 300),
        cached_tokens: Math.floor(prompt * 0.6),
        cost_usd: Math.round(prompt * 0.003) / 1000,
      },
    });
  }
  return {
    schema_version: 'ATIF-v1.4',
    session_id: `sess-${String(i).padStart(6, '0')}-${Math.floor(random() * 1e9).toString(36)}`,
    agent: { name: 'terminus-2', version: '2.0.1', model_name: model },
    notes: 'generated for the Witness ingest benchmark',
    extra: { task_name: task, acceptance_criteria: [`${task} passes its tests`, sentence(random, 6)] },
    final_metrics: { total_prompt_tokens: prompt * 10, total_completion_tokens: 4000, total_cost_usd: 0.42, total_steps: STEPS },
    steps,
  };
}

async function writeDocuments(dir: string, count: number): Promise<number> {
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const text = JSON.stringify(atifDocument(i), null, 1);
    bytes += Buffer.byteLength(text);
    await writeFile(path.join(dir, `traj-${String(i).padStart(6, '0')}.json`), text);
  }
  return bytes;
}

// ------------------------------------------------------------------ memory

function vmHwmBytes(): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Peak RSS over `fn`: VmHWM after resetting it (Linux), else the max of 20 ms samples. */
async function withPeakRss<T>(fn: () => Promise<T>): Promise<{ result: T; peak: number; method: string }> {
  let reset = false;
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    reset = true;
  } catch {
    /* not Linux, or not permitted */
  }
  // sampled only where VmHWM cannot be reset: every 20 ms, process.memoryUsage() (heap statistics and all) cost the import
  // ~130 ms of its main thread over 5,000 files (--cpu-prof); rss() alone reads only the resident set
  let sampled = process.memoryUsage.rss();
  const timer = reset ? null : setInterval(() => (sampled = Math.max(sampled, process.memoryUsage.rss())), 20);
  try {
    const result = await fn();
    sampled = Math.max(sampled, process.memoryUsage.rss());
    const hwm = reset ? vmHwmBytes() : null;
    return { result, peak: hwm ?? sampled, method: hwm !== null ? 'VmHWM' : 'sampled' };
  } finally {
    if (timer) clearInterval(timer);
  }
}

/** A full garbage collection (V8's gc(), made available at run time), so RSS holds what is live. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

// ------------------------------------------------------------------ CPU split

const TICK = 100; // Linux USER_HZ: /proc reports utime and stime in 1/100 s

/** utime + stime in seconds from a /proc .../stat line (fields 14 and 15, after the parenthesised name). */
function statSeconds(path: string, withChildren = false): number {
  try {
    const fields = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
    // fields[0] is the state (field 3): utime is field 14, stime 15, cutime 16, cstime 17
    const own = Number(fields[11]) + Number(fields[12]);
    return (own + (withChildren ? Number(fields[13]) + Number(fields[14]) : 0)) / TICK;
  } catch {
    return 0;
  }
}

interface CpuSample {
  /** this process's main thread: the batch writer */
  main: number;
  /** every other thread of this process: parse workers, the thread pool (reads, hashes, gzip), V8's helpers */
  others: number;
  /** the PostgreSQL server: the postmaster, its live processes and those that exited */
  postgres: number;
  /** of `postgres`: the client backends (the connections running the statements: the writes themselves) */
  backends: number;
  /** per PostgreSQL process (pid -> its title and CPU seconds), to split the difference of two samples */
  processes: Map<number, { title: string; seconds: number }>;
  /** the postmaster's own CPU plus what its exited children used (reaped: cutime + cstime) */
  postmasterAndExited: number;
}

/** The postmaster's children: /proc/<pid>/task/<pid>/children (Linux 3.5+), else every /proc entry whose parent it is. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    const found: number[] = [];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === pid) found.push(Number(entry));
      } catch {
        /* exited meanwhile */
      }
    }
    return found;
  }
}

/** A client backend's title is "postgres: <user> <db> <host>(<port>) <state>"; the rest are background processes. */
const isClientBackend = (title: string) => /\d\)( |$)/.test(title) || /\[local\]/.test(title);

function cpuNow(postmasterPid: number | null): CpuSample {
  const total = statSeconds('/proc/self/stat');
  const main = statSeconds(`/proc/self/task/${process.pid}/stat`);
  const processes = new Map<number, { title: string; seconds: number }>();
  let postmasterAndExited = 0;
  if (postmasterPid !== null) {
    postmasterAndExited = statSeconds(`/proc/${postmasterPid}/stat`, true);
    for (const child of childrenOf(postmasterPid)) {
      let title = '?';
      try {
        title = readFileSync(`/proc/${child}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      } catch {
        continue; // exited meanwhile: its CPU reaches the postmaster's cutime
      }
      processes.set(child, { title, seconds: statSeconds(`/proc/${child}/stat`) });
    }
  }
  let postgres = postmasterAndExited;
  let backends = 0;
  for (const p of processes.values()) {
    postgres += p.seconds;
    if (isClientBackend(p.title)) backends += p.seconds;
  }
  return { main, others: total - main, postgres, backends, processes, postmasterAndExited };
}

function cpuSince(before: CpuSample, postmasterPid: number | null): CpuSample {
  const now = cpuNow(postmasterPid);
  const processes = new Map<number, { title: string; seconds: number }>();
  let backends = 0;
  for (const [pid, p] of now.processes) {
    const seconds = p.seconds - (before.processes.get(pid)?.seconds ?? 0); // a process started meanwhile began at 0
    processes.set(pid, { title: p.title, seconds });
    if (isClientBackend(p.title)) backends += seconds;
  }
  // a process that exited meanwhile: its CPU since `before` is in the postmaster's cutime (less what it had used before)
  let exitedBefore = 0;
  for (const [pid, p] of before.processes) if (!now.processes.has(pid)) exitedBefore += p.seconds;
  const postmasterAndExited = now.postmasterAndExited - before.postmasterAndExited - exitedBefore;
  let postgres = postmasterAndExited;
  for (const p of processes.values()) postgres += p.seconds;
  return { main: now.main - before.main, others: now.others - before.others, postgres, backends, processes, postmasterAndExited };
}

/** All the CPU of a phase (this process's threads and PostgreSQL), in ms a file. */
const cpuPerFile = (c: CpuSample, files: number) => (1000 * (c.main + c.others + c.postgres)) / files;

/** Two phases' CPU together (rounds of the same phase). */
function addCpu(a: CpuSample | null, b: CpuSample): CpuSample {
  if (!a) return b;
  const processes = new Map(a.processes);
  for (const [pid, p] of b.processes) processes.set(pid, { title: p.title, seconds: (processes.get(pid)?.seconds ?? 0) + p.seconds });
  return {
    main: a.main + b.main,
    others: a.others + b.others,
    postgres: a.postgres + b.postgres,
    backends: a.backends + b.backends,
    processes,
    postmasterAndExited: a.postmasterAndExited + b.postmasterAndExited,
  };
}

const cpuLine = (c: CpuSample, seconds: number, files?: number) =>
  (files ? `${cpuPerFile(c, files).toFixed(2)} ms of CPU a file; ` : '') +
  `CPU s: main thread ${c.main.toFixed(1)}, other threads (parse workers, thread pool) ${c.others.toFixed(1)}, PostgreSQL ${c.postgres.toFixed(1)} ` +
  `(client backends ${c.backends.toFixed(1)}, background ${(c.postgres - c.backends - c.postmasterAndExited).toFixed(1)}` +
  `${backgroundDetail(c)}, exited or postmaster ${c.postmasterAndExited.toFixed(1)}) ` +
  `(${((c.main + c.others + c.postgres) / seconds).toFixed(2)} cores busy of ${availableParallelism()})`;

/** The background processes that used 0.1 s or more: "walwriter 0.4, checkpointer 1.2". */
function backgroundDetail(c: CpuSample): string {
  const byTitle = new Map<string, number>();
  for (const p of c.processes.values()) {
    if (isClientBackend(p.title)) continue;
    const name = p.title.replace(/^postgres:\s*/, '');
    byTitle.set(name, (byTitle.get(name) ?? 0) + p.seconds);
  }
  const parts = [...byTitle].filter(([, s]) => s >= 0.1).map(([name, s]) => `${name} ${s.toFixed(1)}`);
  return parts.length > 0 ? `: ${parts.join(', ')}` : '';
}

function postmasterPidOf(dir: string): number | null {
  try {
    return Number(readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
}

const loadAverage = () => loadavg()[0]!.toFixed(1);

// ------------------------------------------------------------------ COPY comparator

/** COPY text format: one value, escaped (NULL is \N). */
function copyValue(v: string | number | null): string {
  if (v === null) return '\\N';
  if (typeof v === 'number') return String(v);
  return v.replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'));
}

class CopyText {
  private parts: string[] = [];
  private size = 0;
  readonly chunks: Buffer[] = [];
  rows = 0;
  row(values: (string | number | null)[]): void {
    const line = values.map(copyValue).join('\t') + '\n';
    this.parts.push(line);
    this.size += line.length;
    this.rows++;
    if (this.size > 1 << 20) this.flush();
  }
  flush(): void {
    if (this.parts.length === 0) return;
    this.chunks.push(Buffer.from(this.parts.join('')));
    this.parts = [];
    this.size = 0;
  }
}

function copyIn(client: pg.Client, sql: string, data: CopyText): Promise<void> {
  data.flush();
  return copyFrom(client, sql, data.chunks);
}

function toIso(iso: string | null): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

const json = (v: unknown) => JSON.stringify(v);

interface CopyData {
  task: CopyText;
  policy: CopyText;
  /** the raw sources in binary COPY format, as the import sends them (their gzip as bytes, not hex) */
  source: Buffer;
  trajectory: CopyText;
  step: CopyText;
  trajectories: number;
}

/** Tasks and policies already in the COPY project (by name -> id), so a later round's COPY does not create them again. */
interface CopySeen {
  tasks: Map<string, string>;
  policies: Map<string, string>;
}

/** Parses these files with the importer (untimed) and builds the COPY text of the rows the import writes. */
async function buildCopyData(files: string[], projectId: string, seen: CopySeen): Promise<CopyData> {
  const data: CopyData = {
    task: new CopyText(),
    policy: new CopyText(),
    source: Buffer.alloc(0),
    trajectory: new CopyText(),
    step: new CopyText(),
    trajectories: 0,
  };
  const { tasks, policies } = seen;
  const now = new Date().toISOString();
  const sources: BinaryField[][] = [];
  for await (const collected of collectInputs(files, { format: 'auto', maxBytes: 1 << 30, readStdin: async () => '' })) {
    if (!collected.ok || collected.input.kind !== 'file') throw new Error(`unexpected input ${collected.path}`);
    const source = await rawSource(collected.input, 'atif');
    const sourceId = newId();
    const sourceRow: BinaryField[] = [
      sourceId,
      projectId,
      source.sha256,
      source.path,
      source.format,
      { int4: source.sizeBytes },
      source.content,
      source.encoding,
      null,
    ];
    sources.push(sourceRow);
    let items = 0;
    for await (const item of getImporter('atif').parse(collected.input)) {
      if (!item.ok) throw new Error(`${collected.path}: ${item.message}`);
      const prepared: PreparedTrajectory = prepareTrajectory(item.trajectory, {});
      const t: Trajectory = prepared.trajectory;
      let taskId = tasks.get(t.task.name);
      if (!taskId) {
        taskId = newId();
        tasks.set(t.task.name, taskId);
        data.task.row([
          taskId,
          projectId,
          null,
          t.task.name,
          t.task.instruction,
          json(t.task.acceptanceCriteria),
          prepared.split,
          json(t.task.metadata),
          now,
          now,
        ]);
      }
      let policyId = policies.get(prepared.policyName);
      if (!policyId) {
        policyId = newId();
        policies.set(prepared.policyName, policyId);
        data.policy.row([policyId, projectId, prepared.policyName, t.policy.model, t.policy.checkpoint, t.policy.agent, now]);
      }
      const id = newId();
      data.trajectory.row([
        id,
        projectId,
        taskId,
        policyId,
        t.format,
        t.externalId,
        prepared.contentHash,
        t.steps.length,
        t.verifier?.reward ?? null,
        json(t.verifier?.components ?? {}),
        t.usage ? json(t.usage) : null,
        t.submission,
        t.exitStatus,
        toIso(t.startedAt),
        toIso(t.endedAt),
        json(t.metadata),
        null,
        now,
        sourceId,
        item.where,
      ]);
      for (const s of t.steps) {
        data.step.row([
          newId(),
          id,
          s.index,
          s.source,
          s.text,
          s.reasoning,
          json(s.toolCalls),
          json(s.observations),
          toIso(s.timestamp),
          s.castTime,
          s.usage ? json(s.usage) : null,
        ]);
      }
      data.trajectories++;
      items++;
    }
    sourceRow[8] = { int4: items }; // import_source.itemCount, as the import records it
  }
  data.source = binaryCopyData(sources);
  return data;
}

/** COPYs every table in one transaction; `committed` runs after COMMIT, while the connection (its backend's CPU) is still there. */
async function loadWithCopy<T>(url: string, data: CopyData, committed: () => T): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    await copyIn(
      client,
      'COPY "task" ("id","projectId","environmentId","name","instruction","acceptanceCriteria","split","metadata","createdAt","updatedAt") FROM STDIN',
      data.task,
    );
    await copyIn(client, 'COPY "policy" ("id","projectId","name","model","checkpoint","agent","createdAt") FROM STDIN', data.policy);
    await copyFrom(client, IMPORT_SOURCE_COPY, [data.source]);
    await copyIn(
      client,
      'COPY "trajectory" ("id","projectId","taskId","policyId","sourceFormat","externalId","contentHash","stepCount","verifierReward","verifierComponents","usage","submission","exitStatus","startedAt","endedAt","metadata","importedById","createdAt","sourceId","sourceWhere") FROM STDIN',
      data.trajectory,
    );
    await copyIn(
      client,
      'COPY "step" ("id","trajectoryId","index","source","text","reasoning","toolCalls","observations","timestamp","castTime","usage") FROM STDIN',
      data.step,
    );
    await client.query('COMMIT');
    return committed();
  } finally {
    await client.end();
  }
}

/** An md5 of everything a project holds about its trajectories, independent of generated ids and times. */
async function projectDigest(client: pg.Client, projectId: string): Promise<{ trajectories: number; steps: number; digest: string }> {
  const r = await client.query<{ trajectories: string; steps: string; digest: string }>(
    `WITH t AS (
       SELECT tr.id, tr."contentHash",
              concat_ws('|', tr."sourceFormat", tr."externalId", tr."stepCount", tr."verifierReward", tr."verifierComponents"::text, tr.usage::text,
                        tr.submission, tr."exitStatus", tr."startedAt", tr."endedAt", tr.metadata::text, tr."sourceWhere",
                        k.name, k.instruction, k."acceptanceCriteria"::text, k.split, k.metadata::text, k."environmentId" IS NULL,
                        p.name, p.model, p.checkpoint, p.agent, s.sha256, s.path, s.format, s."sizeBytes", md5(s.content), s."contentEncoding", s."itemCount") AS row
       FROM trajectory tr JOIN task k ON k.id = tr."taskId" JOIN policy p ON p.id = tr."policyId" LEFT JOIN import_source s ON s.id = tr."sourceId"
       WHERE tr."projectId" = $1)
     SELECT (SELECT count(*) FROM t) AS trajectories,
            (SELECT count(*) FROM step st JOIN t ON t.id = st."trajectoryId") AS steps,
            md5((SELECT string_agg(md5(t."contentHash" || t.row), ',' ORDER BY t."contentHash") FROM t)
                || (SELECT string_agg(md5(concat_ws('|', t."contentHash", st.index, st.source, st.text, st.reasoning, st."toolCalls"::text, st.observations::text,
                                                      st.timestamp, st."castTime", st.usage::text)), ',' ORDER BY t."contentHash", st.index)
                    FROM step st JOIN t ON t.id = st."trajectoryId")) AS digest`,
    [projectId],
  );
  const row = r.rows[0]!;
  return { trajectories: Number(row.trajectories), steps: Number(row.steps), digest: row.digest };
}

// ------------------------------------------------------------------ run

/** The import pipeline without the database: detect, keep the raw source (gzip), parse, validate, hash. */
async function parseOnly(dir: string): Promise<{ seconds: number; trajectories: number }> {
  const t0 = performance.now();
  let trajectories = 0;
  for await (const collected of collectInputs([dir], { format: 'auto', maxBytes: 1 << 30, readStdin: async () => '' })) {
    if (!collected.ok || collected.input.kind !== 'file') continue;
    const format = detectFormat(await probeFile(collected.input.file));
    if (!format) continue;
    await rawSource(collected.input, format);
    for await (const item of getImporter(format).parse(collected.input)) {
      if (item.ok) {
        prepareTrajectory(item.trajectory, {});
        trajectories++;
      }
    }
  }
  return { seconds: (performance.now() - t0) / 1000, trajectories };
}

const mib = (n: number) => n / 1024 / 1024;

export async function run(): Promise<BenchFigure[]> {
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const port = await freePort();
  const postgres = await startEmbeddedPostgres({ dataDir, port });
  const filesDir = await mkdtemp(path.join(tmpdir(), 'witness-bench-ingest-'));
  try {
    await migrateDatabase(postgres.url);
    // the server's Unix socket, as `witness import` connects to its embedded database (lib/db/connect-database.ts); COPY too
    setEnv('DATABASE_URL', postgres.socketUrl);

    const g0 = performance.now();
    const bytes = await writeDocuments(filesDir, COUNT);
    log(
      `generated ${COUNT} ATIF files (${STEPS} steps each, ${mib(bytes).toFixed(0)} MiB) in ${((performance.now() - g0) / 1000).toFixed(1)} s`,
    );

    // (a) the import, as `witness import` runs it (one import of every file), and (b) the same rows by COPY, in PASSES passes,
    // ABBA: pass 0 imports then COPYs, pass 1 COPYs then imports, each into fresh projects. On this shared machine the load
    // moves by minutes, and whatever runs second sees bigger tables and what the first left behind (the COPY data's retained
    // pages, a checkpoint due): both sides get each position once.
    const postmasterPid = postmasterPidOf(path.join(dataDir, 'pg'));
    const rssBefore = process.memoryUsage().rss;
    const parsePool = WORKERS > 0 ? new ParsePool(WORKERS) : undefined;
    const readAhead = READ_AHEAD ? new ReadAheadPool() : undefined;
    const profile: ImportProfile = { parseMs: 0, storeMs: 0, waitMs: 0, workerWaitMs: 0, batches: 0 };
    const inputs = () => collectInputs([filesDir], { format: 'auto', maxBytes: 1 << 30, readStdin: async () => '' });
    const pairs: { importProject: string; copyProject: string }[] = [];
    let importSeconds = 0;
    let copySeconds = 0;
    let copyRows = 0;
    let importCpu: CpuSample | null = null;
    let copyCpu: CpuSample | null = null;
    const loads: { import: string[]; copy: string[] } = { import: [], copy: [] };
    let imported = 0;
    let copied = 0;
    // the first import's peak RSS (the process fresh: nothing built before it), and its peak after the first fifth of the files
    let peak = 0;
    let peakAtFifth: number | null = null;
    let method = '';
    const importPass = async (pass: number, projectId: string) => {
      let items = 0;
      const onItem = pass === 0 ? () => void (++items === Math.round(COUNT / 5) && (peakAtFifth = vmHwmBytes())) : undefined;
      // what an earlier pass built (COPY data) is garbage by now: collected before the peak is reset and the clock starts
      collectGarbage();
      loads.import.push(loadAverage());
      const cpu0 = cpuNow(postmasterPid);
      const t0 = performance.now();
      const run = await withPeakRss(() =>
        importTrajectories(inputs(), { projectId, format: 'auto', importedById: null, profile, parsePool, readAhead, onItem }),
      );
      importSeconds += (performance.now() - t0) / 1000;
      importCpu = addCpu(importCpu, cpuSince(cpu0, postmasterPid));
      if (pass === 0) {
        peak = run.peak;
        method = run.method;
      }
      const report = run.result;
      if (report.imported !== COUNT || report.failed !== 0)
        throw new Error(`import: ${report.imported} imported, ${report.failed} failed: ${JSON.stringify(report.errors.slice(0, 3))}`);
      imported += report.imported;
    };
    const copyPass = async (projectId: string) => {
      const data = await buildCopyData([filesDir], projectId, { tasks: new Map(), policies: new Map() });
      collectGarbage();
      loads.copy.push(loadAverage());
      const cpu0 = cpuNow(postmasterPid);
      const c0 = performance.now();
      const run = await loadWithCopy(postgres.socketUrl, data, () => ({
        seconds: (performance.now() - c0) / 1000,
        cpu: cpuSince(cpu0, postmasterPid),
      }));
      copySeconds += run.seconds;
      copyCpu = addCpu(copyCpu, run.cpu);
      copyRows += data.step.rows;
      copied += data.trajectories;
    };
    // the maintenance a phase's commits leave to autovacuum (vacuum and analyze of the rows it wrote) is done before the next
    // phase starts, untimed: otherwise the COPY's, due at its one commit, ran inside the import after it (2.3 s of CPU)
    const maintain = async () => {
      const c = new pg.Client({ connectionString: postgres.socketUrl });
      await c.connect();
      try {
        await c.query('VACUUM (ANALYZE) task, policy, import_source, trajectory, step');
      } finally {
        await c.end();
      }
    };
    for (let pass = 0; pass < PASSES; pass++) {
      const importProject = (await ensureProject({ slug: `bench-import-${pass}`, name: `bench-import-${pass}` })).id;
      const copyProject = (await ensureProject({ slug: `bench-copy-${pass}`, name: `bench-copy-${pass}` })).id;
      pairs.push({ importProject, copyProject });
      const [i0, c0] = [importSeconds, copySeconds];
      for (const phase of pass % 2 === 0 ? ['import', 'copy'] : ['copy', 'import']) {
        await (phase === 'import' ? importPass(pass, importProject) : copyPass(copyProject));
        await maintain();
      }
      log(
        `pass ${pass} (${pass % 2 === 0 ? 'import first' : 'COPY first'}): import ${(importSeconds - i0).toFixed(2)} s (${(COUNT / (importSeconds - i0)).toFixed(0)} traj/s), ` +
          `COPY ${(copySeconds - c0).toFixed(2)} s (${(COUNT / (copySeconds - c0)).toFixed(0)} traj/s): ${((copySeconds - c0) / (importSeconds - i0)).toFixed(2)}x`,
      );
    }
    const importRate = imported / importSeconds;
    log(
      `import, ${PASSES} imports of ${COUNT} files (load ${loads.import.join(', ')}): ${importSeconds.toFixed(2)} s (${importRate.toFixed(0)} traj/s); node-side parse/validate/hash/compress ${(profile.parseMs / 1000).toFixed(2)} s, ` +
        `database ${(profile.storeMs / 1000).toFixed(2)} s in ${profile.batches} batches, parse waited on the database ${(profile.waitMs / 1000).toFixed(2)} s, ` +
        `the writer waited on ${WORKERS} parse workers ${(profile.workerWaitMs / 1000).toFixed(2)} s; ` +
        `peak RSS of the first ${mib(peak).toFixed(0)} MiB (${method}; ${peakAtFifth === null ? '?' : mib(peakAtFifth).toFixed(0)} MiB over its first ${Math.round(COUNT / 5)} files; ${mib(rssBefore).toFixed(0)} MiB before)`,
    );
    log(`import ${cpuLine(importCpu!, importSeconds, imported)}`);
    const copyRate = copied / copySeconds;
    log(
      `COPY, ${PASSES} loads of the same rows (load ${loads.copy.join(', ')}): ${copySeconds.toFixed(2)} s (${copyRate.toFixed(0)} traj/s; ${copyRows} step rows); ${cpuLine(copyCpu!, copySeconds, copied)}`,
    );
    log(
      `CPU ceiling on ${availableParallelism()} idle cores: the import needs ${cpuPerFile(importCpu!, imported).toFixed(2)} ms of CPU a file (all threads and PostgreSQL), ` +
        `COPY's backend ${((1000 * copyCpu!.backends) / copied).toFixed(2)} ms: at best ${(
          copyCpu!.backends /
          copied /
          Math.max(cpuPerFile(importCpu!, imported) / 1000 / availableParallelism(), importCpu!.backends / imported)
        ).toFixed(2)}x COPY with every core busy all the time`,
    );
    // the re-imports go into the first pass's import project
    const reimportProject = pairs[0]!.importProject;
    let reimportRate: number | null = null;
    let parsedRate: number | null = null;
    let inlineRate: number | null = null;
    if (!COPY_ONLY) {
      // re-import: every file unchanged, skipped by its hash unparsed
      const reimportLoad = loadAverage();
      const cpu1 = cpuNow(postmasterPid);
      const r0 = performance.now();
      const again = await importTrajectories(inputs(), {
        projectId: reimportProject,
        format: 'auto',
        importedById: null,
        parsePool,
        readAhead,
      });
      const reimportSeconds = (performance.now() - r0) / 1000;
      const reimportCpu = cpuSince(cpu1, postmasterPid);
      if (again.skipped !== COUNT || again.imported !== 0 || again.unchangedFiles !== COUNT)
        throw new Error(`re-import: ${again.imported} imported, ${again.skipped} skipped, ${again.unchangedFiles} files unchanged`);
      reimportRate = COUNT / reimportSeconds;
      log(
        `re-import, unchanged files skipped unparsed (load ${reimportLoad}): ${reimportSeconds.toFixed(2)} s (${reimportRate.toFixed(0)} traj/s); ${cpuLine(reimportCpu, reimportSeconds)}`,
      );

      // the re-import as it was before files were skipped by hash: every file parsed and each trajectory found by its content hash
      {
        const c = new pg.Client({ connectionString: postgres.socketUrl });
        await c.connect();
        await c.query(`UPDATE import_source SET "itemCount" = NULL WHERE "projectId" = $1`, [reimportProject]);
        await c.end();
      }
      const parsedLoad = loadAverage();
      const p0 = performance.now();
      const parsedAgain = await importTrajectories(inputs(), {
        projectId: reimportProject,
        format: 'auto',
        importedById: null,
        parsePool,
        readAhead,
      });
      const parsedSeconds = (performance.now() - p0) / 1000;
      if (parsedAgain.skipped !== COUNT || parsedAgain.unchangedFiles !== 0)
        throw new Error(`re-import parsing every file: ${parsedAgain.skipped} skipped, ${parsedAgain.unchangedFiles} unchanged`);
      parsedRate = COUNT / parsedSeconds;
      log(`re-import parsing every file (load ${parsedLoad}): ${parsedSeconds.toFixed(2)} s (${parsedRate.toFixed(0)} traj/s)`);

      // the same import on the main thread alone (no parse workers), into its own project: the change's own comparator
      if (WORKERS > 0) {
        const inlineProject = await ensureProject({ slug: 'bench-inline', name: 'bench-inline' });
        const inlineProfile: ImportProfile = { parseMs: 0, storeMs: 0, waitMs: 0, workerWaitMs: 0, batches: 0 };
        const inlineLoad = loadAverage();
        const i0 = performance.now();
        const inline = await importTrajectories(inputs(), {
          projectId: inlineProject.id,
          format: 'auto',
          importedById: null,
          profile: inlineProfile,
        });
        const inlineSeconds = (performance.now() - i0) / 1000;
        if (inline.imported !== COUNT) throw new Error(`inline import: ${inline.imported} imported`);
        inlineRate = COUNT / inlineSeconds;
        log(
          `import without parse workers (load ${inlineLoad}): ${inlineSeconds.toFixed(2)} s (${inlineRate.toFixed(0)} traj/s); parse ${(inlineProfile.parseMs / 1000).toFixed(2)} s, ` +
            `database ${(inlineProfile.storeMs / 1000).toFixed(2)} s, parse waited on the database ${(inlineProfile.waitMs / 1000).toFixed(2)} s`,
        );
      }

      const parse = await parseOnly(filesDir);
      log(`parse-only pass (no database): ${parse.seconds.toFixed(2)} s (${(parse.trajectories / parse.seconds).toFixed(0)} traj/s)`);
    }
    await parsePool?.close();
    await readAhead?.close();

    const client = new pg.Client({ connectionString: postgres.socketUrl });
    await client.connect();
    try {
      for (const [pass, pair] of pairs.entries()) {
        const [a, b] = [await projectDigest(client, pair.importProject), await projectDigest(client, pair.copyProject)];
        if (a.trajectories !== COUNT || a.digest !== b.digest || a.steps !== b.steps) {
          throw new Error(`pass ${pass}: the import and COPY wrote different data: ${JSON.stringify({ import: a, copy: b })}`);
        }
        log(`pass ${pass}: import and COPY wrote the same data (${a.trajectories} trajectories, ${a.steps} steps, md5 ${a.digest})`);
      }
    } finally {
      await client.end();
    }

    return [
      {
        group: GROUP,
        name: `import ${COUNT} ATIF trajectories (~${STEPS} steps) vs the same rows by COPY`,
        value: importRate,
        unit: 'traj/s',
        higherIsBetter: true,
        comparator: { name: 'COPY', value: copyRate },
        goal: '>= 0.8x COPY',
      },
      ...(inlineRate !== null
        ? [
            {
              group: GROUP,
              name: `import on ${WORKERS} parse workers vs on the main thread alone`,
              value: importRate,
              unit: 'traj/s',
              higherIsBetter: true,
              comparator: { name: 'no workers', value: inlineRate },
            },
          ]
        : []),
      // flat in the number of files: the first import's peak (nothing built in this process before it) beside its peak after a fifth of the files
      {
        group: GROUP,
        name: `import peak RSS over ${COUNT} files vs over the first ${Math.round(COUNT / 5)}`,
        value: mib(peak),
        unit: 'MiB',
        higherIsBetter: false,
        ...(peakAtFifth !== null ? { comparator: { name: `${Math.round(COUNT / 5)} files`, value: mib(peakAtFifth) } } : {}),
        goal: 'flat (1.00x)',
      },
      ...(reimportRate !== null && parsedRate !== null
        ? [
            {
              group: GROUP,
              name: 're-import of the same files (unchanged, skipped by hash) vs the first import',
              value: reimportRate,
              unit: 'traj/s',
              higherIsBetter: true,
              comparator: { name: 'first import', value: importRate },
            },
            {
              group: GROUP,
              name: 're-import of the same files: skipped by hash vs parsing every file (395 traj/s quiet before)',
              value: reimportRate,
              unit: 'traj/s',
              higherIsBetter: true,
              comparator: { name: 'parsing every file', value: parsedRate },
              goal: '>= 2x',
            },
          ]
        : []),
    ];
  } finally {
    await closeTrajectoryBatchPool();
    await disconnectDb();
    await postgres.stop();
    await rm(filesDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}
