import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { AppError } from '../errors';

/**
 * Streams the records of a tabular file, JSONL (one JSON object per line) or CSV with a
 * header row (quoted fields with "" escapes, quoted newlines allowed), line by line. The format
 * comes from the extension (.csv; .jsonl, .ndjson, .json) or else from the first non-blank line
 * (`{` means JSONL). Blank lines are skipped. CSV fields are strings; JSONL fields are as parsed.
 * `visit` is called once per record, in file order.
 * Errors are BAD_INPUT with the file and line: `ratings.csv line 7: expected 3 fields, got 2`.
 */
export type RecordFormat = 'jsonl' | 'csv';

export interface FileRecord {
  /** 1-based line where the record starts */
  line: number;
  fields: Record<string, unknown>;
}

export async function forEachRecord(
  filePath: string,
  columns: readonly string[],
  visit: (record: FileRecord & { format: RecordFormat }) => void,
  /** how messages name the file; default the path */
  label: string = filePath,
): Promise<void> {
  await fileSize(filePath, label);
  const lower = filePath.toLowerCase();
  let format: RecordFormat | null = lower.endsWith('.csv') ? 'csv' : /\.(jsonl|ndjson|json)$/.test(lower) ? 'jsonl' : null;
  const fail = lineFailer(label);
  const expectedObject = `expected a JSON object with ${columns.map((c) => `"${c}"`).join(', ')}`;

  let lineNo = 0;
  let header: string[] | null = null;
  let columnIndex: number[] = [];
  let pending: string | null = null; // a CSV record whose quoted field spans lines
  let pendingLine = 0;

  const onLine = (raw: string) => {
    lineNo++;
    let text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (pending === null && text.trim() === '') return;
    format ??= text.trimStart().startsWith('{') ? 'jsonl' : 'csv';

    if (format === 'jsonl') {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        fail(lineNo, `${expectedObject}; the line is not valid JSON`);
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(lineNo, expectedObject);
      visit({ line: lineNo, fields: value as Record<string, unknown>, format });
      return;
    }

    const startLine = pending === null ? lineNo : pendingLine;
    const record: string = pending === null ? text : `${pending}\n${text}`;
    const fields = splitCsv(record);
    if (fields === null) {
      pending = record;
      pendingLine = startLine;
      return;
    }
    pending = null;
    if (header === null) {
      header = fields.map((f) => f.trim().toLowerCase());
      columnIndex = columns.map((c) => header!.indexOf(c));
      const missing = columns.filter((_, i) => columnIndex[i]! < 0);
      if (missing.length > 0) {
        fail(startLine, `expected a CSV header with columns ${columns.join(', ')}; missing ${missing.join(', ')}`);
      }
      return;
    }
    if (fields.length !== header.length) {
      fail(startLine, `expected ${header.length} fields (${header.join(', ')}), got ${fields.length}`);
    }
    const out: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) out[columns[i]!] = fields[columnIndex[i]!]!;
    visit({ line: startLine, fields: out, format });
  };

  // Stream in chunks and split lines here: much cheaper than one async step per line.
  let carry = '';
  for await (const chunk of createReadStream(filePath, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const text = carry + (chunk as string);
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      onLine(text.slice(start, nl));
      start = nl + 1;
    }
    carry = text.slice(start);
  }
  if (carry !== '') onLine(carry);
  if (pending !== null) fail(pendingLine, 'a quoted CSV field is never closed');
  if (format === 'csv' && header === null && lineNo > 0) fail(1, `expected a CSV header with columns ${columns.join(', ')}`);
}

/** Splits one CSV record; null when a quoted field is still open at the end (continues on the next line). */
export function splitCsv(text: string): string[] | null {
  if (!text.includes('"')) return text.split(',');
  const out: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += ch;
      i++;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(field);
      field = '';
    } else field += ch;
    i++;
  }
  if (quoted) return null;
  out.push(field);
  return out;
}

/** A file's size; NOT_FOUND when there is none, BAD_INPUT when it is not a file (a folder). */
export async function fileSize(filePath: string, label: string): Promise<number> {
  try {
    const info = await stat(filePath);
    if (!info.isFile()) throw new AppError('BAD_INPUT', `Cannot read ${label}: not a file`);
    return info.size;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('NOT_FOUND', `Cannot read ${label}: no such file`, { cause: error });
  }
}

/** The error for a line of a file: `ratings.csv line 7: expected 3 fields, got 2` (BAD_INPUT, details.line). */
export function lineError(label: string, line: number, message: string): AppError {
  return new AppError('BAD_INPUT', `${label} line ${line}: ${message}`, { details: { line } });
}

/** Throws the lineError for a line of the file `label` names. */
export function lineFailer(label: string): (line: number, message: string) => never {
  return (line, message) => {
    throw lineError(label, line, message);
  };
}

/** One shared string per distinct text read (names, keys): saves memory and makes later lookups cheap. */
export function stringInterner(): (text: string) => string {
  const known = new Map<string, string>();
  return (text) => {
    const shared = known.get(text);
    if (shared !== undefined) return shared;
    known.set(text, text);
    return text;
  };
}

/** Where the text of a file's bytes starts: after a UTF-8 byte order mark. */
export function bomLength(buf: Buffer): number {
  return buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
}

/**
 * A whole file's format: by its extension (.csv; .jsonl, .ndjson, .json), else by its first
 * non-blank byte after a BOM (`{` is JSONL).
 */
export function formatOfBytes(filePath: string, buf: Buffer): RecordFormat {
  const lower = filePath.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (/\.(jsonl|ndjson|json)$/.test(lower)) return 'jsonl';
  let i = bomLength(buf);
  while (i < buf.length && (buf[i] === 32 || buf[i] === 9 || buf[i] === 10 || buf[i] === 13)) i++;
  return buf[i] === 123 ? 'jsonl' : 'csv';
}

const MAX_WHOLE_FILE_BYTES = 2 ** 31 - 1;

/**
 * The bytes of a CSV file that `scanCsvRows` can read (no quote character anywhere: the
 * common, machine-written case), or null when `forEachRecord` must (JSONL, quoted CSV, over
 * 2 GiB). The format is decided as `forEachRecord` decides it; the same errors for a missing file.
 */
export async function readPlainCsv(filePath: string, label: string = filePath): Promise<Buffer | null> {
  const size = await fileSize(filePath, label);
  if (/\.(jsonl|ndjson|json)$/.test(filePath.toLowerCase()) || size > MAX_WHOLE_FILE_BYTES) return null;
  const buf = await readFile(filePath);
  if (buf.indexOf(34) >= 0) return null; // a quote: the general splitter
  return formatOfBytes(filePath, buf) === 'csv' ? buf : null;
}

/**
 * Byte-level CSV rows of a file `readPlainCsv` returned, as `forEachRecord` reads them (header
 * row, columns by name in any order, blank lines skipped, CRLF, a BOM; the same errors with
 * the same lines), without a string per line or field: `visit(line, start, end)` gets, for each
 * of `columns` in order, the byte range of its field (untrimmed) in `buf`. The arrays are reused.
 */
export function scanCsvRows(
  buf: Buffer,
  columns: readonly string[],
  label: string,
  visit: (line: number, start: Int32Array, end: Int32Array) => void,
): void {
  const fail = lineFailer(label);
  const n = buf.length;
  const start = new Int32Array(columns.length);
  const end = new Int32Array(columns.length);
  let role = new Int32Array(0); // field index -> column index, or -1
  let header: string[] | null = null;
  let pos = bomLength(buf);
  let line = 0;
  while (pos < n) {
    line++;
    const lineStart = pos;
    let field = 0;
    let fieldStart = pos;
    let i = pos;
    let blank = true;
    for (; i < n; i++) {
      const c = buf[i]!;
      if (c === 10) break;
      if (c === 44) {
        if (header !== null && field < role.length && role[field]! >= 0) {
          start[role[field]!] = fieldStart;
          end[role[field]!] = i;
        }
        field++;
        fieldStart = i + 1;
        blank = false;
      } else if (blank && c !== 32 && c !== 9 && c !== 13) blank = false;
    }
    const lineEnd = i > lineStart && buf[i - 1] === 13 ? i - 1 : i;
    pos = i + 1;
    if (blank) continue;
    if (header === null) {
      header = splitCsv(buf.toString('utf8', lineStart, lineEnd))!.map((f) => f.trim().toLowerCase());
      const index = columns.map((c) => header!.indexOf(c));
      const missing = columns.filter((_, k) => index[k]! < 0);
      if (missing.length > 0) fail(line, `expected a CSV header with columns ${columns.join(', ')}; missing ${missing.join(', ')}`);
      role = new Int32Array(header.length).fill(-1);
      index.forEach((f, k) => (role[f] = k));
      continue;
    }
    if (field < role.length && role[field]! >= 0) {
      start[role[field]!] = fieldStart;
      end[role[field]!] = lineEnd;
    }
    if (field + 1 !== header.length) fail(line, `expected ${header.length} fields (${header.join(', ')}), got ${field + 1}`);
    visit(line, start, end);
  }
  if (header === null && line > 0) fail(1, `expected a CSV header with columns ${columns.join(', ')}`);
}
