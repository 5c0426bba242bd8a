import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { compressRawSource } from './raw-source-codec';
import type { ReadAheadAnswer, ReadAheadCommand } from './read-ahead-pool';
import { movable } from './worker-thread';

/**
 * The read-ahead worker (see read-ahead-pool.ts): reads a chunk of small files whole and hashes
 * them (sha256, the raw source's hash), sends each file's bytes to the importing thread and keeps
 * its own copy, then compresses the raw sources the import asks for once it knows which files are
 * new (unchanged files are never compressed) and lets the chunk go.
 */
const port = parentPort!;
const held = new Map<number, Array<Uint8Array | null>>();

port.on('message', (command: ReadAheadCommand) => {
  if (command.kind === 'read') {
    const kept: Array<Uint8Array | null> = [];
    const files: Extract<ReadAheadAnswer, { kind: 'read' }>['files'] = [];
    for (const file of command.paths) {
      try {
        const bytes = readFileSync(file);
        kept.push(bytes);
        files.push({ bytes: new Uint8Array(bytes), sha256: createHash('sha256').update(bytes).digest('hex') });
      } catch (error) {
        kept.push(null);
        files.push({ error: (error as Error).message });
      }
    }
    held.set(command.chunk, kept);
    const answer: ReadAheadAnswer = { kind: 'read', chunk: command.chunk, files };
    port.postMessage(
      answer,
      files.flatMap((f) => ('bytes' in f ? [f.bytes.buffer as ArrayBuffer] : [])),
    );
    return;
  }
  const kept = held.get(command.chunk);
  held.delete(command.chunk);
  const contents: Array<Uint8Array | string> = command.which.map((i) => {
    const bytes = kept?.[i];
    if (!bytes) return `file ${i} of chunk ${command.chunk} was not read here`;
    try {
      return movable(compressRawSource(bytes));
    } catch (error) {
      return (error as Error).message;
    }
  });
  const answer: ReadAheadAnswer = { kind: 'compressed', chunk: command.chunk, contents };
  port.postMessage(
    answer,
    contents.flatMap((c) => (typeof c === 'string' ? [] : [c.buffer as ArrayBuffer])),
  );
});
