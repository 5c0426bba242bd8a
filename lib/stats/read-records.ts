import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
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
  try {
    const info = await stat(filePath);
    if (!info.isFile()) throw new AppError('BAD_INPUT', `Cannot read ${label}: not a file`);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('NOT_FOUND', `Cannot read ${label}: no such file`, { cause: error });
  }
  const lower = filePath.toLowerCase();
  let format: RecordFormat | null = lower.endsWith('.csv') ? 'csv' : /\.(jsonl|ndjson|json)$/.test(lower) ? 'jsonl' : null;
  const fail = (line: number, message: string): never => {
    throw new AppError('BAD_INPUT', `${label} line ${line}: ${message}`, { details: { line } });
  };
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
