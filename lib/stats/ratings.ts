import { AppError } from '../errors';

/**
 * The shared input of every agreement coefficient: one rating per (unit, rater), as in a
 * reliability data file. Missing ratings are simply absent. Values are numbers, or strings
 * (strings only make sense at the nominal level).
 *
 * `encodeRatings` maps units, raters and values to dense integer ids once, and groups the
 * ratings by unit in typed arrays (CSR layout); every coefficient works from that.
 */
export type RatingKey = string | number;
export type RatingValue = number | string;

export interface Rating {
  unit: RatingKey;
  rater: RatingKey;
  value: RatingValue;
}

/**
 * Ratings as three parallel columns (rating i is unit[i], rater[i], value[i]): what a ratings file
 * reads into. A million rating objects cost the `agreement` command 382 of its 805 ms in garbage
 * collection (--cpu-prof); columns of small integers hold no object per rating.
 */
export interface RatingColumns {
  unit: RatingKey[];
  rater: RatingKey[];
  value: RatingValue[];
}

/** The ratings of `columns` as objects (tests, small data). */
export function ratingRows(columns: RatingColumns): Rating[] {
  return columns.unit.map((unit, i) => ({ unit, rater: columns.rater[i]!, value: columns.value[i]! }));
}

function toColumns(ratings: readonly Rating[]): RatingColumns {
  const n = ratings.length;
  const columns: RatingColumns = { unit: new Array(n), rater: new Array(n), value: new Array(n) };
  for (let i = 0; i < n; i++) {
    const r = ratings[i]!;
    columns.unit[i] = r.unit;
    columns.rater[i] = r.rater;
    columns.value[i] = r.value;
  }
  return columns;
}

export type MeasurementLevel = 'nominal' | 'ordinal' | 'interval' | 'ratio';
export const measurementLevels: readonly MeasurementLevel[] = ['nominal', 'ordinal', 'interval', 'ratio'];

export interface EncodedRatings {
  /** unit labels in order of first appearance; a unit id indexes this */
  units: RatingKey[];
  /** rater labels in order of first appearance */
  raters: RatingKey[];
  /** distinct values, sorted (numbers ascending, then strings); a category code indexes this */
  categories: RatingValue[];
  /** the numeric value of each category, or null when some value is a string */
  numeric: Float64Array | null;
  nRatings: number;
  /** ratings of unit u are positions unitStart[u] .. unitStart[u+1]-1 of `rater` and `code` */
  unitStart: Int32Array;
  rater: Int32Array;
  code: Int32Array;
}

function describe(key: unknown): string {
  return typeof key === 'string' ? JSON.stringify(key) : String(key);
}

function isKey(key: unknown): key is RatingKey {
  return typeof key === 'string' || (typeof key === 'number' && Number.isFinite(key));
}

/** Compares values: numbers ascending, then strings by code unit. */
export function compareValues(a: RatingValue, b: RatingValue): number {
  if (typeof a === 'number') return typeof b === 'number' ? a - b : -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Validates and encodes ratings. Throws BAD_INPUT when a field has the wrong type or a rater
 * rated the same unit twice. Cost: O(ratings) plus sorting the distinct values. Files usually
 * list each unit's ratings together, raters in a fixed order: that layout takes a fast path
 * (no per-rating unit lookup, raters guessed from the previous one); any other order works too.
 */
export function encodeRatings(ratings: readonly Rating[] | RatingColumns): EncodedRatings {
  const columns = isColumns(ratings) ? ratings : toColumns(ratings);
  return encodeContiguous(columns) ?? encodeAnyOrder(columns);
}

function isColumns(ratings: readonly Rating[] | RatingColumns): ratings is RatingColumns {
  return !Array.isArray(ratings);
}

/**
 * Dense ids for keys: small non-negative integers (the usual ids) go through a direct array,
 * anything else through a Map. `1` and `"1"` are different keys.
 */
class KeyIndex<K extends RatingKey> {
  readonly keys: K[] = [];
  private readonly map = new Map<K, number>();
  private direct = new Int32Array(1024).fill(-1);

  constructor(private readonly directLimit: number) {}

  find(key: K): number {
    if (typeof key === 'number' && key >= 0 && key < this.direct.length && (key | 0) === key) return this.direct[key]!;
    return this.map.get(key) ?? -1;
  }

  /** Adds a key that `find` did not find; returns its id. */
  add(key: K): number {
    const id = this.keys.length;
    this.keys.push(key);
    if (typeof key === 'number' && key >= 0 && (key | 0) === key && key < this.directLimit) {
      if (key >= this.direct.length) {
        const grown = new Int32Array(Math.min(this.directLimit, Math.max(key + 1, this.direct.length * 2))).fill(-1);
        grown.set(this.direct);
        this.direct = grown;
      }
      this.direct[key] = id;
    } else this.map.set(key, id);
    return id;
  }
}

/** Dense ids for units, raters and values, shared by both encoding paths. */
class KeyTables {
  readonly units: KeyIndex<RatingKey>;
  readonly raters = new KeyIndex<RatingKey>(1 << 16);
  readonly values = new KeyIndex<RatingValue>(1 << 16);
  private previousRater = -1;

  constructor(nRatings: number) {
    this.units = new KeyIndex<RatingKey>(Math.max(1 << 16, 4 * nRatings));
  }

  unitId(unit: RatingKey, index: number): number {
    const found = this.units.find(unit);
    if (found >= 0) return found;
    if (!isKey(unit)) throw new AppError('BAD_INPUT', `Rating ${index + 1}: unit must be a string or a finite number`);
    return this.units.add(unit);
  }

  raterId(rater: RatingKey, index: number): number {
    // raters usually come in the same order in every unit: try the one after the previous
    let a = this.previousRater + 1;
    const keys = this.raters.keys;
    if (a >= keys.length || keys[a] !== rater) {
      a = this.raters.find(rater);
      if (a < 0) {
        if (!isKey(rater)) throw new AppError('BAD_INPUT', `Rating ${index + 1}: rater must be a string or a finite number`);
        a = this.raters.add(rater);
      }
    }
    this.previousRater = a;
    return a;
  }

  valueId(value: RatingValue, index: number): number {
    const v = this.values.find(value);
    if (v >= 0) return v;
    if (!isKey(value)) throw new AppError('BAD_INPUT', `Rating ${index + 1}: value must be a string or a finite number`);
    return this.values.add(value);
  }

  /** Sorts the values; returns the categories and the code of each provisional value id. */
  categories(): { categories: RatingValue[]; numeric: Float64Array | null; codeOfValue: Int32Array } {
    const values = this.values.keys;
    const order = values.map((_, i) => i).sort((x, y) => compareValues(values[x]!, values[y]!));
    const codeOfValue = new Int32Array(values.length);
    for (let rank = 0; rank < order.length; rank++) codeOfValue[order[rank]!] = rank;
    const categories = order.map((i) => values[i]!);
    const numeric = categories.every((c) => typeof c === 'number') ? Float64Array.from(categories as number[]) : null;
    return { categories, numeric, codeOfValue };
  }
}

function duplicate(unit: RatingKey, rater: RatingKey): AppError {
  return new AppError(
    'BAD_INPUT',
    `Unit ${describe(unit)} has more than one rating from rater ${describe(rater)}; each rater rates a unit at most once`,
  );
}

/** Fast path: every unit's ratings are consecutive. Returns null as soon as they are not. */
function encodeContiguous(ratings: RatingColumns): EncodedRatings | null {
  const n = ratings.unit.length;
  const tables = new KeyTables(n);
  const starts: number[] = [];
  const lastUnitOfRater: number[] = [];
  const rater = new Int32Array(n);
  const code = new Int32Array(n);
  let previousUnit: unknown = undefined;
  let u = -1;
  for (let i = 0; i < n; i++) {
    const unit = ratings.unit[i]!;
    if (unit !== previousUnit || u < 0) {
      if (tables.units.find(unit) >= 0) return null;
      u = tables.unitId(unit, i);
      starts.push(i);
      previousUnit = unit;
    }
    const a = tables.raterId(ratings.rater[i]!, i);
    if (a === lastUnitOfRater.length) lastUnitOfRater.push(-1);
    if (lastUnitOfRater[a] === u) throw duplicate(unit, ratings.rater[i]!);
    lastUnitOfRater[a] = u;
    rater[i] = a;
    code[i] = tables.valueId(ratings.value[i]!, i);
  }
  starts.push(n);
  const { categories, numeric, codeOfValue } = tables.categories();
  for (let i = 0; i < n; i++) code[i] = codeOfValue[code[i]!]!;
  const units = tables.units.keys;
  return { units, raters: tables.raters.keys, categories, numeric, nRatings: n, unitStart: Int32Array.from(starts), rater, code };
}

/** General path: any order; groups by unit with a stable counting sort. */
function encodeAnyOrder(ratings: RatingColumns): EncodedRatings {
  const n = ratings.unit.length;
  const tables = new KeyTables(n);
  const unitOf = new Int32Array(n);
  const raterOf = new Int32Array(n);
  const valueOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    unitOf[i] = tables.unitId(ratings.unit[i]!, i);
    raterOf[i] = tables.raterId(ratings.rater[i]!, i);
    valueOf[i] = tables.valueId(ratings.value[i]!, i);
  }
  const units = tables.units.keys;
  const { categories, numeric, codeOfValue } = tables.categories();

  const nUnits = units.length;
  const unitStart = new Int32Array(nUnits + 1);
  for (let i = 0; i < n; i++) unitStart[unitOf[i]! + 1]!++;
  for (let u = 0; u < nUnits; u++) unitStart[u + 1]! += unitStart[u]!;
  const fill = unitStart.slice(0, nUnits);
  const rater = new Int32Array(n);
  const code = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const pos = fill[unitOf[i]!]!++;
    rater[pos] = raterOf[i]!;
    code[pos] = codeOfValue[valueOf[i]!]!;
  }

  // A rater rates a unit at most once.
  const seenIn = new Int32Array(tables.raters.keys.length).fill(-1);
  for (let u = 0; u < nUnits; u++) {
    for (let p = unitStart[u]!; p < unitStart[u + 1]!; p++) {
      const a = rater[p]!;
      if (seenIn[a] === u) throw duplicate(units[u]!, tables.raters.keys[a]!);
      seenIn[a] = u;
    }
  }
  return { units, raters: tables.raters.keys, categories, numeric, nRatings: n, unitStart, rater, code };
}

/** Throws unless every value is numeric (strings are only meaningful at the nominal level). */
export function requireNumeric(data: EncodedRatings, what: string): Float64Array {
  if (data.numeric) return data.numeric;
  const example = data.categories.find((c) => typeof c === 'string');
  throw new AppError('BAD_INPUT', `${what} needs numeric values; the data has strings such as ${describe(example)}`);
}

/** Human label of a key for error messages. */
export function describeKey(key: RatingKey | RatingValue | undefined): string {
  return describe(key);
}

/** "a, b, c" (the first ten, then a count), for error messages. */
export function listKeys(keys: readonly RatingKey[]): string {
  const shown = keys.slice(0, 10).map((k) => String(k));
  return keys.length > 10 ? `${shown.join(', ')} and ${keys.length - 10} more` : shown.join(', ');
}
