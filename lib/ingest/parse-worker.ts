import { parentPort } from 'node:worker_threads';
import { fileSource } from '../formats/source';
import { parseCollected, type ParsedSlot } from './import-trajectories';
import type { ParseAnswer, ParseJob } from './parse-pool';
import { ownsItsBuffer } from './worker-thread';

/**
 * A parse worker (see parse-pool.ts): runs on each file it is sent (its bytes and hash, read on
 * the main thread) exactly what an import runs inline (`parseCollected`), one file at a time,
 * answering its slots. The raw source's compression runs here, on this thread, as it does inline.
 */
const port = parentPort!;
let chain: Promise<void> = Promise.resolve();
port.on('message', (job: ParseJob) => {
  chain = chain.then(async () => {
    let answer: ParseAnswer;
    try {
      const file = fileSource(job.diskPath, job.size);
      const read = { bytes: job.bytes, sha256: job.sha256 };
      const slots: ParsedSlot[] = [];
      for await (const slot of parseCollected({ ok: true, path: job.label, input: { kind: 'file', file } }, read, job.options))
        slots.push(slot);
      answer = { id: job.id, slots };
    } catch (error) {
      answer = { id: job.id, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(answer, 'slots' in answer ? ownedBuffers(answer.slots) : []);
  });
});

/** The buffers of the answer that own their whole memory (not views into Node's shared pool): moved to the main thread, not copied. */
function ownedBuffers(slots: ParsedSlot[]): ArrayBuffer[] {
  const moved = new Set<ArrayBuffer>();
  const add = (u: Uint8Array) => {
    if (ownsItsBuffer(u)) moved.add(u.buffer as ArrayBuffer);
  };
  for (const { slot } of slots) {
    if (!slot.ok) continue;
    for (const piece of slot.storable.stepCopy) add(piece);
    if (slot.storable.terminal) add(slot.storable.terminal.gzipped);
    if (slot.storable.source) add(slot.storable.source.content);
  }
  return [...moved];
}
