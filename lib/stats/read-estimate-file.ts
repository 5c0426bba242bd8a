import { readFile } from 'node:fs/promises';
import { AppError } from '../errors';
import { bomLength, fileSize, formatOfBytes, lineError, splitCsv } from './read-records';

/**
 * Reads the input of `witness estimate`: one item per record, JSONL
 * (`{"item": …, "prediction": 0.83, "label": 1, "probability": 0.2, "group": "env-a"}`) or CSV
 * with a header naming the columns (any order, other columns ignored):
 *   item         the item's id (non-empty; unique within its group)
 *   prediction   the predictor's score in [0, 1] (required)
 *   label        the human verdict, 0 or 1 (a fraction for a tie, e.g. 0.5); empty / NA / . /
 *                null or absent when the item was not reviewed
 *   probability  the probability the item had of being chosen for review, in (0, 1]; optional,
 *                but within a group every item has one or none does
 *   group        the figure the item belongs to (optional; absent or empty: no group)
 * Errors are BAD_INPUT with the file and line: `scores.csv line 7: expected "prediction" to be a number in [0, 1], got "1.2"`.
 *
 * Speed: the whole file is read into one Buffer and scanned byte by byte (CSV); numbers in
 * plain decimal notation are parsed from the bytes (correctly rounded: an integer mantissa of
 * at most 15 digits divided or multiplied by an exact power of ten), anything else through
 * Number(). Quoted CSV fields take the general splitter. Duplicate items are found with a
 * hash table over the id bytes (no string per item). A million items read in well under a second.
 *
 * The reading goes through named states: the items collected so far (`EstimateItems`: rows,
 * groups, ids), the CSV header (`csvHeader`), the CSV rows (`readCsvRows`; a quoted row
 * `readQuotedRow`) or the JSONL lines (`readJsonlRows`), and the finish (`EstimateItems.finish`:
 * the duplicate check `findRepeat`, then the columns per group).
 */
export interface EstimateGroupColumns {
  /** null when the items have no group */
  group: string | null;
  prediction: Float64Array;
  /** NaN where not reviewed */
  label: Float64Array;
  /** null when the group's items carry no probability */
  probability: Float64Array | null;
}

const COLUMNS = ['item', 'prediction', 'label', 'probability', 'group'] as const;
type Column = (typeof COLUMNS)[number];
const ROLE: Record<Column, number> = { item: 0, prediction: 1, label: 2, probability: 3, group: 4 };
const MAX_BYTES = 2 ** 31 - 1;
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i); // exact up to 1e22

class Rows {
  n = 0;
  group: Int32Array;
  prediction: Float64Array;
  label: Float64Array;
  probability: Float64Array;
  /** where the id's bytes start: >= 0 in the file, < 0 in the id store at -start - 1 */
  itemStart: Int32Array;
  itemLength: Int32Array;
  line: Int32Array;
  /** hash of (group, id bytes), for the duplicate check */
  hash: Int32Array;
  constructor(capacity: number) {
    const c = Math.max(16, capacity);
    this.group = new Int32Array(c);
    this.prediction = new Float64Array(c);
    this.label = new Float64Array(c);
    this.probability = new Float64Array(c);
    this.itemStart = new Int32Array(c);
    this.itemLength = new Int32Array(c);
    this.line = new Int32Array(c);
    this.hash = new Int32Array(c);
  }
  grow(): void {
    const c = this.group.length * 2;
    const g = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(c);
      b.set(a);
      return b;
    };
    this.group = g(this.group, (k) => new Int32Array(k));
    this.prediction = g(this.prediction, (k) => new Float64Array(k));
    this.label = g(this.label, (k) => new Float64Array(k));
    this.probability = g(this.probability, (k) => new Float64Array(k));
    this.itemStart = g(this.itemStart, (k) => new Int32Array(k));
    this.itemLength = g(this.itemLength, (k) => new Int32Array(k));
    this.line = g(this.line, (k) => new Int32Array(k));
    this.hash = g(this.hash, (k) => new Int32Array(k));
  }
}

export async function readEstimateFile(filePath: string, label: string = filePath): Promise<EstimateGroupColumns[]> {
  const size = await fileSize(filePath, label);
  if (size > MAX_BYTES) throw new AppError('TOO_LARGE', `${label}: ${size} bytes; files up to 2 GiB are read (split it by group)`);
  const read = await readFile(filePath);
  // a final newline serves the CSV scanner as a sentinel
  const buf = read.length > 0 && read[read.length - 1] === 10 ? read : Buffer.concat([read, Buffer.from('\n')]);
  const items = new EstimateItems(buf, label);
  if (formatOfBytes(filePath, buf) === 'csv') readCsvRows(items, bomLength(buf));
  else readJsonlRows(items, bomLength(buf));
  return items.finish();
}

/** The reading's first state and its last: the items collected so far (rows, groups, ids), and the finish. */
class EstimateItems {
  readonly rows: Rows;
  readonly groupNames: (string | null)[] = [];
  private readonly groupIndex = new Map<string | null, number>();
  /** per group: 1 when its first item had a probability, 0 when not */
  readonly groupHasProbability: number[] = [];
  /** Ids that are not bytes of the file (JSONL, quoted CSV) live in a growing id store. */
  private ids: Buffer | null = null;
  private idsUsed = 0;

  constructor(
    readonly buf: Buffer,
    private readonly label: string,
  ) {
    // capacity from the mean length of the first lines (the arrays and the table grow if short)
    const sample = Math.min(buf.length, 1 << 16);
    let lines = 1;
    for (let i = 0; i < sample; i++) if (buf[i] === 10) lines++;
    const estimate = Math.ceil((buf.length / Math.max(1, sample)) * lines * 1.05) + 16;
    this.rows = new Rows(estimate);
  }

  fail(line: number, message: string): never {
    throw lineError(this.label, line, message);
  }

  groupOf(name: string | null): number {
    let g = this.groupIndex.get(name);
    if (g === undefined) {
      g = this.groupNames.length;
      this.groupIndex.set(name, g);
      this.groupNames.push(name);
      this.groupHasProbability.push(-1);
    }
    return g;
  }

  /** A group's first item decides whether its items carry probabilities; the others must agree. */
  checkProbability(line: number, group: number, has: number): void {
    const known = this.groupHasProbability[group]!;
    if (known === -1) {
      this.groupHasProbability[group] = has;
      return;
    }
    const name = this.groupNames[group];
    const where = name === null ? 'the other items' : `the other items of group ${JSON.stringify(name)}`;
    this.fail(
      line,
      has
        ? `a probability is given here but not for ${where} (give every item a probability or none)`
        : `no probability here but ${where} have one (give every item a probability or none)`,
    );
  }

  /** Records one row; the item id is itemLength bytes at itemStart (see Rows.itemStart). */
  add(line: number, group: number, prediction: number, label: number, probability: number, itemStart: number, itemLength: number): void {
    const has = probability === probability ? 1 : 0;
    if (this.groupHasProbability[group] !== has) this.checkProbability(line, group, has);
    const rows = this.rows;
    if (rows.n === rows.group.length) rows.grow();
    const r = rows.n++;
    rows.group[r] = group;
    rows.prediction[r] = prediction;
    rows.label[r] = label;
    rows.probability[r] = probability;
    rows.itemStart[r] = itemStart;
    rows.itemLength[r] = itemLength;
    rows.line[r] = line;
    rows.hash[r] =
      itemStart >= 0 ? hashBytes(this.buf, itemStart, itemLength, group) : hashBytes(this.ids!, -itemStart - 1, itemLength, group);
  }

  /** Records a row whose item id is a string (JSONL, quoted CSV): the id is appended to the id store. */
  addWithId(line: number, group: number, prediction: number, label: number, probability: number, id: string): void {
    const bytes = Buffer.from(id, 'utf8');
    if (this.ids === null || this.idsUsed + bytes.length > this.ids.length) {
      const grown = Buffer.alloc(Math.max(1 << 16, 2 * (this.idsUsed + bytes.length)));
      if (this.ids) this.ids.copy(grown, 0, 0, this.idsUsed);
      this.ids = grown;
    }
    bytes.copy(this.ids, this.idsUsed);
    const at = -this.idsUsed - 1;
    this.idsUsed += bytes.length;
    this.add(line, group, prediction, label, probability, at, bytes.length);
  }

  private idBytes(r: number): [Buffer, number] {
    const s = this.rows.itemStart[r]!;
    return s >= 0 ? [this.buf, s] : [this.ids!, -s - 1];
  }

  private sameItem(a: number, b: number): boolean {
    const rows = this.rows;
    const len = rows.itemLength[a]!;
    if (rows.group[a] !== rows.group[b] || rows.itemLength[b] !== len) return false;
    const [sa, oa] = this.idBytes(a);
    const [sb, ob] = this.idBytes(b);
    return sa.compare(sb, ob, ob + len, oa, oa + len) === 0;
  }

  /** The last state: no item given twice in a group, then the columns per group, groups by name (no group first). */
  finish(): EstimateGroupColumns[] {
    const rows = this.rows;
    if (rows.n === 0) throw new AppError('BAD_INPUT', `${this.label}: no items found`);
    const repeat = findRepeat(rows, (a, b) => this.sameItem(a, b));
    if (repeat) {
      const [src, s] = this.idBytes(repeat.row);
      const name = this.groupNames[rows.group[repeat.row]!];
      this.fail(
        rows.line[repeat.row]!,
        `item ${JSON.stringify(src.toString('utf8', s, s + rows.itemLength[repeat.row]!))} appears twice${name === null ? '' : ` in group ${JSON.stringify(name)}`} (first on line ${rows.line[repeat.first]})`,
      );
    }
    const nGroups = this.groupNames.length;
    const counts = new Int32Array(nGroups);
    for (let r = 0; r < rows.n; r++) counts[rows.group[r]!]!++;
    const out: EstimateGroupColumns[] = this.groupNames.map((group, g) => ({
      group,
      prediction: new Float64Array(counts[g]!),
      label: new Float64Array(counts[g]!),
      probability: this.groupHasProbability[g] === 1 ? new Float64Array(counts[g]!) : null,
    }));
    if (nGroups === 1) {
      const only = out[0]!;
      only.prediction = rows.prediction.subarray(0, rows.n);
      only.label = rows.label.subarray(0, rows.n);
      if (only.probability) only.probability = rows.probability.subarray(0, rows.n);
    } else {
      const at = new Int32Array(nGroups);
      for (let r = 0; r < rows.n; r++) {
        const g = rows.group[r]!;
        const o = out[g]!;
        const i = at[g]!++;
        o.prediction[i] = rows.prediction[r]!;
        o.label[i] = rows.label[r]!;
        if (o.probability) o.probability[i] = rows.probability[r]!;
      }
    }
    return out.sort((a, b) => (a.group === b.group ? 0 : a.group === null ? -1 : b.group === null ? 1 : a.group < b.group ? -1 : 1));
  }
}

/**
 * An item id given twice in one group: the earliest repeat in file order (`row`) and the row it
 * repeats (`first`); null when none. Cache-friendly: rows are partitioned by the top bits of their
 * hash into buckets of ~2k rows (one sequential pass), then each bucket is checked with a small
 * open-addressing table.
 */
function findRepeat(rows: Rows, sameItem: (a: number, b: number) => boolean): { row: number; first: number } | null {
  const n = rows.n;
  const hash = rows.hash;
  let bits = 1;
  while (bits < 16 && n >> bits > 2048) bits++;
  const buckets = 1 << bits;
  const shift = 32 - bits;
  const starts = new Int32Array(buckets + 1);
  for (let r = 0; r < n; r++) starts[(hash[r]! >>> shift) + 1]!++;
  for (let b = 0; b < buckets; b++) starts[b + 1]! += starts[b]!;
  const order = new Int32Array(n);
  const orderedHash = new Int32Array(n); // the hashes in bucket order: the bucket pass reads them in sequence
  const at = starts.slice(0, buckets);
  for (let r = 0; r < n; r++) {
    const h = hash[r]!;
    const k = at[h >>> shift]!++;
    order[k] = r;
    orderedHash[k] = h;
  }
  let largest = 0;
  for (let b = 0; b < buckets; b++) largest = Math.max(largest, starts[b + 1]! - starts[b]!);
  let size = 16;
  while (size < 1.5 * largest) size *= 2;
  // slot -> position in bucket order, valid only where stamp[slot] is the current bucket + 1 (no clearing between buckets)
  const table = new Int32Array(size);
  const stamp = new Int32Array(size);
  const mask = size - 1;
  let repeat = -1;
  let first = -1;
  for (let b = 0; b < buckets; b++) {
    const mark = b + 1;
    for (let k = starts[b]!; k < starts[b + 1]!; k++) {
      const h = orderedHash[k]!; // rows in file order within the bucket
      let slot = h & mask;
      for (;;) {
        if (stamp[slot] !== mark) {
          stamp[slot] = mark;
          table[slot] = k;
          break;
        }
        const j = table[slot]!;
        if (orderedHash[j] === h && sameItem(order[j]!, order[k]!)) {
          const r = order[k]!;
          const o = order[j]!;
          if (repeat < 0 || r < repeat) {
            repeat = r;
            first = o;
          }
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
  }
  return repeat >= 0 ? { row: repeat, first } : null;
}

/** The CSV header's state: each field's role (item 0, prediction 1, label 2, probability 3, group 4; -1 ignored). */
interface CsvHeader {
  names: string[];
  roles: Int8Array;
  hasGroup: boolean;
}

function csvHeader(items: EstimateItems, line: number, text: string): CsvHeader {
  const names = text.split(',').map((h) =>
    h
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase(),
  );
  const roles = new Int8Array(names.length).fill(-1);
  names.forEach((h, k) => {
    if ((COLUMNS as readonly string[]).includes(h)) roles[k] = ROLE[h as Column];
  });
  const hasGroup = names.includes('group');
  const missing = ['item', 'prediction'].filter((col) => !names.includes(col));
  if (missing.length) {
    items.fail(
      line,
      `expected a CSV header with columns item, prediction (label, probability, group optional); missing ${missing.join(', ')}`,
    );
  }
  if (!hasGroup) items.groupOf(null);
  return { names, roles, hasGroup };
}

/** The CSV rows' state: byte by byte from `from`, the header first; a line with a quote goes to readQuotedRow. */
function readCsvRows(items: EstimateItems, from: number): void {
  const buf = items.buf;
  const end = buf.length;
  let line = 0;
  let header: CsvHeader | null = null;
  let roles: Int8Array | null = null;
  let nFields = 0;
  let pos = from;
  // the last group seen (rows of one group usually come together)
  let lastStart = -1;
  let lastLength = -1;
  let lastGroup = 0;
  while (pos < end) {
    line++;
    const lineStart = pos;
    // One pass over the line: the bounds of the fields by role (item 0, prediction 1, label 2,
    // probability 3, group 4; -1 absent). The buffer ends with a newline (a sentinel), so the
    // inner loop needs no bounds check; a quote sends the line to the general path.
    let s0 = -1, e0 = -1, s1 = -1, e1 = -1, s2 = -1, e2 = -1, s3 = -1, e3 = -1, s4 = -1, e4 = -1; // prettier-ignore
    let field = 0;
    let i = pos;
    let quote = false;
    for (;;) {
      const fieldStart = i;
      let c = buf[i]!;
      while (c !== 44 && c !== 10 && c !== 34) c = buf[++i]!;
      if (c === 34) {
        quote = true;
        i = buf.indexOf(10, i);
        break;
      }
      let fieldEnd = i;
      if (c === 10 && fieldEnd > fieldStart && buf[fieldEnd - 1] === 13) fieldEnd--;
      if (roles !== null && field < nFields) {
        switch (roles[field]) {
          case 0:
            s0 = fieldStart;
            e0 = fieldEnd;
            break;
          case 1:
            s1 = fieldStart;
            e1 = fieldEnd;
            break;
          case 2:
            s2 = fieldStart;
            e2 = fieldEnd;
            break;
          case 3:
            s3 = fieldStart;
            e3 = fieldEnd;
            break;
          case 4:
            s4 = fieldStart;
            e4 = fieldEnd;
            break;
        }
      }
      field++;
      i++;
      if (c === 10) {
        i--;
        break;
      }
    }
    const nl = i; // the line's newline
    const lineEnd = nl > lineStart && buf[nl - 1] === 13 ? nl - 1 : nl;
    pos = nl + 1;
    if (field === 1 && !quote && isBlank(buf, lineStart, lineEnd)) continue;
    if (header === null) {
      header = csvHeader(items, line, buf.toString('utf8', lineStart, lineEnd));
      roles = header.roles;
      nFields = roles.length;
      continue;
    }
    if (quote) {
      const next = readQuotedRow(items, header, line, lineStart, lineEnd, pos);
      line = next.line;
      pos = next.pos;
      lastLength = -1;
      continue;
    }
    if (field !== nFields) items.fail(line, `expected ${nFields} fields (${header.names.join(', ')}), got ${field}`);
    // item: trimmed, non-empty; hashed with its group below
    while (s0 < e0 && (buf[s0] === 32 || buf[s0] === 9)) s0++;
    while (e0 > s0 && (buf[e0 - 1] === 32 || buf[e0 - 1] === 9)) e0--;
    if (s0 === e0) items.fail(line, 'expected an item id, got an empty field');
    const prediction = parseDecimal(buf, s1, e1);
    if (!(prediction >= 0 && prediction <= 1)) badNumber(items, line, 'prediction', buf.toString('utf8', s1, e1), false);
    let label = Number.NaN;
    if (s2 >= 0 && !isMissing(buf, s2, e2)) {
      label = parseDecimal(buf, s2, e2);
      if (!(label >= 0 && label <= 1)) badNumber(items, line, 'label', buf.toString('utf8', s2, e2), true);
    }
    let probability = Number.NaN;
    if (s3 >= 0 && !isMissing(buf, s3, e3)) {
      probability = parseDecimal(buf, s3, e3);
      if (!(probability > 0 && probability <= 1)) badProbability(items, line, buf.toString('utf8', s3, e3));
    }
    let group = 0;
    if (header.hasGroup) {
      while (s4 < e4 && (buf[s4] === 32 || buf[s4] === 9)) s4++;
      while (e4 > s4 && (buf[e4 - 1] === 32 || buf[e4 - 1] === 9)) e4--;
      const len = e4 - s4;
      if (len === lastLength && (len === 0 || buf.compare(buf, s4, e4, lastStart, lastStart + len) === 0)) group = lastGroup;
      else {
        group = items.groupOf(len === 0 ? null : buf.toString('utf8', s4, e4));
        lastStart = s4;
        lastLength = len;
        lastGroup = group;
      }
    }
    items.add(line, group, prediction, label, probability, s0, e0 - s0);
  }
  if (header === null) items.fail(1, 'expected a CSV header with columns item, prediction (label, probability, group optional)');
}

/**
 * A CSV row with a quoted field (possibly spanning lines), through the general splitter: the row
 * starts on `line` at [lineStart, lineEnd), the next line at `pos`. Gives the row's last line and
 * where the next row starts.
 */
function readQuotedRow(
  items: EstimateItems,
  header: CsvHeader,
  line: number,
  lineStart: number,
  lineEnd: number,
  pos: number,
): { line: number; pos: number } {
  const buf = items.buf;
  const end = buf.length;
  const startLine = line;
  let text = buf.toString('utf8', lineStart, lineEnd);
  let fields = splitCsv(text);
  while (fields === null) {
    if (pos >= end) items.fail(startLine, 'a quoted CSV field is never closed');
    let next = buf.indexOf(10, pos);
    if (next < 0) next = end;
    line++;
    const stop = next > pos && buf[next - 1] === 13 ? next - 1 : next;
    text += `\n${buf.toString('utf8', pos, stop)}`;
    pos = next + 1;
    fields = splitCsv(text);
  }
  if (fields.length !== header.roles.length) {
    items.fail(startLine, `expected ${header.roles.length} fields (${header.names.join(', ')}), got ${fields.length}`);
  }
  const byRole: (string | undefined)[] = [];
  header.roles.forEach((role, i) => {
    if (role >= 0) byRole[role] = fields[i];
  });
  const item = (byRole[0] ?? '').trim();
  if (item === '') items.fail(startLine, 'expected an item id, got an empty field');
  const prediction = toNumber(byRole[1]);
  if (!(prediction >= 0 && prediction <= 1)) badNumber(items, startLine, 'prediction', byRole[1] ?? '', false);
  const rawLabel = (byRole[2] ?? '').trim();
  let label = Number.NaN;
  if (!MISSING.has(rawLabel)) {
    label = toNumber(rawLabel);
    if (!(label >= 0 && label <= 1)) badNumber(items, startLine, 'label', rawLabel, true);
  }
  const rawP = (byRole[3] ?? '').trim();
  let probability = Number.NaN;
  if (!MISSING.has(rawP)) {
    probability = toNumber(rawP);
    if (!(probability > 0 && probability <= 1)) badProbability(items, startLine, rawP);
  }
  const g = (byRole[4] ?? '').trim();
  items.addWithId(startLine, items.groupOf(g === '' ? null : g), prediction, label, probability, item);
  return { line, pos };
}

function badNumber(items: EstimateItems, line: number, column: string, raw: string, optional: boolean): never {
  return items.fail(
    line,
    `expected "${column}" to be a number in [0, 1]${optional ? ' (or empty when not reviewed)' : ''}, got ${JSON.stringify(raw.trim())}`,
  );
}

function badProbability(items: EstimateItems, line: number, raw: string): never {
  return items.fail(
    line,
    `expected "probability" to be a number in (0, 1] (an item that could not be chosen cannot be weighted), got ${JSON.stringify(raw.trim())}`,
  );
}

/** The JSONL lines' state: one object a line from `from`, blank lines skipped. */
function readJsonlRows(items: EstimateItems, from: number): void {
  const buf = items.buf;
  const end = buf.length;
  let line = 0;
  let pos = from;
  const expected = 'expected a JSON object with "item" and "prediction" (and optionally "label", "probability", "group")';
  while (pos < end) {
    let nl = buf.indexOf(10, pos);
    if (nl < 0) nl = end;
    line++;
    const text = buf.toString('utf8', pos, nl);
    pos = nl + 1;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      items.fail(line, `${expected}; the line is not valid JSON`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) items.fail(line, expected);
    const o = value as Record<string, unknown>;
    const item = typeof o.item === 'number' && Number.isFinite(o.item) ? String(o.item) : typeof o.item === 'string' ? o.item.trim() : '';
    if (item === '') items.fail(line, 'expected "item" to be a non-empty string or a number');
    const prediction = o.prediction;
    if (typeof prediction !== 'number' || !(prediction >= 0 && prediction <= 1)) {
      items.fail(line, `expected "prediction" to be a number in [0, 1], got ${JSON.stringify(prediction ?? null)}`);
    }
    let label = Number.NaN;
    if (o.label !== undefined && o.label !== null) {
      label = o.label === true ? 1 : o.label === false ? 0 : (o.label as number);
      if (typeof label !== 'number' || !(label >= 0 && label <= 1)) {
        items.fail(line, `expected "label" to be 0, 1 (a number in [0, 1]), a boolean or null, got ${JSON.stringify(o.label)}`);
      }
    }
    let probability = Number.NaN;
    if (o.probability !== undefined && o.probability !== null) {
      probability = o.probability as number;
      if (typeof probability !== 'number' || !(probability > 0 && probability <= 1)) {
        items.fail(line, `expected "probability" to be a number in (0, 1] or null, got ${JSON.stringify(o.probability)}`);
      }
    }
    const g = o.group;
    if (g !== undefined && g !== null && typeof g !== 'string' && !(typeof g === 'number' && Number.isFinite(g))) {
      items.fail(line, `expected "group" to be a string, a number or null, got ${JSON.stringify(g)}`);
    }
    const name = g === undefined || g === null || String(g).trim() === '' ? null : String(g).trim();
    items.addWithId(line, items.groupOf(name), prediction, label, probability, item);
  }
}

/** FNV-1a over the id's bytes, seeded with the group, then murmur3's finaliser (FNV's low bits alone cluster). */
function hashBytes(src: Buffer, s: number, len: number, group: number): number {
  let h = (0x811c9dc5 ^ Math.imul(group, 0x9e3779b1)) | 0;
  for (let i = s; i < s + len; i++) h = Math.imul(h ^ src[i]!, 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

const MISSING = new Set(['', 'NA', '.', 'null']);

function isBlank(buf: Buffer, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (buf[i] !== 32 && buf[i] !== 9 && buf[i] !== 13) return false;
  return true;
}

function isMissing(buf: Buffer, s: number, e: number): boolean {
  while (s < e && (buf[s] === 32 || buf[s] === 9)) s++;
  while (e > s && (buf[e - 1] === 32 || buf[e - 1] === 9)) e--;
  const len = e - s;
  if (len === 0) return true;
  if (len === 1) return buf[s] === 46; // .
  if (len === 2) return buf[s] === 78 && buf[s + 1] === 65; // NA
  if (len === 4) return buf.toString('latin1', s, e) === 'null';
  return false;
}

function toNumber(raw: string | undefined): number {
  const t = (raw ?? '').trim();
  return t === '' ? Number.NaN : Number(t);
}

/**
 * A decimal number from bytes [s, e): plain notation (digits, optional sign, point, exponent)
 * with at most 15 significant digits is computed exactly as mantissa / 10^k or mantissa * 10^k
 * (both operands exact, so the one rounding is IEEE's: the correctly rounded value, the same
 * double Number() gives). Anything else (more digits, hex, Infinity) goes through Number().
 * NaN for an empty or malformed field.
 */
export function parseDecimal(buf: Buffer, s: number, e: number): number {
  while (s < e && (buf[s] === 32 || buf[s] === 9)) s++;
  while (e > s && (buf[e - 1] === 32 || buf[e - 1] === 9)) e--;
  if (s === e) return Number.NaN;
  let i = s;
  let negative = false;
  if (buf[i] === 45 || buf[i] === 43) {
    negative = buf[i] === 45;
    i++;
  }
  let mantissa = 0;
  let digits = 0;
  let scale = 0; // power of ten to apply
  let any = false;
  while (i < e) {
    const c = buf[i]! - 48;
    if (c < 0 || c > 9) break;
    any = true;
    if (mantissa !== 0 || c !== 0) digits++;
    mantissa = mantissa * 10 + c;
    i++;
  }
  if (i < e && buf[i] === 46) {
    i++;
    while (i < e) {
      const c = buf[i]! - 48;
      if (c < 0 || c > 9) break;
      any = true;
      if (mantissa !== 0 || c !== 0) digits++;
      mantissa = mantissa * 10 + c;
      scale--;
      i++;
    }
  }
  if (!any) return slow(buf, s, e);
  if (i < e && (buf[i] === 101 || buf[i] === 69)) {
    i++;
    let expNegative = false;
    if (i < e && (buf[i] === 45 || buf[i] === 43)) {
      expNegative = buf[i] === 45;
      i++;
    }
    let exp = 0;
    let expDigits = 0;
    while (i < e) {
      const c = buf[i]! - 48;
      if (c < 0 || c > 9) break;
      exp = exp * 10 + c;
      expDigits++;
      i++;
    }
    if (expDigits === 0 || expDigits > 4) return slow(buf, s, e);
    scale += expNegative ? -exp : exp;
  }
  if (i !== e) return slow(buf, s, e);
  if (digits > 15) return slow(buf, s, e);
  let value: number;
  if (mantissa === 0) value = 0;
  else if (scale < 0 && scale >= -22) value = mantissa / POW10[-scale]!;
  else if (scale >= 0 && scale <= 22) {
    value = mantissa * POW10[scale]!;
    if (value > 9007199254740991) return slow(buf, s, e);
  } else return slow(buf, s, e);
  return negative ? -value : value;
}

function slow(buf: Buffer, s: number, e: number): number {
  const text = buf.toString('latin1', s, e);
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : Number.NaN;
}
