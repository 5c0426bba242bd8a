import { setImmediate as ioTurn } from 'node:timers/promises';
import { AppError } from '../errors';
import type { FormatName } from '../formats/trajectory';
import { renderAfterImport } from '../video/render-after-import';
import { canaryAfterImport } from '../training/canary-after-import';
import type { CollectedInput } from './collect-inputs';
import { parseCollected, type ParsedSlot, type ReadAhead, type Slot } from './parse-collected';
import type { ParsePool } from './parse-pool';
import { prepareInputs, type PreparedInput } from './prepare-inputs';
import type { ImportOverrides } from './prepare-trajectory';
import type { StorableTrajectory } from './queries/storable-trajectory';
import { storeTrajectoryBatch } from './queries/store-trajectory-batch';
import { batchFailure } from './store-trajectory';
import { markSourcesComplete } from './queries/unchanged-sources';

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
  /**
   * The follow-up jobs the import requests once its trajectories are stored, queued on this
   * database: a video render for each new trajectory when its project renders automatically
   * (lib/video/render-after-import.ts), and the canary check when the new trajectories belong to a
   * checkpoint or a checkpoint's parent (lib/training/canary-after-import.ts). Both edges (witness import, POST /api/v1/trajectories) ask
   * for them; without it none are queued (tests, benchmarks, the demo seed).
   */
  followUps?: { databaseUrl: string };
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

/**
 * Imports every collected input: detects the format from content (unless forced), parses, and
 * stores the trajectories, then requests the follow-up jobs (`followUps`). A bad file or item is
 * reported with where and what, and never stops the others or leaves anything half-written.
 *
 * A pipeline of stages, each below: collect (prepare-inputs.ts: read and hash ahead, find the
 * unchanged files) -> parse (parse-collected.ts, inline, on parse workers or on the web
 * process's parse thread: detect, parse, validate, prepare and shape into rows) -> store
 * (`batchStore`: batches, one transaction each, settled into the report in input order) ->
 * follow-ups (`requestFollowUps`).
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
  const run = startRun(options);
  const completion = completionRecorder(run);
  const store = batchStore(run, completion);
  try {
    const prepared = prepareInputs(
      inputs,
      options.format,
      run.lookupProject,
      // a parse worker compresses what it parses: the read-ahead worker serves inline parsing only
      options.parsePool ? undefined : options.readAhead,
    );
    await parseInto(run, store, completion, prepared);
    await store.flush();
  } finally {
    const t0 = performance.now();
    await store.inflight().catch(() => {});
    run.waited += performance.now() - t0;
    await completion.recording(); // never rejects: nothing is left writing after the import returns or throws
  }
  await store.inflight(); // rethrows what an onItem callback threw
  await completion.record();
  const profile = options.profile;
  if (profile) {
    profile.waitMs += run.waited;
    profile.workerWaitMs += run.workerWaited;
    profile.parseMs += performance.now() - run.started - run.waited - run.workerWaited;
  }
  await requestFollowUps(run);
  return run.report;
}

/** One import under way: its report, where its time went, and its project (made or found once, when first needed). */
interface ImportRun {
  options: ImportOptions;
  report: ImportReport;
  started: number;
  /** how long the parsing waited for the previous batch to be stored */
  waited: number;
  /** how long the main thread waited for a parse worker's next result */
  workerWaited: number;
  /** the project's id, made or found with the first call */
  project: () => Promise<string>;
  /** the project to look unchanged files up in: known, or found without creating it (once), or made by this import since */
  lookupProject: () => Promise<string | null>;
  /** the project's id once known (given, or resolved by `project`) */
  knownProjectId: () => string | null;
  /** reports a failed item */
  fail: (error: ImportError) => void;
}

function startRun(options: ImportOptions): ImportRun {
  const report: ImportReport = { imported: 0, skipped: 0, failed: 0, unchangedFiles: 0, trajectories: [], errors: [] };
  let projectId: Promise<string> | undefined;
  let knownProjectId: string | null = typeof options.projectId === 'string' ? options.projectId : null;
  let looked: Promise<string | null> | undefined;
  return {
    options,
    report,
    started: performance.now(),
    waited: 0,
    workerWaited: 0,
    project: () =>
      (projectId ??= (typeof options.projectId === 'string' ? Promise.resolve(options.projectId) : options.projectId()).then(
        (id) => (knownProjectId = id),
      )),
    lookupProject: async () =>
      knownProjectId ?? (await (looked ??= options.existingProjectId?.() ?? Promise.resolve(null))) ?? knownProjectId,
    knownProjectId: () => knownProjectId,
    fail: (error) => {
      report.failed++;
      report.errors.push(error);
      options.onItem?.({ ok: false, error });
    },
  };
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

interface CompletionRecorder {
  /** a file whose every trajectory is stored is recorded on its source (once) */
  closeIfDone: (file: FileTrack) => void;
  /** records the files completed so far, after those before */
  record: () => Promise<void>;
  /** the recording under way (never rejects) */
  recording: () => Promise<void>;
}

/**
 * Files whose every trajectory is stored, recorded on their sources off the batch chain (on
 * another connection, after the batch's commit), so the next batch need not wait for it; one at
 * a time, in order, and all of them before the import returns.
 */
function completionRecorder(run: ImportRun): CompletionRecorder {
  let complete: { sha256: string; items: number }[] = [];
  let recording: Promise<void> = Promise.resolve();
  return {
    closeIfDone: (file) => {
      if (file.closed && file.unsettled === 0 && !file.failed && file.items > 0 && file.sha256 !== null) {
        complete.push({ sha256: file.sha256, items: file.items });
        file.sha256 = null; // once
      }
    },
    record: () => {
      if (complete.length === 0) return recording;
      const files = complete;
      complete = [];
      recording = recording.then(async () => {
        try {
          await markSourcesComplete(await run.project(), files);
        } catch (error) {
          // everything is stored; only the next re-import of these files parses them again
          console.error('[import] could not record the completely imported files (a re-import will parse them again):', error);
        }
      });
      return recording;
    },
    recording: () => recording,
  };
}

/** A batch is stored when it holds this many items or about this many bytes of rows. */
const BATCH_ITEMS = 250;
const BATCH_BYTES = 16 * 1024 * 1024;

interface BatchStore {
  /** adds an entry (about `bytes` of rows) to the batch, storing the batch when it is full */
  push: (entry: Entry, bytes?: number) => Promise<void>;
  /** stores the batch held (after the one in the database) */
  flush: () => Promise<void>;
  /** the batch in the database */
  inflight: () => Promise<void>;
}

/** The store stage: entries gathered into batches, one in the database at a time while the next is parsed. */
function batchStore(run: ImportRun, completion: CompletionRecorder): BatchStore {
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
    run.waited += performance.now() - t0;
    inflight = settleBatch(run, completion, batch);
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
  return { push, flush, inflight: () => inflight };
}

/** Stores a batch's trajectories (one transaction) and settles its entries into the report, in order. */
async function settleBatch(run: ImportRun, completion: CompletionRecorder, batch: Entry[]): Promise<void> {
  const { report, options } = run;
  const profile = options.profile;
  const storables: StorableTrajectory[] = [];
  for (const entry of batch) if ('slot' in entry && entry.slot.ok) storables.push(entry.slot.storable);
  const t0 = performance.now();
  const outcomes = storables.length > 0 ? await storeTrajectoryBatch(await run.project(), storables) : [];
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
      run.fail(slot.error);
      completion.closeIfDone(file);
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
      const error = batchFailure(outcome);
      if (!(error instanceof AppError)) console.error(`[import] ${slot.path} ${slot.where}:`, error);
      run.fail({
        path: slot.path,
        where: slot.where,
        message: error instanceof AppError ? error.message : 'could not store this trajectory (database error; see server log)',
      });
    }
    completion.closeIfDone(file);
  }
  void completion.record();
}

/**
 * The parse stage: each prepared input parsed (inline, on the caller's `parseFile`, or on the
 * parse pool's workers, in input order) and its slots pushed to the store; an unchanged file's
 * stored trajectories go straight to the report.
 */
async function parseInto(run: ImportRun, store: BatchStore, completion: CompletionRecorder, prepared: AsyncIterable<PreparedInput>) {
  const { options } = run;
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
      await store.push({ slot, file }, bytes);
    }
    file.closed = true;
    completion.closeIfDone(file);
  };
  const inline = async (input: PreparedInput) => {
    if (input.unchanged) {
      await store.push({ unchanged: input.unchanged });
      return;
    }
    const elsewhere = options.parseFile?.(input.collected, input.read, {
      format: options.format,
      importedById: options.importedById,
      environment: options.environment,
      policy: options.policy,
      split: options.split,
    });
    await pushFile(
      input.collected.ok && input.collected.input.kind === 'file',
      elsewhere ? await elsewhere : parseCollected(input.collected, input.read, options),
    );
  };
  if (options.parsePool) {
    for await (const next of options.parsePool.inOrder(prepared, options)) {
      if (next.kind === 'inline') {
        await inline(next.prepared);
        continue;
      }
      const t0 = performance.now();
      const result = await next.result;
      run.workerWaited += performance.now() - t0;
      await pushFile(true, result);
    }
  } else {
    for await (const next of prepared) await inline(next);
  }
}

/** The follow-ups an import requests once its trajectories are stored (`followUps`): a render for each new trajectory. */
async function requestFollowUps(run: ImportRun): Promise<void> {
  const projectId = run.knownProjectId(); // null: nothing was stored, nor asked where to
  if (!run.options.followUps || projectId === null) return;
  const created = run.report.trajectories.filter((t) => t.created);
  await renderAfterImport(
    run.options.followUps.databaseUrl,
    projectId,
    created.map((t) => t.id),
  );
  // a checkpoint's (or its parent's) new trajectories may open or extend its canary campaign
  await canaryAfterImport(
    run.options.followUps.databaseUrl,
    projectId,
    created.map((t) => t.policy),
  );
}
