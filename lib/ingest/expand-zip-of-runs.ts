import { mkdir, mkdtemp, rm, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppError } from '../errors';
import type { FormatName } from '../formats/trajectory';
import { inflateZipEntry, readZipDirectory, ZipError, type ZipEntry } from '../formats/zip';
import { collectInputs, tooLarge, type CollectedInput } from './collect-inputs';

/** Entries an archiver adds beside the files (macOS resource forks, Finder and Explorer metadata): never runs. */
const JUNK = /(^|\/)(__MACOSX\/|\.DS_Store$|Thumbs\.db$)/;

const WRITES_IN_FLIGHT = 32;
/** A zip that expands to at most this much is expanded into memory (/dev/shm, Linux's tmpfs) when it has room: a small file written to disk cost ~1 ms there. */
const IN_MEMORY_MAX_BYTES = 64 * 1024 * 1024;
const SHM = '/dev/shm';

/** Where to expand `bytes`: /dev/shm for a small zip when it is there with four times the room, else the system's temporary directory. */
async function scratchDir(bytes: number): Promise<string> {
  if (process.platform !== 'linux' || bytes > IN_MEMORY_MAX_BYTES) return tmpdir();
  try {
    const fs = await statfs(SHM);
    return fs.bavail * fs.bsize >= 4 * bytes ? SHM : tmpdir();
  } catch {
    return tmpdir();
  }
}

/** An Inspect `.eval` log: a zip whose root holds `header.json`, `_journal/…` or `samples/<id>_epoch_<n>.json` (lib/formats/inspect.ts). */
export function isInspectArchive(entries: ZipEntry[]): boolean {
  return entries.some((e) => e.name === 'header.json' || e.name.startsWith('_journal/') || /^samples\/[^/]+_epoch_\d+\.json$/.test(e.name));
}

/** The inputs of a zip of runs, and how to remove what they were expanded into once imported. */
export interface ExpandedZip {
  inputs: AsyncIterable<CollectedInput>;
  dispose: () => Promise<void>;
}

/**
 * A zip of runs (what the import page sends for a dropped folder, or a dropped `.zip`) expanded
 * into a temporary directory with its relative paths kept, then collected exactly as
 * `witness import DIR` collects a directory (lib/ingest/collect-inputs.ts: a Harbor trial,
 * a tau2 run directory and the other folder formats stay one input each); the inputs are named by
 * their paths inside the archive. Bounded like the CLI: an entry over `maxFileBytes` is reported
 * and not expanded; an archive that declares more than `maxTotalBytes` in all is refused before
 * anything is written; each entry is inflated alone, never past its declared size
 * (lib/formats/zip.ts). An entry whose name leaves the archive (`..`, an absolute path) is refused.
 */
export async function expandZipOfRuns(
  body: Uint8Array,
  entries: ZipEntry[],
  options: { format: FormatName | 'auto'; maxFileBytes: number; maxTotalBytes: number },
): Promise<ExpandedZip> {
  const files = entries.filter((e) => !e.name.endsWith('/') && !JUNK.test(e.name));
  const declared = files.reduce((sum, e) => sum + e.size, 0);
  if (declared > options.maxTotalBytes)
    throw new AppError(
      'TOO_LARGE',
      `the zip expands to ${mib(declared)}, over the limit of ${mib(options.maxTotalBytes)} (four times WITNESS_IMPORT_MAX_MB): split it into smaller zips`,
    );
  for (const e of files) {
    const parts = e.name.replace(/\\/g, '/').split('/');
    if (e.name.startsWith('/') || /^[a-z]:/i.test(e.name) || parts.includes('..'))
      throw new AppError('BAD_INPUT', `zip entry "${e.name}": its name leaves the archive (an absolute path or ..): refused`);
  }
  const root = await mkdtemp(path.join(await scratchDir(declared), 'witness-zip-'));
  const dispose = () => rm(root, { recursive: true, force: true });
  const failed: CollectedInput[] = [];
  try {
    const made = new Set<string>();
    const writing = new Set<Promise<void>>();
    for (const e of files) {
      const rel = e.name.replace(/\\/g, '/');
      if (e.size > options.maxFileBytes) {
        failed.push({ ok: false, path: rel, where: rel, message: tooLarge(e.size, options.maxFileBytes) });
        continue;
      }
      let bytes: Uint8Array;
      try {
        bytes = inflateZipEntry(body, e);
      } catch (error) {
        if (!(error instanceof ZipError)) throw error;
        failed.push({ ok: false, path: rel, where: `zip entry ${rel}`, message: `zip entry ${rel}: ${error.message}` });
        continue;
      }
      const full = path.join(root, ...rel.split('/'));
      const dir = path.dirname(full);
      if (!made.has(dir)) {
        await mkdir(dir, { recursive: true });
        made.add(dir);
      }
      // WRITES_IN_FLIGHT files written at once (one after another cost most of a folder of small runs' expansion)
      const write: Promise<void> = writeFile(full, bytes).finally(() => writing.delete(write));
      write.catch(() => {}); // a failed write is seen by the race or the final wait below; none is left unhandled
      writing.add(write);
      if (writing.size >= WRITES_IN_FLIGHT) await Promise.race(writing);
    }
    await Promise.all(writing);
  } catch (error) {
    await dispose();
    throw error;
  }
  return { inputs: relativeInputs(root, failed, options), dispose };
}

async function* relativeInputs(
  root: string,
  failed: CollectedInput[],
  options: { format: FormatName | 'auto'; maxFileBytes: number },
): AsyncIterable<CollectedInput> {
  yield* failed;
  const relative = (p: string) => path.relative(root, p).split(path.sep).join('/') || '.';
  const inputs = collectInputs([root], {
    format: options.format,
    maxBytes: options.maxFileBytes,
    readStdin: () => Promise.reject(new Error('no stdin in a zip')),
  });
  let any = failed.length > 0;
  for await (const c of inputs) {
    any = true;
    const rel = relative(c.path);
    if (!c.ok) yield { ...c, path: rel, where: c.where === c.path ? rel : c.where };
    else if (c.input.kind === 'file') yield { ok: true, path: rel, input: { kind: 'file', file: { ...c.input.file, path: rel } } };
    else yield { ok: true, path: rel, input: { kind: 'dir', dir: { ...c.input.dir, path: rel } } };
  }
  // a zip that holds nothing to read (only hidden entries such as __MACOSX/ or .DS_Store, or no file at all) is a failure the
  // report names, never an import of nothing answered as a success
  if (!any)
    yield {
      ok: false,
      path: '.',
      where: 'zip',
      message: 'the zip holds no file witness import reads (it is empty, or holds only hidden entries)',
    };
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Whether `body` is a readable zip archive, and its entries (null: not a zip, or one too damaged to list). */
export function zipEntriesOf(body: Uint8Array): ZipEntry[] | null {
  if (!(body[0] === 0x50 && body[1] === 0x4b && body[2] === 0x03 && body[3] === 0x04)) return null;
  try {
    return readZipDirectory(body);
  } catch (error) {
    if (error instanceof ZipError) return null;
    throw error;
  }
}
