import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/*
 * Worker threads of the import (the parse and read-ahead workers): how one starts, and how bytes
 * cross to or from one without a copy.
 */

/**
 * Starts a worker thread on a TypeScript entry of lib/ingest (the parse and read-ahead workers):
 * tsx's ESM API registers its loader in the worker, which then imports the entry. The caller
 * listens for its messages, errors and exit.
 */
export function startTsxWorker(entry: URL): Worker {
  const api = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/esm/api')), 'index.mjs')).href;
  return new Worker(
    `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })` +
      `.catch((e) => { console.error(e); process.exit(1); });`,
    { eval: true },
  );
}

/** Whether these bytes own their whole ArrayBuffer, so a postMessage can move it (a view into Node's pool or a larger buffer cannot be moved). */
export function ownsItsBuffer(u: Uint8Array): boolean {
  return u.byteOffset === 0 && u.byteLength === u.buffer.byteLength && u.buffer instanceof ArrayBuffer;
}

/** The bytes as a buffer a postMessage can move: themselves when they own their memory, else a copy. */
export function movable(u: Uint8Array): Uint8Array {
  return ownsItsBuffer(u) ? u : u.slice();
}
