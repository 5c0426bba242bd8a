import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { z } from 'zod';
import type { importAnswer } from '@/lib/trajectories/trajectory-schemas';

/** The report POST /api/v1/trajectories answers (its schema: lib/trajectories/trajectory-schemas.ts `importAnswer`). */
export type ImportAnswer = z.infer<typeof importAnswer>;

export class UploadAborted extends Error {
  constructor() {
    super('cancelled');
  }
}

/** Whether a file starts with a zip's local header (an Inspect `.eval`, or a `.zip` of runs): sent as application/zip. */
export async function startsAsZip(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

/** Files up to this size are read whole, READ_AHEAD of them at once; larger ones are streamed. */
const SMALL_FILE_BYTES = 1024 * 1024;
const READ_AHEAD = 64;
/** Folded into one Blob every this many bytes, so the browser may keep the zip on disk rather than in memory. */
const FOLD_BYTES = 8 * 1024 * 1024;

/**
 * A folder's files as one zip, streamed: a file over 1 MiB is read a chunk at a time
 * (`File.stream()`) and deflated (level 1) as it arrives, smaller ones read whole (64 ahead) and
 * stored, the zip's output folded into a Blob as it grows, so no more than one large file's chunk, 64 MiB of
 * small files and a few MiB of output are held at once. Paths are kept.
 */
export async function zipFiles(
  files: { path: string; file: Blob }[],
  onProgress: (readBytes: number) => void,
  signal: AbortSignal,
): Promise<Blob> {
  let blob = new Blob([]);
  let parts: Uint8Array<ArrayBuffer>[] = [];
  let pending = 0;
  let failure: Error | null = null;
  let ended = false;
  const zip = new Zip((error, chunk, final) => {
    if (error) failure = error;
    else {
      parts.push(chunk as Uint8Array<ArrayBuffer>);
      pending += chunk.byteLength;
      if (pending >= FOLD_BYTES || final) {
        blob = new Blob([blob, ...parts]);
        parts = [];
        pending = 0;
      }
      if (final) ended = true;
    }
  });
  let read = 0;
  // small files are read whole, READ_AHEAD at a time (one read after another cost a round trip to the browser's file
  // reader each: most of a folder of small runs' zipping); a larger one is streamed a chunk at a time
  const ahead = new Map<number, Promise<ArrayBuffer>>();
  const readAhead = (i: number) => {
    const f = files[i];
    if (f && f.file.size <= SMALL_FILE_BYTES && !ahead.has(i)) ahead.set(i, f.file.arrayBuffer());
  };
  for (let i = 0; i < files.length; i++) {
    const { path, file } = files[i]!;
    if (signal.aborted) {
      zip.terminate();
      throw new UploadAborted();
    }
    for (let k = i; k < Math.min(files.length, i + READ_AHEAD); k++) readAhead(k);
    const whole = ahead.get(i);
    // a small file is stored as it is (a deflate stream a file cost more than the upload it saved: most of the zipping);
    // a large one deflated
    const entry = whole ? new ZipPassThrough(path) : new ZipDeflate(path, { level: 1 });
    zip.add(entry);
    ahead.delete(i);
    if (whole) {
      const bytes = new Uint8Array(await whole);
      entry.push(bytes, true);
      read += bytes.byteLength;
    } else {
      const reader = file.stream().getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        entry.push(value);
        read += value.byteLength;
      }
      entry.push(new Uint8Array(0), true);
    }
    if (failure) throw failure;
    if (i % 16 === 15 || i === files.length - 1) onProgress(read);
  }
  zip.end();
  if (failure) throw failure;
  if (!ended) throw new Error('the zip did not finish');
  return blob;
}

/**
 * One POST of `body` to the import route, with upload progress (XMLHttpRequest: fetch reports
 * none) and cancel. The session cookie goes along; the browser sends the studio's Origin.
 * Resolves with the report, or rejects with the server's error message.
 */
export function postImport(
  query: string,
  body: Blob,
  contentType: string,
  onProgress: (sentBytes: number) => void,
  signal: AbortSignal,
): Promise<ImportAnswer> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new UploadAborted());
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/v1/trajectories?${query}`);
    xhr.setRequestHeader('content-type', contentType);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.responseType = 'text';
    const abort = () => xhr.abort();
    signal.addEventListener('abort', abort, { once: true });
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onabort = () => reject(new UploadAborted());
    xhr.onerror = () => reject(new Error('the upload failed (network error, or the studio stopped)'));
    xhr.onload = () => {
      signal.removeEventListener('abort', abort);
      let answer: unknown = null;
      try {
        answer = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: said below
      }
      const report = answer as Partial<ImportAnswer> | null;
      if (report && typeof report.imported === 'number') return resolve(report as ImportAnswer);
      const message = (answer as { error?: { message?: string } } | null)?.error?.message;
      reject(new Error(message ?? `the studio answered ${xhr.status} ${xhr.statusText}`.trim()));
    };
    xhr.send(body);
  });
}
