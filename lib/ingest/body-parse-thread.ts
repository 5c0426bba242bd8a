import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CollectedInput } from './collect-inputs';
import type { ImportOptions } from './import-trajectories';
import type { ParsedSlot, ReadAhead } from './parse-collected';
import { rehydrate } from './rehydrate-slot';

/** What the parse thread is sent: a body's bytes (moved, not copied) and the options that shape its trajectories. */
export interface BodyParseJob {
  id: number;
  path: string;
  bytes: Uint8Array;
  options: Pick<ImportOptions, 'format' | 'importedById' | 'environment' | 'policy' | 'split'>;
}
export type BodyParseAnswer = { id: number; slots: ParsedSlot[] } | { id: number; error: string };

/**
 * tsx's loader API, named at run time: this module is in the server's bundle (the import route),
 * which must neither trace tsx (a literal require.resolve of it fails the build: "Module not
 * found: Can't resolve <dynamic>") nor import lib/ingest/worker-thread.ts, which names it.
 */
const TSX_API = ['tsx', 'esm', 'api'].join('/');

/** The bytes as a buffer a postMessage can move: themselves when they own their memory, else a copy (as worker-thread.ts's movable). */
const movable = (u: Uint8Array): Uint8Array =>
  u.byteOffset === 0 && u.byteLength === u.buffer.byteLength && u.buffer instanceof ArrayBuffer ? u : u.slice();

/** Bodies from this size are parsed on the thread; smaller ones inline (a small body costs less than the hand-over). */
export const OFF_THREAD_MIN_BYTES = 1024 * 1024;

let thread: { worker: Worker; jobs: Map<number, (answer: BodyParseAnswer) => void> } | null = null;
let nextId = 1;

/**
 * One worker thread per web process that parses large POST /api/v1/trajectories bodies, so that
 * parsing a 1e6-event cast or a 50 MB step (seconds of JSON.parse, hashing and Brotli) never
 * holds the process's event loop: /api/health and every other request keep being answered.
 * Bodies are parsed one after another there (a second big import waits for the first); the
 * thread starts with the first large body and is replaced if it dies (its jobs fail, each as its
 * input's error). Its entry is found from the working directory (the studio's root, where
 * `witness start` runs), not from this module's URL: the server's bundle must not trace the
 * TypeScript loader the thread starts with.
 */
function start(): NonNullable<typeof thread> {
  if (thread) return thread;
  const root = process.cwd();
  const entry = path.join(root, 'lib', 'ingest', 'body-parse-worker.ts');
  if (!existsSync(entry)) throw new Error(`the parse thread's entry ${entry} is missing (start the studio from its root)`);
  const api = pathToFileURL(path.join(path.dirname(createRequire(path.join(root, 'package.json')).resolve(TSX_API)), 'index.mjs')).href;
  const worker = new Worker(
    `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(pathToFileURL(entry).href)}); })` +
      `.catch((e) => { console.error(e); process.exit(1); });`,
    { eval: true },
  );
  const jobs = new Map<number, (answer: BodyParseAnswer) => void>();
  const current = { worker, jobs };
  worker.on('message', (answer: BodyParseAnswer) => {
    const resolve = jobs.get(answer.id);
    jobs.delete(answer.id);
    resolve?.(answer);
    if (jobs.size === 0) worker.unref(); // an idle thread never keeps the process alive
  });
  const fail = (why: string) => {
    if (thread === current) thread = null;
    for (const [id, resolve] of jobs) resolve({ id, error: why });
    jobs.clear();
  };
  worker.on('error', (error) => fail(`the parse thread failed: ${error.message}`));
  worker.on('exit', (code) => fail(`the parse thread exited (${code})`));
  thread = current;
  return current;
}

/**
 * ImportOptions.parseFile for the web process: a large file input (a request body) is parsed
 * on the parse thread, its slots answered in order; anything else (null) is parsed inline.
 */
export function parseLargeOnThread(minBytes = OFF_THREAD_MIN_BYTES) {
  return (collected: CollectedInput, read: ReadAhead | null, options: BodyParseJob['options']): Promise<ParsedSlot[]> | null => {
    if (!collected.ok || collected.input.kind !== 'file' || collected.input.file.size < minBytes) return null;
    let t: NonNullable<typeof thread>;
    try {
      t = start();
    } catch (error) {
      // no thread here (a studio started outside its root): parsed inline, as before, and said so in the log
      console.error(`[import] parsing this body inline: ${(error as Error).message}`);
      return null;
    }
    const file = collected.input.file;
    // a body read ahead (and hashed) is sent as read; the thread hashes it again for its raw source, as inline parsing does
    return (read && !read.error ? Promise.resolve(read.bytes) : file.readBytes()).then(
      (bytes) =>
        new Promise<ParsedSlot[]>((resolve) => {
          const id = nextId++;
          t.worker.ref();
          t.jobs.set(id, (answer) =>
            resolve(
              'slots' in answer
                ? answer.slots.map(rehydrate)
                : [
                    {
                      slot: { ok: false, error: { path: collected.path, where: 'file', message: `not parsed: ${answer.error}` } },
                      bytes: 0,
                    },
                  ],
            ),
          );
          const job: BodyParseJob = { id, path: collected.path, bytes: movable(bytes), options };
          t.worker.postMessage(job, [job.bytes.buffer as ArrayBuffer]);
        }),
    );
  };
}

/** Stops the parse thread (tests; a studio's exit ends it anyway). */
export async function stopParseThread(): Promise<void> {
  const t = thread;
  thread = null;
  if (t) await t.worker.terminate();
}
