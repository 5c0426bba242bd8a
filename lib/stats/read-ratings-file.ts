import { AppError } from '../errors';
import type { Rating, RatingValue } from './ratings';
import { forEachRecord } from './read-records';

/**
 * Reads reliability data from JSONL (`{"unit": …, "rater": …, "value": …}` per line) or CSV with
 * columns unit, rater, value (any order, extra columns ignored), streaming line by line.
 *
 * Missing ratings: `"value": null` in JSONL; an empty value, `NA` or `.` in CSV. They are
 * skipped. CSV values that read as numbers become numbers, others stay strings; CSV units and
 * raters stay strings except canonical integers ("0", "17", not "017"), which become numbers
 * (lossless, and the common case the encoder handles fastest). JSONL keeps the JSON types (so
 * "3" is a string there).
 */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const CSV_MISSING = new Set(['', 'NA', '.']);
const CANONICAL_INTEGER = /^(0|[1-9]\d{0,14})$/;

export async function readRatingsFile(filePath: string, label: string = filePath): Promise<Rating[]> {
  const ratings: Rating[] = [];
  const fail = (line: number, message: string): never => {
    throw new AppError('BAD_INPUT', `${label} line ${line}: ${message}`, { details: { line } });
  };
  // One shared string per distinct unit / rater: saves memory and makes later lookups cheap.
  const keys = new Map<string, string>();
  const intern = (key: string) => {
    const known = keys.get(key);
    if (known !== undefined) return known;
    keys.set(key, key);
    return key;
  };
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
        ratings.push({
          unit: typeof unit === 'string' ? intern(unit) : (unit as number),
          rater: typeof rater === 'string' ? intern(rater) : (rater as number),
          value: value as RatingValue,
        });
        return;
      }
      const unit = (fields.unit as string).trim();
      const rater = (fields.rater as string).trim();
      const raw = (fields.value as string).trim();
      if (unit === '') fail(line, 'expected a unit, got an empty field');
      if (rater === '') fail(line, 'expected a rater, got an empty field');
      if (CSV_MISSING.has(raw)) return;
      ratings.push({
        unit: CANONICAL_INTEGER.test(unit) ? Number(unit) : intern(unit),
        rater: CANONICAL_INTEGER.test(rater) ? Number(rater) : intern(rater),
        value: NUMBER.test(raw) ? Number(raw) : raw,
      });
    },
    label,
  );
  if (ratings.length === 0) throw new AppError('BAD_INPUT', `${label}: no ratings found`);
  return ratings;
}

function isKey(v: unknown): boolean {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}
