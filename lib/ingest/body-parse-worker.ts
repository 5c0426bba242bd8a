import { memorySource } from '../formats/source';
import { parseCollected } from './parse-collected';
import type { BodyParseJob } from './body-parse-thread';
import { answerParseJobs } from './parse-thread-jobs';

/**
 * The web process's parse thread (see body-parse-thread.ts): runs on each large request body it
 * is sent exactly what an import runs inline (`parseCollected`: detection, parsing, validation,
 * the stable hash, the raw source's compression), one body at a time, answering its slots.
 */
answerParseJobs((job: BodyParseJob) => {
  const file = memorySource(job.path, job.bytes);
  return parseCollected({ ok: true, path: job.path, input: { kind: 'file', file } }, null, job.options);
});
