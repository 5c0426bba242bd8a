import { AppError } from '../errors';
import type { RatingColumns, RatingKey, RatingValue } from './ratings';
import { parseDecimal } from './read-estimate-file';
import { forEachRecord, lineFailer, readPlainCsv, scanCsvRows, stringInterner } from './read-records';

/**
 * Reads reliability data from JSONL (`{"unit": …, "rater": …, "value": …}` per line) or CSV with
 * columns unit, rater, value (any order, extra columns ignored), streaming line by line.
 *
 * Missing ratings: `"value": null` in JSONL; an empty value, `NA` or `.` in CSV. They are
 * skipped. CSV values that read as numbers become numbers, others stay strings; CSV units and
 * raters stay strings except canonical integers ("0", "17", not "017"), which become numbers
 * (lossless, and the common case the encoder handles fastest). JSONL keeps the JSON types (so
 * "3" is a string there).
 *
 * Speed: a CSV without quotes (what scripts write) is read whole and scanned byte by byte
 * (`scanCsvRows`); canonical integer keys and plain decimal values are parsed from the bytes,
 * strings decoded only for keys that are not integers (once per distinct key) and for values
 * that are not numbers. Anything else takes the general reader, with the same results.
 */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const CSV_MISSING = new Set(['', 'NA', '.']);
const CANONICAL_INTEGER = /^(0|[1-9]\d{0,14})$/;

export async function readRatingsFile(filePath: string, label: string = filePath): Promise<RatingColumns> {
  // columns, not an object a rating (RatingColumns)
  let columns: RatingColumns = { unit: [], rater: [], value: [] };
  let n = 0;
  const add = (unit: RatingKey, rater: RatingKey, value: RatingValue) => {
    columns.unit[n] = unit;
    columns.rater[n] = rater;
    columns.value[n++] = value;
  };
  const fail = lineFailer(label);
  const intern = stringInterner();
  const plain = await readPlainCsv(filePath, label);
  if (plain) {
    // at most a rating a line: the columns are allocated once and cut to length after (grown a value at a time, they
    // cost 283 ms of a 565 ms run, --cpu-prof)
    let lines = 1;
    for (let i = plain.indexOf(10); i >= 0; i = plain.indexOf(10, i + 1)) lines++;
    columns = { unit: new Array(lines), rater: new Array(lines), value: new Array(lines) };
    readPlainRatings(plain, label, add, intern, fail);
  } else {
    await forEachRecord(
      filePath,
      ['unit', 'rater', 'value'],
      ({ line, fields, format }) => {
        if (format === 'jsonl') {
          const { unit, rater, value } = fields;
          if (!isKey(unit)) fail(line, 'expected "unit" to be a string or a number');
          if (!isKey(rater)) fail(line, 'expected "rater" to be a string or a number');
          if (value === null) return;
          if (!isKey(value)) fail(line, 'expected "value" to be a number, a string or null (missing)');
          add(
            typeof unit === 'string' ? intern(unit) : (unit as number),
            typeof rater === 'string' ? intern(rater) : (rater as number),
            value as RatingValue,
          );
          return;
        }
        const unit = (fields.unit as string).trim();
        const rater = (fields.rater as string).trim();
        const raw = (fields.value as string).trim();
        if (unit === '') fail(line, 'expected a unit, got an empty field');
        if (rater === '') fail(line, 'expected a rater, got an empty field');
        if (CSV_MISSING.has(raw)) return;
        add(
          CANONICAL_INTEGER.test(unit) ? Number(unit) : intern(unit),
          CANONICAL_INTEGER.test(rater) ? Number(rater) : intern(rater),
          NUMBER.test(raw) ? Number(raw) : raw,
        );
      },
      label,
    );
  }
  columns.unit.length = columns.rater.length = columns.value.length = n;
  if (n === 0) throw new AppError('BAD_INPUT', `${label}: no ratings found`);
  return columns;
}

function isKey(v: unknown): boolean {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** CSV ratings from bytes (see the header): the same values the general path gives. */
function readPlainRatings(
  buf: Buffer,
  label: string,
  add: (unit: RatingKey, rater: RatingKey, value: RatingValue) => void,
  intern: (key: string) => string,
  fail: (line: number, message: string) => never,
): void {
  // a key's string per its bytes, for keys that are not canonical integers (raters, usually few)
  const recent = new Map<string, string | number>();
  const key = (s: number, e: number): string | number => {
    while (s < e && (buf[s] === 32 || buf[s] === 9)) s++;
    while (e > s && (buf[e - 1] === 32 || buf[e - 1] === 9)) e--;
    const len = e - s;
    if (len > 0 && len <= 15 && (buf[s] !== 48 || len === 1)) {
      let v = 0;
      let i = s;
      for (; i < e; i++) {
        const c = buf[i]! - 48;
        if (c < 0 || c > 9) break;
        v = v * 10 + c;
      }
      if (i === e) return v;
    }
    const text = buf.toString('utf8', s, e).trim();
    const known = recent.get(text);
    if (known !== undefined) return known;
    const k = CANONICAL_INTEGER.test(text) ? Number(text) : intern(text);
    recent.set(text, k);
    return k;
  };
  scanCsvRows(buf, ['unit', 'rater', 'value'], label, (line, start, end) => {
    const unit = key(start[0]!, end[0]!);
    if (unit === '') fail(line, 'expected a unit, got an empty field');
    const rater = key(start[1]!, end[1]!);
    if (rater === '') fail(line, 'expected a rater, got an empty field');
    let s = start[2]!;
    let e = end[2]!;
    while (s < e && (buf[s] === 32 || buf[s] === 9)) s++;
    while (e > s && (buf[e - 1] === 32 || buf[e - 1] === 9)) e--;
    if (s === e || (e - s === 1 && buf[s] === 46) || (e - s === 2 && buf[s] === 78 && buf[s + 1] === 65)) return; // '', '.', 'NA'
    let value: RatingValue = parseDecimal(buf, s, e);
    if (Number.isNaN(value)) {
      const raw = buf.toString('utf8', start[2]!, end[2]!).trim();
      if (CSV_MISSING.has(raw)) return;
      value = NUMBER.test(raw) ? Number(raw) : raw;
    }
    add(unit, rater, value);
  });
}
