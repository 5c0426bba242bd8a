import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { PreparedTrajectory } from '../prepare-trajectory';
import type { RawSourceEncoding } from '../raw-source-codec';

/**
 * A prepared trajectory shaped into the rows the batch writer sends (no database): ids, the text
 * PostgreSQL can store, COPY text for steps, JSON for the small rows. See store-trajectory-batch.ts
 * for how they are written.
 *
 * Stored text: PostgreSQL text and jsonb cannot hold NUL characters (U+0000), and jsonb refuses
 * unpaired UTF-16 surrogates; both are stored as U+FFFD (agent output does contain them, e.g. a
 * `cat` of a binary file). The content hash is of the trajectory as parsed, so the same file
 * still deduplicates on re-import.
 */

export interface RawSource {
  sha256: string;
  path: string;
  format: string;
  sizeBytes: number;
  /** the bytes compressed (lib/ingest/raw-source-codec.ts) */
  content: Uint8Array;
  /** how `content` is compressed: what imports write is RAW_SOURCE_ENCODING */
  encoding: RawSourceEncoding;
  /**
   * How many trajectories the file holds, when known as its rows are written (a parse worker read
   * the whole file and every item is valid): stored with the source row (`import_source.itemCount`),
   * so the import need not update it afterwards. A re-import still skips the file only if that many
   * of its trajectories are stored (unchanged-sources.ts), so a batch that fails later cannot make it skip.
   */
  itemCount?: number | null;
}

export interface StoreResult {
  id: string;
  created: boolean;
}

export interface StoreOptions {
  source: RawSource | null;
  sourceWhere: string | null;
  importedById: string | null;
}

export type BatchOutcome =
  | ({ ok: true } & StoreResult)
  | { ok: false; error: unknown }
  /** the task exists in the other split: an import moves no task between train and eval (lib/ingest/store-trajectory.ts says so) */
  | { ok: false; splitConflict: { taskName: string; split: string } };

/** A trajectory shaped into rows, ready to send (no reference to the parsed trajectory is kept). Build it with `toStorable`. */
export interface StorableTrajectory {
  contentHash: string;
  /** the id the trajectory gets if it is created */
  id: string;
  taskName: string;
  split: 'train' | 'eval';
  splitExplicit: boolean;
  /** {name, instruction, split, metadata} of the task row to create, as JSON */
  taskJson: string;
  /** the task's acceptance criteria as JSON, or null when it has none */
  criteriaJson: string | null;
  environmentName: string | null;
  policyName: string;
  /** {name, model, checkpoint, agent} as JSON */
  policyJson: string;
  source: RawSource | null;
  /** the trajectory row (task, policy and source by name, resolved in SQL) as JSON */
  trajectoryJson: string;
  /** the step rows as COPY text (UTF-8), in pieces of about COPY_PIECE bytes */
  stepCopy: Buffer[];
  /** judge score rows as comma-joined JSON objects */
  judgeJson: string | null;
  terminal: { gzipped: Buffer; size: number } | null;
  /** about how many bytes this trajectory sends (the raw source not included) */
  bytes: number;
}

const COPY_PIECE = 1024 * 1024;
const gzipAsync = promisify(gzip);

// ------------------------------------------------------------------ ids and text

let randomPool = Buffer.alloc(0);
let randomAt = 0;
let counter = 0;
let lastMs = 0;
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A 25-character, cuid-shaped id ('c', time, counter, random), like Prisma's @default(cuid()).
 * Ids made by one thread increase (in byte order): the time never goes back and moves on a
 * millisecond when the counter wraps, so a file's trajectories listed by id come in the order
 * they were parsed (a re-import of an unchanged file reports them that way, import-trajectories.ts).
 */
export function newId(): string {
  if (randomAt + 12 > randomPool.length) {
    randomPool = randomBytes(12 * 1024);
    randomAt = 0;
  }
  let random = '';
  for (let i = 0; i < 12; i++) random += ALPHABET[randomPool[randomAt++]! % 36];
  counter = (counter + 1) % 1_679_616;
  const now = Date.now();
  if (now > lastMs) lastMs = now;
  else if (counter === 0) lastMs++;
  return `c${lastMs.toString(36).padStart(8, '0')}${counter.toString(36).padStart(4, '0')}${random}`;
}

const UNSTORABLE_CHAR = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_CHARS = new RegExp(UNSTORABLE_CHAR.source, 'g');

/** U+0000 and unpaired surrogates as U+FFFD: what PostgreSQL text can hold. */
export function storableText(s: string): string {
  return UNSTORABLE_CHAR.test(s) ? s.replace(UNSTORABLE_CHARS, '\uFFFD') : s;
}

// JSON.stringify writes NUL as \u0000 and an unpaired surrogate as \udXXX (paired ones stay
// literal); an escaped backslash before them ("\\u0000" is the text \u0000) is left alone.
const UNSTORABLE_ESCAPES = /(?<!\\)((?:\\\\)*)\\u(?:0000|d[89a-f][0-9a-f]{2})/g;

/** JSON text that PostgreSQL json, jsonb and text accept (see the header). */
export function storableJson(value: unknown): string {
  return storableJsonText(JSON.stringify(value));
}
const MAYBE_UNSTORABLE_ESCAPE = /\\u(?:0000|d[89a-f])/;
function storableJsonText(json: string): string {
  return MAYBE_UNSTORABLE_ESCAPE.test(json) ? json.replace(UNSTORABLE_ESCAPES, '$1\\ufffd') : json;
}

const COPY_SPECIAL = /[\\\n\r\t]/;
const COPY_SPECIALS = /[\\\n\r\t]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A value in COPY's text format (NULL is \N). */
export function copyField(v: string | number | null): string {
  if (v === null) return '\\N';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '\\N';
  return COPY_SPECIAL.test(v) ? v.replace(COPY_SPECIALS, (c) => COPY_ESCAPES[c]!) : v;
}

// UTC ISO times that need no normalising (days up to 28: JavaScript rolls 2025-02-31 over, PostgreSQL refuses it)
const CANONICAL_UTC = /^[1-9]\d{3}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,3})?Z$/;

// a COPY text field for text (fast path: nothing to replace or escape)
const TEXT_WORK = /[\0\\\n\r\t\uD800-\uDFFF]/;
function copyText(s: string | null): string {
  if (s === null) return '\\N';
  if (!TEXT_WORK.test(s)) return s;
  return storableText(s).replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
}

// a COPY text field for JSON: JSON.stringify escapes control characters, so only backslashes need doubling
function copyJson(value: unknown): string {
  return value === null ? '\\N' : doubledBackslashes(storableJson(value));
}

// the same for JSON text already written by JSON.stringify's rules (`null` is SQL NULL)
function copyJsonText(json: string): string {
  return json === 'null' ? '\\N' : doubledBackslashes(storableJsonText(json));
}

const doubledBackslashes = (json: string) => (json.includes('\\') ? json.replaceAll('\\', '\\\\') : json);

function isoOrNull(iso: string | null): string | null {
  if (!iso) return null;
  if (CANONICAL_UTC.test(iso)) return iso; // already UTC, as PostgreSQL reads it
  const d = new Date(iso);
  // to UTC: the columns are timestamp(3) without time zone, written in UTC (as Prisma does)
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

// ------------------------------------------------------------------ shaping (no database)

/** Shapes a prepared trajectory into rows: no database; async only for the terminal recording's gzip. */
export async function toStorable(prepared: PreparedTrajectory, options: StoreOptions): Promise<StorableTrajectory> {
  const t = prepared.trajectory;
  const id = newId();
  const taskName = storableText(t.task.name);
  const policyName = storableText(prepared.policyName);
  const environmentName = prepared.environmentName === null ? null : storableText(prepared.environmentName);
  const stepCopy: Buffer[] = [];
  let rows: string[] = [];
  let pieceLength = 0;
  let bytes = 0;
  for (let i = 0; i < t.steps.length; i++) {
    const s = t.steps[i]!;
    // the JSON columns as the content hash wrote them (same values; jsonb keeps no key order), else written here
    const json = prepared.stepJson?.[i];
    const row =
      `${newId()}\t${id}\t${s.index}\t${copyText(s.source)}\t${copyText(s.text)}\t${copyText(s.reasoning)}\t` +
      `${json ? copyJsonText(json.toolCalls) : copyJson(s.toolCalls)}\t${json ? copyJsonText(json.observations) : copyJson(s.observations)}\t` +
      `${copyText(isoOrNull(s.timestamp))}\t${copyField(s.castTime)}\t${json ? copyJsonText(json.usage) : copyJson(s.usage)}\n`;
    rows.push(row);
    pieceLength += row.length;
    if (pieceLength >= COPY_PIECE) {
      stepCopy.push(Buffer.from(rows.join('')));
      bytes += pieceLength;
      rows = [];
      pieceLength = 0;
    }
  }
  if (rows.length > 0) stepCopy.push(Buffer.from(rows.join('')));
  bytes += pieceLength;
  const trajectoryJson = storableJson({
    id,
    task: taskName,
    policy: policyName,
    sha: options.source?.sha256 ?? null,
    format: t.format,
    ext: t.externalId,
    hash: prepared.contentHash,
    n: t.steps.length,
    reward: t.verifier?.reward ?? null,
    comp: t.verifier?.components ?? {},
    usage: t.usage,
    sub: t.submission,
    exit: t.exitStatus,
    started: isoOrNull(t.startedAt),
    ended: isoOrNull(t.endedAt),
    meta: t.metadata,
    wh: options.sourceWhere,
    by: options.importedById,
  });
  const judgeJson =
    t.judgeScores.length > 0
      ? t.judgeScores
          .map((j) => storableJson({ id: newId(), tr: id, judge: j.judge, score: j.score, label: j.label, expl: j.explanation }))
          .join(',')
      : null;
  let terminal: StorableTrajectory['terminal'] = null;
  if (t.terminal) {
    const json = Buffer.from(JSON.stringify(t.terminal));
    terminal = { gzipped: await gzipAsync(json), size: json.byteLength };
  }
  const taskJson = storableJson({ name: taskName, instruction: t.task.instruction, split: prepared.split, metadata: t.task.metadata });
  const policyJson = storableJson({ name: policyName, model: t.policy.model, checkpoint: t.policy.checkpoint, agent: t.policy.agent });
  bytes += trajectoryJson.length + taskJson.length + (judgeJson?.length ?? 0) + (terminal?.gzipped.byteLength ?? 0) + 200;
  return {
    contentHash: prepared.contentHash,
    id,
    taskName,
    split: prepared.split,
    splitExplicit: prepared.splitExplicit,
    taskJson,
    criteriaJson: t.task.acceptanceCriteria.length > 0 ? storableJson(t.task.acceptanceCriteria) : null,
    environmentName,
    policyName,
    policyJson,
    source: options.source,
    trajectoryJson,
    stepCopy,
    judgeJson,
    terminal,
    bytes,
  };
}
