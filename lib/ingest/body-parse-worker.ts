import { parentPort } from 'node:worker_threads';
import { memorySource } from '../formats/source';
import { parseCollected, type ParsedSlot } from './import-trajectories';
import type { BodyParseAnswer, BodyParseJob } from './body-parse-thread';
import { ownsItsBuffer } from './worker-thread';

/**
 * The web process's parse thread (see body-parse-thread.ts): runs on each large request body it
 * is sent exactly what an import runs inline (`parseCollected`: detection, parsing, validation,
 * the stable hash, the raw source's compression), one body at a time, answering its slots.
 */
const port = parentPort!;
let chain: Promise<void> = Promise.resolve();
port.on('message', (job: BodyParseJob) => {
  chain = chain.then(async () => {
    let answer: BodyParseAnswer;
    try {
      const slots: ParsedSlot[] = [];
      const file = memorySource(job.path, job.bytes);
      for await (const slot of parseCollected({ ok: true, path: job.path, input: { kind: 'file', file } }, null, job.options))
        slots.push(slot);
      answer = { id: job.id, slots };
    } catch (error) {
      answer = { id: job.id, error: error instanceof Error ? error.message : String(error) };
    }
    const moved = new Set<ArrayBuffer>();
    if ('slots' in answer)
      for (const { slot } of answer.slots) {
        if (!slot.ok) continue;
        for (const u of [...slot.storable.stepCopy, slot.storable.terminal?.gzipped, slot.storable.source?.content])
          if (u && ownsItsBuffer(u)) moved.add(u.buffer as ArrayBuffer);
      }
    port.postMessage(answer, [...moved]);
  });
});
