import { AppError } from '../errors';
import { detectFormat, eventStreamFormats } from '../formats/detect';
import { memorySource, probeFile } from '../formats/source';
import type { FormatName } from '../formats/trajectory';
import type { CollectedInput } from './collect-inputs';
import { expandZipOfRuns, isInspectArchive, zipEntriesOf } from './expand-zip-of-runs';

/** Leading bytes of archives: zip (an Inspect `.eval`), gzip. A body that starts with them is one binary document. */
const BINARY_MAGIC = [
  [0x50, 0x4b, 0x03, 0x04],
  [0x1f, 0x8b],
];
const BINARY_TYPES = /^(application\/(zip|x-zip-compressed|octet-stream|gzip|x-gzip)|multipart\/x-zip)\b/i;

/**
 * The inputs of one `POST /api/v1/trajectories` body, the same inputs `witness import` makes of
 * a file: the body's BYTES are the document (never decoded first, so an Inspect `.eval` zip
 * arrives intact), one document unless it is NDJSON (`application/x-ndjson`, jsonl, json-seq),
 * which becomes one input a line, except that a stream of events by nature (a cast, a Claude
 * Code or Codex session) stays one document. A binary body (by its content type or its magic
 * bytes) is always one document. An empty body is refused.
 */
export async function bodyInputs(body: Uint8Array, contentType: string, format: FormatName | 'auto'): Promise<CollectedInput[]> {
  const binary = BINARY_TYPES.test(contentType.trim()) || BINARY_MAGIC.some((magic) => magic.every((b, i) => body[i] === b));
  if (body.byteLength === 0 || (!binary && isBlank(body)))
    throw new AppError('BAD_INPUT', 'empty body: send one JSON document, or NDJSON with one document per line');
  const whole = memorySource('body', body);
  if (binary || !/ndjson|jsonl|json-seq/i.test(contentType)) return [{ ok: true, path: 'body', input: { kind: 'file', file: whole } }];
  const detected = format === 'auto' ? detectFormat(await probeFile(whole)) : format;
  if (detected !== null && eventStreamFormats.includes(detected)) return [{ ok: true, path: 'body', input: { kind: 'file', file: whole } }];
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  return text
    .split(/\r?\n/)
    .flatMap((line, i) =>
      line.trim() === ''
        ? []
        : [{ ok: true as const, path: `line ${i + 1}`, input: { kind: 'file' as const, file: memorySource(`line ${i + 1}`, line) } }],
    );
}

/** What one body imports, and what to remove once it is imported (a zip of runs is expanded into a temporary directory). */
export interface BodyImport {
  inputs: AsyncIterable<CollectedInput> | CollectedInput[];
  dispose: () => Promise<void>;
}

/**
 * The inputs of one `POST /api/v1/trajectories` body, told apart by content: a zip archive that
 * is not an Inspect `.eval` (no `header.json`, `_journal/` or `samples/…_epoch_N.json` at its
 * root) is a zip of runs (a dropped folder or `.zip` from the import page), expanded with its
 * relative paths kept and collected as `witness import` collects a directory
 * (lib/ingest/expand-zip-of-runs.ts), each file within `maxFileBytes` (the CLI's import limit);
 * anything else is `bodyInputs`. Call `dispose` once the import is over, whatever its outcome.
 */
export async function bodyImport(
  body: Uint8Array,
  contentType: string,
  format: FormatName | 'auto',
  limits: { maxFileBytes: number; maxTotalBytes: number },
): Promise<BodyImport> {
  const entries = zipEntriesOf(body);
  if (entries && format !== 'inspect' && !isInspectArchive(entries)) return expandZipOfRuns(body, entries, { format, ...limits });
  return { inputs: await bodyInputs(body, contentType, format), dispose: () => Promise.resolve() };
}

function isBlank(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return false;
  return true;
}
