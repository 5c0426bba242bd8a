import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

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
