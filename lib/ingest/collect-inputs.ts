import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { detectFormat } from '../formats/detect';
import { findTrials } from '../formats/harbor';
import { getImporter } from '../formats/registry';
import type { ImportInput } from '../formats/importer';
import { dirSource, fileSource, memorySource, probeDir } from '../formats/source';
import type { FormatName } from '../formats/trajectory';

/** One thing to import (a file, a Harbor trial/job directory, stdin) or a reason it cannot be read. */
export type CollectedInput = { ok: true; path: string; input: ImportInput } | { ok: false; path: string; where: string; message: string };

const SKIP = new Set(['.DS_Store', 'Thumbs.db']);
/** Hidden files a tool writes as its history, walked like any other (aider's chat history). */
const HIDDEN_HISTORIES = new Set(['.aider.chat.history.md']);

/**
 * Expands the paths given to `witness import`: files as they are, `-` as stdin, and
 * directories walked (a directory an importer reads whole, such as a Harbor trial or job, a
 * tau2 run directory, a Cline task folder or an OpenHands session folder, is one input: its
 * companion files are read with it, never imported on their own). Hidden files are skipped,
 * except a tool's own history (`.aider.chat.history.md`).
 * Files over the size limit are reported, not read.
 */
export async function* collectInputs(
  paths: string[],
  options: { format: FormatName | 'auto'; maxBytes: number; readStdin: () => Promise<string> },
): AsyncIterable<CollectedInput> {
  for (const given of paths) {
    if (given === '-') {
      const text = await options.readStdin();
      if (Buffer.byteLength(text) > options.maxBytes) {
        yield { ok: false, path: 'stdin', where: 'stdin', message: tooLarge(Buffer.byteLength(text), options.maxBytes) };
      } else yield { ok: true, path: 'stdin', input: { kind: 'file', file: memorySource('stdin', text) } };
      continue;
    }
    let info;
    try {
      info = await stat(given);
    } catch {
      yield { ok: false, path: given, where: given, message: 'no such file or directory' };
      continue;
    }
    if (info.isDirectory()) yield* walk(given, options);
    else yield fileInput(given, info.size, options.maxBytes);
  }
}

function fileInput(filePath: string, size: number, maxBytes: number): CollectedInput {
  if (size > maxBytes) return { ok: false, path: filePath, where: filePath, message: tooLarge(size, maxBytes) };
  return { ok: true, path: filePath, input: { kind: 'file', file: fileSource(filePath, size) } };
}

async function* walk(dir: string, options: { format: FormatName | 'auto'; maxBytes: number }): AsyncIterable<CollectedInput> {
  // a directory some importer reads as a unit (a Harbor trial or job, a tau2 run directory)
  const source = dirSource(dir);
  const probe = await probeDir(source);
  const claimed = options.format === 'auto' ? detectFormat(probe) : getImporter(options.format).detect(probe) ? options.format : null;
  // a Harbor job directory is walked instead (each trial below is claimed on its own), so
  // other files beside the trials are not lost
  const harborTrials = claimed === 'harbor' && probe.kind === 'dir' ? findTrials(probe.entries) : [];
  const isHarborJob = harborTrials.length > 0 && harborTrials[0] !== '';
  if (claimed && !isHarborJob) {
    yield { ok: true, path: dir, input: { kind: 'dir', dir: source } };
    return;
  }
  const entries = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => !SKIP.has(entry.name) && (!entry.name.startsWith('.') || HIDDEN_HISTORIES.has(entry.name)))
    .sort((a, b) => a.name.localeCompare(b.name));
  // the files' sizes, STAT_AHEAD at a time (one stat after another cost ~0.1 ms a file under load), yielded in order
  const sizes = new Map<number, Promise<number>>();
  const sizeOf = (i: number) => {
    let size = sizes.get(i);
    if (!size) sizes.set(i, (size = stat(path.join(dir, entries[i]!.name)).then((s) => s.size)));
    return size;
  };
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full, options);
    else if (entry.isFile()) {
      for (let k = i + 1; k < Math.min(entries.length, i + STAT_AHEAD); k++) if (entries[k]!.isFile()) void sizeOf(k).catch(() => {});
      const size = await sizeOf(i);
      sizes.delete(i);
      yield fileInput(full, size, options.maxBytes);
    }
  }
}

const STAT_AHEAD = 32;

export function tooLarge(size: number, maxBytes: number): string {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `file is ${mb(size)}, over the import limit of ${mb(maxBytes)} (raise WITNESS_IMPORT_MAX_MB, or split the file)`;
}
