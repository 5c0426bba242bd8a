import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { ImportOptions } from './import-trajectories';
import type { ParsedSlot } from './parse-collected';
import type { PreparedInput } from './prepare-inputs';
import { movable, startTsxWorker } from './worker-thread';
import { rehydrate } from './rehydrate-slot';

/** What a parse worker is sent: a small file on disk, its bytes (read and hashed on the main thread) and the options that shape its trajectories. */
export interface ParseJob {
  id: number;
  /** the input's path as the report names it */
  label: string;
  diskPath: string;
  size: number;
  bytes: Uint8Array;
  sha256: string;
  options: Pick<ImportOptions, 'format' | 'importedById' | 'environment' | 'policy' | 'split'>;
}

export type ParseAnswer = { id: number; slots: ParsedSlot[] } | { id: number; error: string };

export type PooledInput = { kind: 'inline'; prepared: PreparedInput } | { kind: 'worker'; result: Promise<ParsedSlot[]> };

/**
 * How many parse workers an import runs (the CLI and the ingest bench). On two cores, none: the
 * import parses on its main thread. Measured on this project's 2-core machine (`npm run bench --
 * ingest`, 2,000 files, back to back): inline 3.13 ms of CPU a file (all threads and PostgreSQL)
 * and 215 traj/s, one worker 3.24 ms and 173 traj/s, two workers 3.80-3.81 ms and 108-154 traj/s.
 * A worker adds CPU (its own TypeScript loader and module graph at start, the structured clone of
 * every answer) and with PostgreSQL's backend and the writer on the same two cores there is no
 * idle core for it to win back. With more cores, one a core beyond two (the writer and the
 * backend), at most two: one worker's parsing (~2.5 ms of CPU a file) is more than the backend
 * spends storing the file (1-2 ms), two keep ahead of the one backend a batch writes on (not
 * measured here: this machine has two cores).
 */
export function defaultParseWorkers(cores = availableParallelism()): number {
  return Math.max(0, Math.min(cores - 2, 2));
}

/** Files a worker takes: read whole there (larger ones stream on the main thread, as without workers). */
const WORKER_MAX_BYTES = 8 * 1024 * 1024;
/**
 * Files handed to the workers ahead of the writer, at most: a batch's worth and more (the writer
 * collects the next batch only once the previous one is stored, so with fewer the workers sat
 * idle while each batch was written: half their time at load 14), and this many file bytes.
 */
const AHEAD_FILES = 384;
const AHEAD_BYTES = 48 * 1024 * 1024;
/** The first files are parsed inline: an import of a few files never pays for starting workers. */
const INLINE_FIRST = 64;

/**
 * A pool of parse workers (worker_threads running lib/ingest/parse-worker.ts through tsx's
 * loader): `inOrder` hands each small file on disk (its bytes, read ahead and hashed by the main
 * thread, moved to the worker without a copy) to the least busy worker and yields, in input
 * order, either that job's result (a promise of its slots: the main thread writes batches while
 * the workers parse ahead) or the input itself for the caller to parse inline (stdin, a
 * directory, a large file, an unchanged file, an input that failed to collect). At most AHEAD_FILES jobs
 * and AHEAD_BYTES of files are ahead of the consumer, so memory stays flat in the number
 * of files. The first INLINE_FIRST files are left inline. A worker that dies fails only its jobs (each reported as that file's error) and is
 * replaced.
 */
export class ParsePool {
  private readonly workers: { worker: Worker; busy: number; jobs: Map<number, (answer: ParseAnswer) => void> }[] = [];
  private nextId = 1;

  /** how many files went to the workers so far */
  get dispatched(): number {
    return this.nextId - 1;
  }

  /** Workers start with the first job sent to one. */
  constructor(private readonly size: number) {}

  private spawn() {
    const jobs = new Map<number, (answer: ParseAnswer) => void>();
    const worker = startTsxWorker(new URL('./parse-worker.ts', import.meta.url));
    const slot = { worker, busy: 0, jobs };
    worker.on('message', (answer: ParseAnswer) => {
      const resolve = jobs.get(answer.id);
      jobs.delete(answer.id);
      slot.busy--;
      resolve?.(answer);
    });
    const die = (reason: string) => {
      for (const [id, resolve] of jobs) resolve({ id, error: `the parse worker stopped (${reason})` });
      jobs.clear();
      const at = this.workers.indexOf(slot);
      if (at >= 0 && !this.closing) this.workers[at] = this.spawn();
    };
    worker.on('error', (error) => die(error.message));
    worker.on('exit', (code) => die(`exit code ${code}`));
    return slot;
  }

  private closing = false;

  private submit(job: Omit<ParseJob, 'id'>): Promise<ParsedSlot[]> {
    while (this.workers.length < this.size) this.workers.push(this.spawn());
    const slot = this.workers.reduce((a, b) => (b.busy < a.busy ? b : a));
    const id = this.nextId++;
    slot.busy++;
    // the bytes move to the worker when they own their memory (a file read whole); a view into a larger buffer is copied first
    const bytes = movable(job.bytes);
    return new Promise<ParseAnswer>((resolve) => {
      slot.jobs.set(id, resolve);
      slot.worker.postMessage({ ...job, bytes, id } satisfies ParseJob, [bytes.buffer as ArrayBuffer]);
    }).then((answer) =>
      'error' in answer
        ? [
            {
              slot: { ok: false as const, error: { path: job.label, where: 'file', message: `could not parse: ${answer.error}` } },
              bytes: 0,
            },
          ]
        : answer.slots.map(rehydrate),
    );
  }

  async *inOrder(inputs: AsyncIterable<PreparedInput>, options: ParseJob['options']): AsyncIterable<PooledInput> {
    const queue: { size: number; item: PooledInput }[] = [];
    let queuedBytes = 0;
    const limit = AHEAD_FILES;
    let eligible = 0;
    const take = () => {
      const head = queue.shift()!;
      queuedBytes -= head.size;
      return head.item;
    };
    const jobOptions = {
      format: options.format,
      importedById: options.importedById,
      environment: options.environment ?? null,
      policy: options.policy ?? null,
      split: options.split ?? null,
    };
    for await (const prepared of inputs) {
      const { collected, read } = prepared;
      const file = collected.ok && collected.input.kind === 'file' ? collected.input.file : null;
      if (file?.diskPath && read && !read.error && file.size > 0 && file.size <= WORKER_MAX_BYTES && ++eligible > INLINE_FIRST) {
        const job = {
          label: collected.path,
          diskPath: file.diskPath,
          size: file.size,
          bytes: read.bytes,
          sha256: read.sha256,
          options: jobOptions,
        };
        const result = this.submit(job);
        result.catch(() => {});
        queue.push({ size: file.size, item: { kind: 'worker', result } });
        queuedBytes += file.size;
      } else {
        queue.push({ size: read?.bytes.byteLength ?? 0, item: { kind: 'inline', prepared } });
        queuedBytes += read?.bytes.byteLength ?? 0;
      }
      while (queue.length > limit || queuedBytes > AHEAD_BYTES) yield take();
    }
    while (queue.length > 0) yield take();
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }
}
