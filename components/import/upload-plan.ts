/**
 * What the import page sends for what was dropped or picked (pure, no browser APIs): each loose
 * file its own request (its bytes as the body, the API's per-body limit; a zip, an Inspect `.eval`
 * or a `.zip` of runs, up to the CLI's import limit), and each top-level folder whole, zipped
 * with its relative paths (the server tells a Harbor trial, a Cline task or an OpenHands session
 * from a folder of loose runs, as `witness import DIR` does). A folder larger than the import
 * limit is sent as its children instead (subfolders whole, files one by one), level by level.
 * Loose files then travel in batches (`batchUploads`): up to BATCH_FILES of them, BATCH_BYTES in
 * all, zipped each at its own name at the zip's root, which the server imports as a zip of runs;
 * a file that is itself a zip, or a large one, still goes alone. `batchResults` maps a batch's
 * report back to each of its files.
 */

/** A dropped or picked file and its path in what was dropped ('' for a loose file; `runs/a/x.json` inside a folder). */
import type { z } from 'zod';
import type { importAnswer } from '@/lib/trajectories/trajectory-schemas';
export interface PickedFile {
  file: { name: string; size: number };
  relativePath: string;
}

export type UploadUnit<F extends PickedFile = PickedFile> =
  | { kind: 'file'; key: string; label: string; size: number; file: F }
  | { kind: 'folder'; key: string; label: string; size: number; files: { path: string; picked: F }[] }
  | { kind: 'refused'; key: string; label: string; size: number; message: string };

export interface UploadLimits {
  /** the API's largest body (WITNESS_API_MAX_MB) */
  apiMaxBytes: number;
  /** the CLI's largest file (WITNESS_IMPORT_MAX_MB): also the largest zip */
  importMaxBytes: number;
}

const JUNK = /(^|\/)(\.DS_Store|Thumbs\.db|__MACOSX)(\/|$)/;

export function planUploads<F extends PickedFile>(picked: F[], limits: UploadLimits): UploadUnit<F>[] {
  const files = picked.map((p) => ({ path: p.relativePath.replace(/\\/g, '/').replace(/^\/+/, '') || p.file.name, picked: p }));
  return splitLevel(
    files.filter((f) => !JUNK.test(f.path)),
    '',
    limits,
  );
}

function splitLevel<F extends PickedFile>(files: { path: string; picked: F }[], prefix: string, limits: UploadLimits): UploadUnit<F>[] {
  const loose: { path: string; picked: F }[] = [];
  const folders = new Map<string, { path: string; picked: F }[]>();
  for (const f of files) {
    const rest = f.path.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash < 0) loose.push(f);
    else {
      const name = prefix + rest.slice(0, slash + 1);
      folders.set(name, [...(folders.get(name) ?? []), f]);
    }
  }
  const units: UploadUnit<F>[] = [];
  for (const [name, inside] of [...folders].sort(([a], [b]) => a.localeCompare(b))) {
    const size = inside.reduce((sum, f) => sum + f.picked.file.size, 0);
    if (size <= limits.importMaxBytes || inside.length === 1) {
      units.push({ kind: 'folder', key: name, label: name, size, files: inside });
    } else units.push(...splitLevel(inside, name, limits));
  }
  for (const f of loose.sort((a, b) => a.path.localeCompare(b.path))) units.push(fileUnit(f, limits));
  return units;
}

function fileUnit<F extends PickedFile>(f: { path: string; picked: F }, limits: UploadLimits): UploadUnit<F> {
  const size = f.picked.file.size;
  const max = Math.max(limits.apiMaxBytes, limits.importMaxBytes);
  if (size === 0) return { kind: 'refused', key: f.path, label: f.path, size, message: 'empty file: nothing to import' };
  if (size > max) return { kind: 'refused', key: f.path, label: f.path, size, message: overLimit(size, max, 'WITNESS_IMPORT_MAX_MB') };
  return { kind: 'file', key: f.path, label: f.path, size, file: f.picked };
}

/** Loose files a batch holds at most, and their bytes in all (each batch one request). */
export const BATCH_FILES = 125;
export const BATCH_BYTES = 16 * 1024 * 1024;

type SentUnit<F extends PickedFile> = Exclude<UploadUnit<F>, { kind: 'refused' }>;
type FileUnit<F extends PickedFile> = Extract<UploadUnit<F>, { kind: 'file' }>;

/** One request: a unit alone (a folder's zip, a zip file, a large file), or a batch of loose files zipped together. */
export type SendJob<F extends PickedFile = PickedFile> =
  | { kind: 'one'; key: string; unit: SentUnit<F> }
  | { kind: 'batch'; key: string; size: number; files: { name: string; unit: FileUnit<F> }[] };

/**
 * The requests for a plan's units, in order: loose files batched (up to BATCH_FILES, BATCH_BYTES
 * and the API's and the import's limits in all; each at its file name, so two files of the same
 * name never share a batch); a unit `alone` says (a file that is itself a zip: an Inspect `.eval`
 * or a `.zip` of runs), a folder, or a file over a batch's bytes goes alone. Refused units send nothing.
 */
export function batchUploads<F extends PickedFile>(
  units: UploadUnit<F>[],
  alone: (unit: FileUnit<F>) => boolean,
  limits: UploadLimits,
): SendJob<F>[] {
  const maxBytes = Math.min(BATCH_BYTES, limits.apiMaxBytes, limits.importMaxBytes);
  const jobs: SendJob<F>[] = [];
  let open: Extract<SendJob<F>, { kind: 'batch' }> | null = null;
  let names = new Set<string>();
  for (const unit of units) {
    if (unit.kind === 'refused') continue;
    if (unit.kind === 'folder' || unit.size > maxBytes || alone(unit)) {
      jobs.push({ kind: 'one', key: unit.key, unit });
      continue;
    }
    const name = unit.key.split('/').pop() || unit.file.file.name;
    if (!open || open.files.length >= BATCH_FILES || open.size + unit.size > maxBytes || names.has(name)) {
      open = { kind: 'batch', key: `batch ${unit.key}`, size: 0, files: [] };
      names = new Set();
      jobs.push(open);
    }
    open.files.push({ name, unit });
    open.size += unit.size;
    names.add(name);
  }
  return jobs;
}

/** A batched file's share of its batch's report: `exact` when its counts are its own (else they are the batch's, said as such). */
export interface FileResult {
  answer: BatchAnswer;
  exact: boolean;
}

/** The import report (POST /api/v1/trajectories) a batch's files are told from. */
export type BatchAnswer = z.infer<typeof importAnswer>;

/**
 * Each batched file's result, from the batch's report: the errors that name it are its own (an
 * error naming no file of the batch, e.g. the batch's whole folder, is every file's); the others
 * imported. The server collects the batch's files in name order (lib/ingest/collect-inputs.ts
 * sorts with localeCompare) and reports their trajectories in that order, so when every file
 * without an error holds one trajectory, each file gets its own (imported, or skipped as
 * unchanged); otherwise each is told the batch's counts (`exact: false`).
 */
export function batchResults(answer: BatchAnswer, names: string[]): Map<string, FileResult> {
  const mine = (e: { path: string }, name: string) => e.path === name || e.path.startsWith(`${name}/`);
  const stray = answer.errors.filter((e) => !names.some((name) => mine(e, name)));
  const errorsOf = new Map(names.map((name) => [name, [...answer.errors.filter((e) => mine(e, name)), ...stray]]));
  const ok = [...names].filter((name) => errorsOf.get(name)!.length === 0).sort((a, b) => a.localeCompare(b));
  const exact = ok.length === answer.trajectories.length && stray.length === 0;
  const out = new Map<string, FileResult>();
  const empty = { imported: 0, skipped: 0, failed: 0, unchangedFiles: 0, trajectories: [] };
  for (const name of names) {
    const errors = errorsOf.get(name)!;
    if (errors.length > 0) out.set(name, { answer: { ...empty, failed: errors.length, errors }, exact: true });
  }
  ok.forEach((name, i) => {
    if (exact) {
      const t = answer.trajectories[i]!;
      out.set(name, {
        answer: { ...empty, imported: t.created ? 1 : 0, skipped: t.created ? 0 : 1, trajectories: [t], errors: [] },
        exact: true,
      });
    } else out.set(name, { answer: { ...answer, failed: 0, errors: [] }, exact: false });
  });
  return out;
}

/** The refusal of a body over a limit, as the server words it. */
export function overLimit(size: number, max: number, setting: string): string {
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `file is ${mib(size)}, over the limit of ${mib(max)} (raise ${setting}, or split the file)`;
}

/** The query string of an import: empty fields are left out (read from the files). */
export function importQuery(fields: { project: string; environment: string; policy: string; split: string }): string {
  const params = new URLSearchParams({ project: fields.project.trim() || 'default' });
  for (const key of ['environment', 'policy', 'split'] as const) {
    const value = fields[key].trim();
    if (value) params.set(key, value);
  }
  return params.toString();
}
