import { createHash } from 'node:crypto';
import type { SourceFile } from '../formats/importer';
import type { FormatName } from '../formats/trajectory';
import type { CollectedInput } from './collect-inputs';
import type { ImportedTrajectory, ReadAheadChunk, ReadAheadService } from './import-trajectories';
import { detect, inMemory, readSmallFile, type ReadAhead } from './parse-collected';
import { unchangedSources, type UnchangedSource } from './queries/unchanged-sources';

/**
 * The collect stage of an import (lib/ingest/import-trajectories.ts): the inputs read and hashed
 * ahead of the parsing, a chunk at a time, and the files imported completely before found.
 */

/** Files up to this size are read once and kept in memory while imported; larger ones are streamed. */
export const IN_MEMORY_BYTES = 8 * 1024 * 1024;
/** Inputs read (and hashed) ahead of the parsing, and looked up as one chunk: this many, or about this many bytes. */
const CHUNK_FILES = 128;
const CHUNK_BYTES = 16 * 1024 * 1024;

/** One input, read and hashed ahead of the parsing (when it is a file), or found unchanged. */
export interface PreparedInput {
  collected: CollectedInput;
  /** a small file's bytes and their hash */
  read: ReadAhead | null;
  /** the same bytes were imported completely before: their trajectories, not parsed again */
  unchanged: ImportedTrajectory[] | null;
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
