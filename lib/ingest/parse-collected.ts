import { createHash } from 'node:crypto';
import { readFile as readFileCallbackStyle } from 'node:fs';
import { promisify } from 'node:util';
import { AppError } from '../errors';
import { detectFormat, unrecognisedMessage } from '../formats/detect';
import { PROBE_BYTES, type ImportInput, type SourceFile } from '../formats/importer';
import { getImporter } from '../formats/registry';
import { probeDir, probeFile } from '../formats/source';
import type { FormatName } from '../formats/trajectory';
import type { CollectedInput } from './collect-inputs';
import type { ImportedTrajectory, ImportError, ImportOptions } from './import-trajectories';
import { prepareTrajectory, type ImportOverrides } from './prepare-trajectory';
import { toStorable, type RawSource, type StorableTrajectory } from './queries/storable-trajectory';
import { rawSource } from './raw-source';
import { compressRawSource, RAW_SOURCE_ENCODING } from './raw-source-codec';

/**
 * The parse stage of an import (lib/ingest/import-trajectories.ts), the same here, on a parse
 * worker (parse-worker.ts) and on the web process's parse thread (body-parse-worker.ts): one
 * input in, one slot a trajectory or error out, each trajectory shaped into rows ready to store.
 * It imports nothing that stores, so the workers load only what parsing needs.
 */

const readFileCallback = promisify(readFileCallbackStyle);

export type Slot =
  | { ok: false; error: ImportError }
  | { ok: true; path: string; where: string; storable: StorableTrajectory; meta: Omit<ImportedTrajectory, 'id' | 'created'> };

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
    yield pushError({ path: collected.path, where: kindWhere, message: await unknownFormatMessage(input) });
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
export function inMemory(file: SourceFile, bytes: Uint8Array): SourceFile & { text: () => string } {
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

export async function detect(input: ImportInput): Promise<FormatName | null> {
  if (input.kind === 'dir') return detectFormat(await probeDir(input.dir));
  // a file held in memory whole within the probe's reach: the probe is its text, decoded once for detection and parsing
  const text = 'text' in input.file && input.file.size <= PROBE_BYTES ? (input.file.text as () => string)() : undefined;
  return detectFormat(await probeFile(input.file, text));
}

/** One refusal naming the closest format and why (lib/formats/detect.ts unrecognisedMessage). */
async function unknownFormatMessage(input: ImportInput): Promise<string> {
  return unrecognisedMessage(input.kind === 'dir' ? await probeDir(input.dir) : await probeFile(input.file));
}
