import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { toStorable, type RawSource, type StorableTrajectory } from '../db/trajectories/storable-trajectory';
import { storeTrajectoryBatch } from '../db/trajectories/store-trajectory-batch';
import { AppError } from '../errors';
import { detectFormat } from '../formats/detect';
import type { ImportInput, SourceFile } from '../formats/importer';
import { getImporter } from '../formats/registry';
import { probeDir, probeFile } from '../formats/source';
import type { FormatName } from '../formats/trajectory';
import type { CollectedInput } from './collect-inputs';
import { prepareTrajectory, type ImportOverrides } from './prepare-trajectory';
import type { ParsePool } from './parse-pool';
import { rawSource } from './raw-source';

export interface ImportedTrajectory {
  id: string;
  format: FormatName;
  steps: number;
  task: string;
  policy: string;
  /** false when the same content was already in the project */
  created: boolean;
}

export interface ImportError {
  path: string;
  where: string;
  message: string;
}

/** The report of `witness import --json` and POST /api/v1/trajectories (same code). */
export interface ImportReport {
  imported: number;
  skipped: number;
  failed: number;
  trajectories: ImportedTrajectory[];
  errors: ImportError[];
}

/** Where an import's time went (milliseconds), for benchmarks; filled in when passed. */
export interface ImportProfile {
  /** reading, detecting, parsing, validating, hashing and shaping rows (the Node side) */
  parseMs: number;
  /** the database writes (wall time, overlapping the parsing of the next batch) */
  storeMs: number;
  /** how long the parsing waited for the previous batch to be stored */
  waitMs: number;
  /** with parse workers: how long the main thread (which feeds the database) waited for their next result */
  workerWaitMs: number;
  batches: number;
}

export interface ImportOptions extends ImportOverrides {
  /** the project, or how to get it: called once, when the first trajectory is ready to store (an import that stores nothing creates no project) */
  projectId: string | (() => Promise<string>);
  format: FormatName | 'auto';
  importedById: string | null;
  /** called after each item (progress for the CLI), in input order, once its batch is stored */
  onItem?: (item: { ok: true; trajectory: ImportedTrajectory } | { ok: false; error: ImportError }) => void;
  profile?: ImportProfile;
  /**
   * Parse on these worker threads (lib/ingest/parse-pool.ts; the caller makes and closes it):
   * small files are read, detected, parsed, validated, hashed and compressed there, in
   * parallel, while this thread only batches and writes. Without one, parsing runs here. The CLI
   * makes one a core; the web server none (this module never imports the pool, so the server's
   * bundle does not trace the TypeScript loader its workers start with).
   */
  parsePool?: ParsePool;
}

/** A batch is stored when it holds this many items or about this many bytes of rows. */
const BATCH_ITEMS = 250;
const BATCH_BYTES = 16 * 1024 * 1024;
/** Files up to this size are read once and kept in memory while imported; larger ones are streamed. */
export const IN_MEMORY_BYTES = 8 * 1024 * 1024;
const READ_AHEAD = 16;
const READ_AHEAD_BYTES = 32 * 1024 * 1024;

const gzipAsync = promisify(gzip);

export type Slot =
  | { ok: false; error: ImportError }
  | { ok: true; path: string; where: string; storable: StorableTrajectory; meta: Omit<ImportedTrajectory, 'id' | 'created'> };

/**
 * Imports every collected input: detects the format from content (unless forced), parses, and
 * stores the trajectories. A bad file or item is reported with where and what, and never stops
 * the others or leaves anything half-written.
 *
 * Throughput: parsed trajectories are shaped into rows and stored in batches (BATCH_ITEMS or
 * BATCH_BYTES) by lib/db/trajectories/store-trajectory-batch.ts, one transaction a batch, each trajectory still
 * all-or-nothing (a failing batch is split until only the bad item fails; see that file). While
 * a batch is written, the next one is parsed; at most two batches are held, so memory stays
 * bounded whatever the number of files. Small files are read once (detection, the raw source's
 * hash and gzip, which runs off the main thread, and parsing share the bytes); large ones stream.
 * The report and `onItem` keep input order.
 */
export async function importTrajectories(
  inputs: AsyncIterable<CollectedInput> | Iterable<CollectedInput>,
  options: ImportOptions,
): Promise<ImportReport> {
  const report: ImportReport = { imported: 0, skipped: 0, failed: 0, trajectories: [], errors: [] };
  const profile = options.profile;
  const started = performance.now();
  let waited = 0;
  let workerWaited = 0;

  const fail = (error: ImportError) => {
    report.failed++;
    report.errors.push(error);
    options.onItem?.({ ok: false, error });
  };

  let projectId: Promise<string> | undefined;
  const project = () => (projectId ??= typeof options.projectId === 'string' ? Promise.resolve(options.projectId) : options.projectId());

  const settle = async (batch: Slot[]) => {
    const storables: StorableTrajectory[] = [];
    for (const slot of batch) if (slot.ok) storables.push(slot.storable);
    const t0 = performance.now();
    const outcomes = storables.length > 0 ? await storeTrajectoryBatch(await project(), storables) : [];
    if (profile && storables.length > 0) {
      profile.storeMs += performance.now() - t0;
      profile.batches++;
    }
    let k = 0;
    for (const slot of batch) {
      if (!slot.ok) {
        fail(slot.error);
        continue;
      }
      const outcome = outcomes[k++]!;
      if (outcome.ok) {
        const imported: ImportedTrajectory = { id: outcome.id, ...slot.meta, created: outcome.created };
        if (outcome.created) report.imported++;
        else report.skipped++;
        report.trajectories.push(imported);
        options.onItem?.({ ok: true, trajectory: imported });
      } else {
        const error = outcome.error;
        if (!(error instanceof AppError)) console.error(`[import] ${slot.path} ${slot.where}:`, error);
        fail({
          path: slot.path,
          where: slot.where,
          message: error instanceof AppError ? error.message : 'could not store this trajectory (database error; see server log)',
        });
      }
    }
  };

  let pending: Slot[] = [];
  let pendingItems = 0;
  let pendingBytes = 0;
  let inflight: Promise<void> = Promise.resolve();
  const flush = async () => {
    const batch = pending;
    pending = [];
    pendingItems = 0;
    pendingBytes = 0;
    const t0 = performance.now();
    await inflight; // one batch in the database at a time: order and dedupe across batches hold
    waited += performance.now() - t0;
    inflight = settle(batch);
    inflight.catch(() => {}); // observed at the next flush
  };
  const push = async (slot: Slot, bytes = 0) => {
    pending.push(slot);
    pendingItems++;
    pendingBytes += bytes;
    if (pendingItems >= BATCH_ITEMS || pendingBytes >= BATCH_BYTES) await flush();
  };

  try {
    if (options.parsePool) {
      for await (const next of options.parsePool.inOrder(inputs, options)) {
        if (next.kind === 'inline') {
          for await (const { slot, bytes } of parseCollected(next.collected, null, options)) await push(slot, bytes);
          continue;
        }
        const t0 = performance.now();
        const result = await next.result;
        workerWaited += performance.now() - t0;
        for (const { slot, bytes } of result) await push(slot, bytes);
      }
    } else {
      for await (const { collected, read } of readAhead(inputs)) {
        for await (const { slot, bytes } of parseCollected(collected, read, options)) await push(slot, bytes);
      }
    }
    await flush();
  } finally {
    const t0 = performance.now();
    await inflight.catch(() => {});
    waited += performance.now() - t0;
  }
  await inflight; // rethrows what an onItem callback threw
  if (profile) {
    profile.waitMs += waited;
    profile.workerWaitMs += workerWaited;
    profile.parseMs += performance.now() - started - waited - workerWaited;
  }
  return report;
}

/** One slot of the report, in input order, with about how many bytes it sends. */
export interface ParsedSlot {
  slot: Slot;
  bytes: number;
}

/**
 * Everything an import does to one input before storing it (the same here and on a parse
 * worker): detect its format, parse, validate, keep its raw source (hash + gzip), hash and
 * shape each trajectory into rows. Yields one slot a trajectory or error, in order.
 */
export async function* parseCollected(
  collected: CollectedInput,
  read: ReadAhead | null,
  options: Pick<ImportOptions, 'format' | 'importedById' | keyof ImportOverrides>,
): AsyncIterable<ParsedSlot> {
  const pushError = (error: ImportError): ParsedSlot => ({ slot: { ok: false, error }, bytes: 0 });
  if (!collected.ok) {
    yield pushError({ path: collected.path, where: collected.where, message: collected.message });
    return;
  }
  const kindWhere = collected.input.kind === 'dir' ? 'directory' : 'file';
  if (collected.input.kind === 'file' && collected.input.file.size === 0) {
    yield pushError({ path: collected.path, where: 'file', message: 'empty file: nothing to import' });
    return;
  }
  let input = collected.input;
  let format: FormatName | null;
  try {
    if (read && input.kind === 'file') {
      if (read.error) throw read.error;
      input = { kind: 'file', file: inMemory(input.file, read.bytes) };
    }
    format = options.format === 'auto' ? await detect(input) : options.format;
  } catch (error) {
    yield pushError({ path: collected.path, where: kindWhere, message: `unreadable: ${(error as Error).message}` });
    return;
  }
  if (!format) {
    yield pushError({ path: collected.path, where: kindWhere, message: unknownFormatMessage(input) });
    return;
  }
  try {
    // the raw source's gzip runs on the thread pool while this thread parses
    const sourcePromise = read && input.kind === 'file' ? rawSourceOfRead(input.file.path, format, read) : rawSource(input, format);
    sourcePromise.catch(() => {});
    let source: RawSource | null = null;
    let sourceBytes = 0;
    for await (const item of getImporter(format).parse(input)) {
      if (!item.ok) {
        // importers often start the message with the pointer that `where` already gives
        const message = item.message.startsWith(`${item.where}: `) ? item.message.slice(item.where.length + 2) : item.message;
        yield pushError({ path: collected.path, where: item.where, message });
        continue;
      }
      if (!source) {
        source = await sourcePromise;
        sourceBytes = source.gzipped.byteLength * 1.4;
      }
      let slot: Slot;
      try {
        const prepared = prepareTrajectory(item.trajectory, options);
        const storable = await toStorable(prepared, { source, sourceWhere: item.where, importedById: options.importedById });
        slot = {
          ok: true,
          path: collected.path,
          where: item.where,
          storable,
          meta: { format, steps: item.trajectory.steps.length, task: item.trajectory.task.name, policy: prepared.policyName },
        };
      } catch (error) {
        if (!(error instanceof AppError)) console.error(`[import] ${collected.path} ${item.where}:`, error);
        yield pushError({
          path: collected.path,
          where: item.where,
          message: error instanceof AppError ? error.message : 'could not store this trajectory (see server log)',
        });
        continue;
      }
      yield { slot, bytes: slot.storable.bytes + sourceBytes };
      sourceBytes = 0; // the file's raw source travels once
    }
    if (!source) await sourcePromise; // a file of only bad items: surface a read error like any other
  } catch (error) {
    yield pushError({ path: collected.path, where: kindWhere, message: `unreadable as ${format}: ${(error as Error).message}` });
  }
}

/** A small file read ahead: its bytes, and the gzip of its raw source under way on the thread pool. */
export interface ReadAhead {
  bytes: Uint8Array;
  gzipped: Promise<Buffer>;
  error?: Error;
}

/**
 * Yields the inputs in order while reading the next small files (and compressing their raw
 * sources) ahead, so the parsing never waits on the disk: up to READ_AHEAD files, READ_AHEAD_BYTES.
 */
async function* readAhead(
  inputs: AsyncIterable<CollectedInput> | Iterable<CollectedInput>,
): AsyncIterable<{ collected: CollectedInput; read: ReadAhead | null }> {
  const queue: { size: number; next: Promise<{ collected: CollectedInput; read: ReadAhead | null }> }[] = [];
  let queued = 0;
  const take = async () => {
    const head = queue.shift()!;
    queued -= head.size;
    return head.next;
  };
  for await (const collected of inputs) {
    const size = collected.ok && collected.input.kind === 'file' ? collected.input.file.size : 0;
    if (!collected.ok || collected.input.kind !== 'file' || size === 0 || size > IN_MEMORY_BYTES) {
      queue.push({ size: 0, next: Promise.resolve({ collected, read: null }) });
    } else {
      const next = readSmallFile(collected.input.file).then((read) => ({ collected, read }));
      queue.push({ size, next });
      queued += size;
    }
    while (queue.length > READ_AHEAD || queued > READ_AHEAD_BYTES) yield await take();
  }
  while (queue.length > 0) yield await take();
}

/** Reads a small file whole and starts the gzip of its raw source on the thread pool. */
export function readSmallFile(file: SourceFile): Promise<ReadAhead> {
  return file.readBytes().then(
    (bytes) => {
      const gzipped = gzipAsync(bytes, { level: 1 }); // same level as raw-source.ts
      gzipped.catch(() => {});
      return { bytes, gzipped };
    },
    (error: Error) => ({ bytes: new Uint8Array(0), gzipped: Promise.resolve(Buffer.alloc(0)), error }),
  );
}

/** The raw source of a file read ahead: the same hash and gzip as rawSource streams. */
async function rawSourceOfRead(path: string, format: string, read: ReadAhead): Promise<RawSource> {
  const sha256 = createHash('sha256').update(read.bytes).digest('hex');
  return { sha256, path, format, sizeBytes: read.bytes.byteLength, gzipped: await read.gzipped };
}

/** A small file held in memory: read once, and read the same way as from disk. */
function inMemory(file: SourceFile, bytes: Uint8Array): SourceFile {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    path: file.path,
    size: bytes.byteLength,
    readText: async () => buffer.toString('utf8'),
    readBytes: async () => bytes,
    head: async (n) => bytes.subarray(0, n),
    chunks: async function* () {
      yield bytes;
    },
    // line splitting stays the file's own (readline's rules)
    lines: () => file.lines(),
  };
}

async function detect(input: ImportInput): Promise<FormatName | null> {
  const probe = input.kind === 'file' ? await probeFile(input.file) : await probeDir(input.dir);
  return detectFormat(probe);
}

function unknownFormatMessage(input: ImportInput): string {
  return input.kind === 'dir'
    ? 'not a recognised trajectory directory (expected a Harbor trial or job, a Terminal-Bench run or trial, or a tau2 run); pass --format to force one'
    : 'format not recognised from its content (expected Harbor/ATIF, asciinema, Inspect, SWE-agent, mini-swe-agent, tau-bench, tau2, Claude Code, Codex CLI, Cline, OpenAI or Anthropic); pass --format to force one';
}
