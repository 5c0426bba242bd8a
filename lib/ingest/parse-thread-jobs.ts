import { parentPort } from 'node:worker_threads';
import type { ParsedSlot } from './parse-collected';
import { ownsItsBuffer } from './worker-thread';

type ParseThreadAnswer = { id: number; slots: ParsedSlot[] } | { id: number; error: string };

/**
 * A parse thread's loop (parse-worker.ts, body-parse-worker.ts): one job at a time, in the order
 * sent, each answered with its slots or its error's text.
 */
export function answerParseJobs<J extends { id: number }>(parse: (job: J) => AsyncIterable<ParsedSlot>): void {
  const port = parentPort!;
  let chain: Promise<void> = Promise.resolve();
  port.on('message', (job: J) => {
    chain = chain.then(async () => {
      let answer: ParseThreadAnswer;
      try {
        const slots: ParsedSlot[] = [];
        for await (const slot of parse(job)) slots.push(slot);
        answer = { id: job.id, slots };
      } catch (error) {
        answer = { id: job.id, error: error instanceof Error ? error.message : String(error) };
      }
      port.postMessage(answer, 'slots' in answer ? ownedBuffers(answer.slots) : []);
    });
  });
}

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
