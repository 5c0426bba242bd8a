import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { ReadAheadChunk, ReadAheadService } from './import-trajectories';
import type { ReadAhead } from './parse-collected';
import { defaultParseWorkers } from './parse-pool';
import { startTsxWorker } from './worker-thread';

export type ReadAheadCommand = { kind: 'read'; chunk: number; paths: string[] } | { kind: 'compress'; chunk: number; which: number[] };

export type ReadAheadAnswer =
  | { kind: 'read'; chunk: number; files: Array<{ bytes: Uint8Array; sha256: string } | { error: string }> }
  /** each raw source asked for, compressed, or why it could not be */
  | { kind: 'compressed'; chunk: number; contents: Array<Uint8Array | string> };

/**
 * Whether an import reads ahead on a worker (the CLI and the ingest bench): where it parses on
 * its main thread (defaultParseWorkers: none on two cores) and has a second core. There the main
 * thread parses, shapes rows and feeds the database, and was the bottleneck (95% busy) while the
 * other core had room: reading the files (five file-system calls a file through the thread pool),
 * hashing and compressing their raw sources were about 2 s of its 7.8 s over 5,000 files
 * (`npm run bench -- ingest` with `--cpu-prof`); moved here, the main thread's CPU over the bench's
 * 10,000 files fell from 12.0 to 8.4-9.5 s.
 */
export function defaultReadAhead(cores = availableParallelism()): boolean {
  return cores >= 2 && defaultParseWorkers(cores) === 0;
}

/** A worker that keeps stopping (one that cannot start, say) is not started again after this many: each start costs a module graph. */
const MAX_DEATHS = 2;

type Waiter = { resolve: (answer: ReadAheadAnswer) => void; reject: (error: Error) => void };

/**
 * One worker thread (lib/ingest/read-ahead-worker.ts) that reads and hashes the chunks of small
 * files an import reads ahead (importTrajectories' `readAhead`), and compresses the raw sources
 * of the files it then parses, while the importing thread parses the chunk before. A worker that
 * dies fails only what it was asked (the import then reads and compresses those files itself;
 * logged) and is replaced at the next chunk, at most once. Started with the first chunk; `close` stops it.
 */
export class ReadAheadPool implements ReadAheadService {
  private worker: Worker | null = null;
  private nextChunk = 1;
  private readonly waiting = new Map<string, Waiter>();
  /** the worker that holds each chunk's bytes until they are compressed or let go */
  private readonly holder = new Map<number, Worker>();
  private closing = false;
  /** workers that stopped on their own; after MAX_DEATHS none is started again and the import reads on its own thread */
  private deaths = 0;
  /** files read and raw sources compressed on the worker so far */
  filesRead = 0;
  sourcesCompressed = 0;

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = startTsxWorker(new URL('./read-ahead-worker.ts', import.meta.url));
    worker.on('message', (answer: ReadAheadAnswer) => {
      const key = `${answer.kind}:${answer.chunk}`;
      const waiter = this.waiting.get(key);
      this.waiting.delete(key);
      waiter?.resolve(answer);
    });
    let dead = false;
    const die = (reason: string) => {
      if (dead) return; // 'error' is followed by 'exit'
      dead = true;
      if (this.worker === worker) this.worker = null;
      if (!this.closing) {
        this.deaths++;
        console.error(
          `[import] the read-ahead worker stopped (${reason}); its files are read and compressed on the importing thread` +
            (this.deaths >= MAX_DEATHS ? ', and so are all the others of this import' : ''),
        );
      }
      for (const [chunk, holder] of this.holder) if (holder === worker) this.holder.delete(chunk);
      const error = new Error(`the read-ahead worker stopped (${reason})`);
      for (const [key, waiter] of this.waiting) {
        this.waiting.delete(key);
        waiter.reject(error);
      }
    };
    worker.on('error', (error) => die(error.message));
    worker.on('exit', (code) => die(`exit code ${code}`));
    this.worker = worker;
    return worker;
  }

  private ask(worker: Worker, command: ReadAheadCommand): Promise<ReadAheadAnswer> {
    return new Promise((resolve, reject) => {
      this.waiting.set(`${command.kind === 'read' ? 'read' : 'compressed'}:${command.chunk}`, { resolve, reject });
      worker.postMessage(command);
    });
  }

  async read(paths: string[]): Promise<ReadAheadChunk> {
    if (this.closing) throw new Error('the read-ahead pool is closed');
    if (this.deaths >= MAX_DEATHS) throw new Error(`the read-ahead worker stopped ${this.deaths} times`);
    const worker = this.start();
    const chunk = this.nextChunk++;
    this.holder.set(chunk, worker);
    const answer = await this.ask(worker, { kind: 'read', chunk, paths });
    if (answer.kind !== 'read') throw new Error(`read-ahead chunk ${chunk}: answered ${answer.kind}`);
    this.filesRead += answer.files.length;
    const reads: ReadAhead[] = answer.files.map((f) =>
      'error' in f ? { bytes: new Uint8Array(0), sha256: '', error: new Error(f.error) } : { bytes: f.bytes, sha256: f.sha256 },
    );
    return { reads, compress: (which) => this.compress(chunk, reads, which) };
  }

  /** Asks for the raw sources of `which` (indices into the chunk's reads): each read's `compressed`; the chunk's other bytes are let go. */
  private compress(chunk: number, reads: ReadAhead[], which: number[]): void {
    const worker = this.holder.get(chunk);
    this.holder.delete(chunk);
    const asked = which.filter((i) => !reads[i]!.error);
    if (!worker || worker !== this.worker) {
      // the worker that read the chunk is gone: its files are compressed where they are parsed
      return;
    }
    const answer = this.ask(worker, { kind: 'compress', chunk, which: asked });
    answer.catch(() => {});
    asked.forEach((i, k) => {
      const compressed = answer.then((a) => {
        const content = a.kind === 'compressed' ? a.contents[k] : undefined;
        if (content === undefined || typeof content === 'string')
          throw new Error(content ?? `read-ahead chunk ${chunk}: answered ${a.kind}`);
        this.sourcesCompressed++;
        return Buffer.from(content.buffer, content.byteOffset, content.byteLength);
      });
      compressed.catch(() => {});
      reads[i]!.compressed = compressed;
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}
