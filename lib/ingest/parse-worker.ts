import { fileSource } from '../formats/source';
import { parseCollected } from './parse-collected';
import type { ParseJob } from './parse-pool';
import { answerParseJobs } from './parse-thread-jobs';

/**
 * A parse worker (see parse-pool.ts): runs on each file it is sent (its bytes and hash, read on
 * the main thread) exactly what an import runs inline (`parseCollected`), one file at a time,
 * answering its slots. The raw source's compression runs here, on this thread, as it does inline.
 */
answerParseJobs((job: ParseJob) => {
  const file = fileSource(job.diskPath, job.size);
  const read = { bytes: job.bytes, sha256: job.sha256 };
  return parseCollected({ ok: true, path: job.label, input: { kind: 'file', file } }, read, job.options);
});
