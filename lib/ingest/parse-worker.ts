import { parentPort } from 'node:worker_threads';
import { fileSource } from '../formats/source';
import { parseCollected, readSmallFile, type ParsedSlot } from './import-trajectories';
import type { ParseAnswer, ParseJob } from './parse-pool';

/**
 * A parse worker (see parse-pool.ts): reads each file it is sent and runs on it exactly what an
 * import runs inline (`parseCollected`), one file at a time, answering its slots.
 */
const port = parentPort!;
let chain: Promise<void> = Promise.resolve();
port.on('message', (job: ParseJob) => {
  chain = chain.then(async () => {
    let answer: ParseAnswer;
    try {
      const file = fileSource(job.diskPath, job.size);
      const read = await readSmallFile(file);
      const slots: ParsedSlot[] = [];
      for await (const slot of parseCollected({ ok: true, path: job.label, input: { kind: 'file', file } }, read, job.options))
        slots.push(slot);
      answer = { id: job.id, slots };
    } catch (error) {
      answer = { id: job.id, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(answer);
  });
});
