import { createHash } from 'node:crypto';
import { readFile as readFileCallbackStyle } from 'node:fs';
import { setImmediate as ioTurn } from 'node:timers/promises';
import { promisify } from 'node:util';
import { toStorable, type RawSource, type StorableTrajectory } from './queries/storable-trajectory';
import { storeTrajectoryBatch } from './queries/store-trajectory-batch';
import { markSourcesComplete, unchangedSources, type UnchangedSource } from './queries/unchanged-sources';
import { AppError } from '../errors';
import { detectFormat } from '../formats/detect';
import { PROBE_BYTES, type ImportInput, type SourceFile } from '../formats/importer';
import { getImporter } from '../formats/registry';
import { probeDir, probeFile } from '../formats/source';
import type { FormatName } from '../formats/trajectory';
import type { CollectedInput } from './collect-inputs';
import { prepareTrajectory, type ImportOverrides } from './prepare-trajectory';
import type { ParsePool } from './parse-pool';
import { rawSource } from './raw-source';
import { compressRawSource, RAW_SOURCE_ENCODING } from './raw-source-codec';

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
  /**
   * files skipped unparsed because the same bytes were imported completely into the project
   * before; their trajectories are listed (created: false) and counted in `skipped`
   */
  unchangedFiles: number;
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
  /**
   * With `projectId` a function: the project's id if it exists already, without creating it.
   * Files whose bytes were imported completely into the project before are then skipped
   * unparsed (`unchangedSources`); without it (and `projectId` a function) every file is parsed.
   */
  existingProjectId?: () => Promise<string | null>;
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
  /**
   * Read, hash and compress small files on this worker while this thread parses
   * (lib/ingest/read-ahead-pool.ts; the caller makes and closes it): used where parsing runs
   * here, on the files a parse pool does not take. Without one, those run here too.
   */
  readAhead?: ReadAheadService;
  /**
   * Parses an input elsewhere (the web process: a large request body on its parse thread,
   * lib/ingest/body-parse-thread.ts, so the event loop keeps answering): its slots, or null to
   * parse it inline. Same slots as `parseCollected`.
   */
  parseFile?: (
    collected: CollectedInput,
    read: ReadAhead | null,
    options: Pick<ImportOptions, 'format' | 'importedById' | keyof ImportOverrides>,
  ) => Promise<ParsedSlot[]> | null;
}

/** A chunk of files read ahead off this thread: `compress(which)` then asks for the raw sources of those (indices into `reads`) as each read's `compressed`, and lets the others go. */
export interface ReadAheadChunk {
  reads: ReadAhead[];
  compress: (which: number[]) => void;
}

/** Reads and hashes small files on disk off the importing thread, and compresses the raw sources it then asks for (lib/ingest/read-ahead-pool.ts). */
export interface ReadAheadService {
  read(paths: string[]): Promise<ReadAheadChunk>;
}

/** A batch is stored when it holds this many items or about this many bytes of rows. */
const BATCH_ITEMS = 250;
const BATCH_BYTES = 16 * 1024 * 1024;
/** Files up to this size are read once and kept in memory while imported; larger ones are streamed. */
export const IN_MEMORY_BYTES = 8 * 1024 * 1024;
/** Inputs read (and hashed) ahead of the parsing, and looked up as one chunk: this many, or about this many bytes. */
const CHUNK_FILES = 128;
const CHUNK_BYTES = 16 * 1024 * 1024;

const readFileCallback = promisify(readFileCallbackStyle);

export type Slot =
  | { ok: false; error: ImportError }
  | { ok: true; path: string; where: string; storable: StorableTrajectory; meta: Omit<ImportedTrajectory, 'id' | 'created'> };

/** One input, read and hashed ahead of the parsing (when it is a file), or found unchanged. */
export interface PreparedInput {
  collected: CollectedInput;
  /** a small file's bytes and their hash */
  read: ReadAhead | null;
  /** the same bytes were imported completely before: their trajectories, not parsed again */
  unchanged: ImportedTrajectory[] | null;
}

/** A parsed file's slots on their way to the database: whether every one of them was stored. */
interface FileTrack {
  /** the raw source's hash of a file (a directory's sources are never skipped, so never marked) */
  sha256: string | null;
  items: number;
  unsettled: number;
  failed: boolean;
  closed: boolean;
}

type Entry = { slot: Slot; file: FileTrack } | { unchanged: ImportedTrajectory[] };

/**
 * Imports every collected input: detects the format from content (unless forced), parses, and
 * stores the trajectories. A bad file or item is reported with where and what, and never stops
 * the others or leaves anything half-written.
 *
 * Unchanged files: each file is read and hashed (sha256 of its bytes, the raw source's hash)
 * before it is parsed, a chunk of files at a time, and the chunk's hashes looked up in one
 * statement. A file whose bytes were imported completely into the project before (every one of
 * its trajectories stored, and all still there; read as the same format) is not parsed nor
 * validated again: its stored trajectories are reported as skipped, and it counts in
 * `unchangedFiles`. A file whose earlier import failed or stored only part of it, or whose bytes
 * differ, is imported as usual; after a file's last trajectory is stored with none failing, its
 * source records how many it holds (`markSourcesComplete`). Directories are always parsed.
 *
 * Throughput: parsed trajectories are shaped into rows and stored in batches (BATCH_ITEMS or
 * BATCH_BYTES) by lib/ingest/queries/store-trajectory-batch.ts, one transaction a batch, each trajectory still
 * all-or-nothing (a failing batch is split until only the bad item fails; see that file). While
 * a batch is written, the next one is parsed; at most two batches are held, so memory stays
 * bounded whatever the number of files. Small files are read once (hashing, detection, the raw
 * source's compression and parsing share the bytes); large ones stream.
 * The report and `onItem` keep input order.
 */
export async function importTrajectories(
  inputs: AsyncIterable<CollectedInput> | Iterable<CollectedInput>,
  options: ImportOptions,
): Promise<ImportReport> {
  const report: ImportReport = { imported: 0, skipped: 0, failed: 0, unchangedFiles: 0, trajectories: [], errors: [] };
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
  let knownProjectId: string | null = typeof options.projectId === 'string' ? options.projectId : null;
  const project = () =>
    (projectId ??= (typeof options.projectId === 'string' ? Promise.resolve(options.projectId) : options.projectId()).then(
      (id) => (knownProjectId = id),
    ));
  // the project to look unchanged files up in: known, or found without creating it (once), or made by this import since
  let looked: Promise<string | null> | undefined;
  const lookupProject = async (): Promise<string | null> =>
    knownProjectId ?? (await (looked ??= options.existingProjectId?.() ?? Promise.resolve(null))) ?? knownProjectId;

  // files whose every trajectory is stored, to record on their sources
  let complete: { sha256: string; items: number }[] = [];
  const closeIfDone = (file: FileTrack) => {
    if (file.closed && file.unsettled === 0 && !file.failed && file.items > 0 && file.sha256 !== null) {
      complete.push({ sha256: file.sha256, items: file.items });
      file.sha256 = null; // once
    }
  };
  // recorded off the batch chain (on another connection, after the batch's commit), so the next batch need not wait for it;
  // one at a time, in order, and all of them before the import returns
  let recording: Promise<void> = Promise.resolve();
  const recordComplete = (): Promise<void> => {
    if (complete.length === 0) return recording;
    const files = complete;
    complete = [];
    recording = recording.then(async () => {
      try {
        await markSourcesComplete(await project(), files);
      } catch (error) {
        // everything is stored; only the next re-import of these files parses them again
        console.error('[import] could not record the completely imported files (a re-import will parse them again):', error);
      }
    });
    return recording;
  };

  const settle = async (batch: Entry[]) => {
    const storables: StorableTrajectory[] = [];
    for (const entry of batch) if ('slot' in entry && entry.slot.ok) storables.push(entry.slot.storable);
    const t0 = performance.now();
    const outcomes = storables.length > 0 ? await storeTrajectoryBatch(await project(), storables) : [];
    if (profile && storables.length > 0) {
      profile.storeMs += performance.now() - t0;
      profile.batches++;
    }
    let k = 0;
    for (const entry of batch) {
      if (!('slot' in entry)) {
        report.unchangedFiles++;
        for (const trajectory of entry.unchanged) {
          report.skipped++;
          report.trajectories.push(trajectory);
          options.onItem?.({ ok: true, trajectory });
        }
        continue;
      }
      const { slot, file } = entry;
      file.unsettled--;
      if (!slot.ok) {
        file.failed = true;
        fail(slot.error);
        closeIfDone(file);
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
        file.failed = true;
        const error = outcome.error;
        if (!(error instanceof AppError)) console.error(`[import] ${slot.path} ${slot.where}:`, error);
        fail({
          path: slot.path,
          where: slot.where,
          message: error instanceof AppError ? error.message : 'could not store this trajectory (database error; see server log)',
        });
      }
      closeIfDone(file);
    }
    void recordComplete();
  };

  let pending: Entry[] = [];
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
  const push = async (entry: Entry, bytes = 0) => {
    pending.push(entry);
    pendingItems += 'slot' in entry ? 1 : Math.max(1, entry.unchanged.length);
    pendingBytes += bytes;
    if (pendingItems >= BATCH_ITEMS || pendingBytes >= BATCH_BYTES) await flush();
    // Parsing runs on promises that are already settled (files read ahead, a chunk at a time), so
    // without this turn of the event loop the batch in the database got its replies only when the
    // parsing next waited on a read: each of its ~10 round trips sat behind up to a chunk of files.
    await ioTurn();
  };
  const pushFile = async (isFile: boolean, slots: AsyncIterable<ParsedSlot> | ParsedSlot[]) => {
    const file: FileTrack = { sha256: null, items: 0, unsettled: 0, failed: false, closed: false };
    // a whole file parsed (a worker's answer) with every item valid: its source row records its count as it is written
    if (isFile && Array.isArray(slots) && slots.length > 0 && slots.every((p) => p.slot.ok)) {
      for (const { slot } of slots) if (slot.ok && slot.storable.source) slot.storable.source.itemCount = slots.length;
    }
    for await (const { slot, bytes } of slots) {
      file.unsettled++;
      if (slot.ok) {
        file.items++;
        if (isFile) file.sha256 ??= slot.storable.source?.sha256 ?? null;
      }
      await push({ slot, file }, bytes);
    }
    file.closed = true;
    closeIfDone(file);
  };
  const inline = async (prepared: PreparedInput) => {
    if (prepared.unchanged) {
      await push({ unchanged: prepared.unchanged });
      return;
    }
    const elsewhere = options.parseFile?.(prepared.collected, prepared.read, {
      format: options.format,
      importedById: options.importedById,
      environment: options.environment,
      policy: options.policy,
      split: options.split,
    });
    await pushFile(
      prepared.collected.ok && prepared.collected.input.kind === 'file',
      elsewhere ? await elsewhere : parseCollected(prepared.collected, prepared.read, options),
    );
  };

  try {
    const prepared = prepareInputs(
      inputs,
      options.format,
      lookupProject,
      // a parse worker compresses what it parses: the read-ahead worker serves inline parsing only
      options.parsePool ? undefined : options.readAhead,
    );
    if (options.parsePool) {
      for await (const next of options.parsePool.inOrder(prepared, options)) {
        if (next.kind === 'inline') {
          await inline(next.prepared);
          continue;
        }
        const t0 = performance.now();
        const result = await next.result;
        workerWaited += performance.now() - t0;
        await pushFile(true, result);
      }
    } else {
      for await (const next of prepared) await inline(next);
    }
    await flush();
  } finally {
    const t0 = performance.now();
    await inflight.catch(() => {});
    waited += performance.now() - t0;
    await recording; // never rejects: nothing is left writing after the import returns or throws
  }
  await inflight; // rethrows what an onItem callback threw
  await recordComplete();
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
 * worker): detect its format, parse, validate, keep its raw source (hash + compression), hash and
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
        sourceBytes = source.content.byteLength * 1.4;
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

/** A small file read ahead: its bytes and their sha256 (the raw source's hash). */
export interface ReadAhead {
  bytes: Uint8Array;
  sha256: string;
  error?: Error;
  /** the raw source, compressed off this thread (a read-ahead worker); compressed where it is parsed when absent or failed */
  compressed?: Promise<Buffer>;
}

/**
 * Reads a small file whole and hashes it. A file on disk is read with fs.readFile's callback
 * form (a third of fs/promises' CPU a file); the hash is computed here, synchronously (~30 µs
 * for 40 KiB, against ~100 µs of CPU for WebCrypto's digest on the thread pool).
 */
export async function readSmallFile(file: SourceFile): Promise<ReadAhead> {
  try {
    const bytes = file.diskPath ? await readFileCallback(file.diskPath) : await file.readBytes();
    return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  } catch (error) {
    return { bytes: new Uint8Array(0), sha256: '', error: error as Error };
  }
}

/** A large file's sha256, streamed (the same hash rawSource computes), or null when it cannot be read (the parse reports that). */
async function streamedSha256(file: SourceFile): Promise<string | null> {
  try {
    const hash = createHash('sha256');
    for await (const chunk of file.chunks()) hash.update(chunk);
    return hash.digest('hex');
  } catch {
    return null;
  }
}

/**
 * Yields the inputs in order, each file read (small ones) or hashed (large ones) ahead of the
 * parsing, a chunk at a time (CHUNK_FILES, CHUNK_BYTES), the next chunk read while the current
 * one is parsed; each chunk's hashes are looked up in one statement, and a file imported
 * completely before (same bytes, same format) comes with its stored trajectories instead.
 */
export async function* prepareInputs(
  inputs: AsyncIterable<CollectedInput> | Iterable<CollectedInput>,
  format: FormatName | 'auto',
  lookupProject: () => Promise<string | null>,
  readAhead?: ReadAheadService,
): AsyncIterable<PreparedInput> {
  const iterator = Symbol.asyncIterator in inputs ? inputs[Symbol.asyncIterator]() : toAsync(inputs[Symbol.iterator]());
  let done = false;
  const takeChunk = async (): Promise<PreparedInput[]> => {
    const chunk: { collected: CollectedInput; read: Promise<ReadAhead> | null; sha256: Promise<string | null> | null }[] = [];
    // small files on disk, read on the read-ahead worker as one request once the chunk is collected
    const offThread: { at: number; file: SourceFile & { diskPath: string } }[] = [];
    let bytes = 0;
    while (!done && chunk.length < CHUNK_FILES && bytes < CHUNK_BYTES) {
      const next = await iterator.next();
      if (next.done) {
        done = true;
        break;
      }
      const collected = next.value;
      const file = collected.ok && collected.input.kind === 'file' ? collected.input.file : null;
      if (readAhead && file?.diskPath && file.size > 0 && file.size <= IN_MEMORY_BYTES) {
        offThread.push({ at: chunk.length, file: { ...file, diskPath: file.diskPath } });
        chunk.push({ collected, read: null, sha256: null });
        bytes += file.size;
      } else if (file && file.size > 0 && file.size <= IN_MEMORY_BYTES) {
        const read = readSmallFile(file);
        chunk.push({ collected, read, sha256: read.then((r) => (r.error ? null : r.sha256)) });
        bytes += file.size;
      } else if (file && file.size > IN_MEMORY_BYTES) chunk.push({ collected, read: null, sha256: streamedSha256(file) });
      else chunk.push({ collected, read: null, sha256: null });
    }
    let offRead: ReadAheadChunk | null = null;
    if (readAhead && offThread.length > 0) {
      try {
        offRead = await readAhead.read(offThread.map((o) => o.file.diskPath));
      } catch {
        // the worker is gone: this chunk is read here
      }
      offThread.forEach(({ at, file }, k) => {
        const read = offRead ? Promise.resolve(offRead.reads[k]!) : readSmallFile(file);
        chunk[at]!.read = read;
        chunk[at]!.sha256 = read.then((r) => (r.error ? null : r.sha256));
      });
    }
    const reads = await Promise.all(chunk.map((c) => c.read));
    const hashes = await Promise.all(chunk.map((c) => c.sha256));
    const known = hashes.filter((h): h is string => h !== null);
    const projectId = known.length > 0 ? await lookupProject() : null;
    const found = projectId ? await unchangedSources(projectId, known) : new Map<string, UnchangedSource>();
    const prepared: PreparedInput[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const { collected } = chunk[i]!;
      const read = reads[i] ?? null;
      const source = hashes[i] ? found.get(hashes[i]!) : undefined;
      let unchanged: ImportedTrajectory[] | null = null;
      if (source && collected.ok && collected.input.kind === 'file') {
        const file = read ? inMemory(collected.input.file, read.bytes) : collected.input.file;
        const as = format === 'auto' ? await detect({ kind: 'file', file }).catch(() => null) : format;
        if (as === source.format) {
          unchanged = source.trajectories.map((t) => ({ ...t, format: as, created: false }));
        }
      }
      prepared.push({ collected, read: unchanged ? null : read, unchanged });
    }
    // the worker compresses the raw sources of the files to parse while this thread parses the chunk before
    if (offRead) {
      const reads = offRead.reads;
      offRead.compress(offThread.flatMap(({ at }, k) => (prepared[at]!.read === reads[k] ? [k] : [])));
    }
    return prepared;
  };
  let next = takeChunk();
  for (;;) {
    const chunk = await next;
    if (done) {
      yield* chunk;
      return;
    }
    next = takeChunk(); // read the next chunk while this one is parsed
    next.catch(() => {});
    yield* chunk;
  }
}

async function* toAsync<T>(iterator: Iterator<T>): AsyncIterator<T> {
  for (let next = iterator.next(); !next.done; next = iterator.next()) yield next.value;
}

/**
 * The raw source of a file read ahead: the same hash and compression as rawSource streams,
 * compressed by the read-ahead worker that read it (`read.compressed`), or else on the parsing
 * thread itself (inline or a parse worker). Not on Node's thread pool:
 * for a ~40 KB file the async one-shot cost ~0.4-0.7 ms of CPU against ~0.12 ms synchronous, its
 * stream machinery alone ~0.4 ms of the calling thread (--cpu-prof of the ingest bench).
 */
async function rawSourceOfRead(path: string, format: string, read: ReadAhead): Promise<RawSource> {
  return {
    sha256: read.sha256,
    path,
    format,
    sizeBytes: read.bytes.byteLength,
    content: read.compressed ? await read.compressed.catch(() => compressRawSource(read.bytes)) : compressRawSource(read.bytes),
    encoding: RAW_SOURCE_ENCODING,
  };
}
/** A small file held in memory: read once, and read the same way as from disk; its text is decoded once (detection and parsing share it). */
function inMemory(file: SourceFile, bytes: Uint8Array): SourceFile & { text: () => string } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let decoded: string | undefined;
  const text = () => (decoded ??= buffer.toString('utf8'));
  return {
    path: file.path,
    size: bytes.byteLength,
    text,
    readText: async () => text(),
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
  if (input.kind === 'dir') return detectFormat(await probeDir(input.dir));
  // a file held in memory whole within the probe's reach: the probe is its text, decoded once for detection and parsing
  const text = 'text' in input.file && input.file.size <= PROBE_BYTES ? (input.file.text as () => string)() : undefined;
  return detectFormat(await probeFile(input.file, text));
}

function unknownFormatMessage(input: ImportInput): string {
  return input.kind === 'dir'
    ? 'not a recognised trajectory directory (expected a Harbor trial or job, a Terminal-Bench run or trial, or a tau2 run); pass --format to force one'
    : 'format not recognised from its content (expected Harbor/ATIF, asciinema, Inspect, SWE-agent, mini-swe-agent, tau-bench, tau2, Claude Code, Codex CLI, Cline, OpenAI or Anthropic); pass --format to force one';
}
