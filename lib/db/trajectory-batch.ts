import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import pg from 'pg';
import { env } from '../env';
import { AppError } from '../errors';
import type { PreparedTrajectory } from '../ingest/prepare-trajectory';

/**
 * Bulk storage of trajectories: the import's write path (`storeTrajectory` is a batch of one).
 *
 * Semantics, the same as one transaction per trajectory:
 * - All-or-nothing per trajectory. A batch is written in ONE transaction with set-based SQL (a
 *   few statements a batch; small rows sent as one JSON parameter and expanded with
 *   `json_to_recordset`, steps and raw sources streamed with `COPY ... FROM STDIN`), so a crash
 *   or a lost connection mid-batch loses only uncommitted whole trajectories, never part of one.
 * - One bad item never sinks the others. If a batch's transaction fails (a constraint, a value
 *   PostgreSQL rejects, a race with another import), it is rolled back and split in halves, each
 *   retried in its own transaction, down to single trajectories: only an item that fails on its
 *   own is reported failed, with its own error. (A task whose split conflicts with an explicit
 *   `--split` is found before writing, and that item alone is refused.)
 * - Re-importing the same content creates nothing: items whose content hash is already in the
 *   project (one query a batch) or earlier in the same batch are answered with the stored id and
 *   `created: false`; a hash stored concurrently by another import is caught by
 *   `ON CONFLICT DO NOTHING` and answered the same way after a retry.
 * - Outcomes come back in the order of the items.
 * - Tasks: a new task takes the values of the first item that names it; later items only fill
 *   what is still unknown (criteria, environment), never overwrite (as one-by-one imports do).
 *
 * Stored text: PostgreSQL text and jsonb cannot hold NUL characters (U+0000), and jsonb refuses
 * unpaired UTF-16 surrogates; both are stored as U+FFFD (agent output does contain them, e.g. a
 * `cat` of a binary file). The content hash is of the trajectory as parsed, so the same file
 * still deduplicates on re-import.
 *
 * Connections: the writes use node-postgres directly (a small pool of their own, not Prisma's),
 * because Prisma has no COPY and its raw-query path costs more than the SQL for large
 * parameters. COPY is driven through node-postgres's submittable interface (`CopyIn` below, the
 * same hooks pg-copy-streams uses), with the data already in memory.
 */

export interface RawSource {
  sha256: string;
  path: string;
  format: string;
  sizeBytes: number;
  /** gzip-compressed */
  gzipped: Uint8Array;
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

export type BatchOutcome = ({ ok: true } & StoreResult) | { ok: false; error: unknown };

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
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A 25-character, cuid-shaped id ('c', time, counter, random), like Prisma's @default(cuid()). */
export function newId(): string {
  if (randomAt + 12 > randomPool.length) {
    randomPool = randomBytes(12 * 1024);
    randomAt = 0;
  }
  let random = '';
  for (let i = 0; i < 12; i++) random += ALPHABET[randomPool[randomAt++]! % 36];
  counter = (counter + 1) % 1_679_616;
  return `c${Date.now().toString(36).padStart(8, '0')}${counter.toString(36).padStart(4, '0')}${random}`;
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
  const json = JSON.stringify(value);
  return MAYBE_UNSTORABLE_ESCAPE.test(json) ? json.replace(UNSTORABLE_ESCAPES, '$1\\ufffd') : json;
}
const MAYBE_UNSTORABLE_ESCAPE = /\\u(?:0000|d[89a-f])/;

const COPY_SPECIAL = /[\\\n\r\t]/;
const COPY_SPECIALS = /[\\\n\r\t]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A value in COPY's text format (NULL is \N). */
function copyField(v: string | number | null): string {
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
  if (value === null) return '\\N';
  const json = storableJson(value);
  return json.includes('\\') ? json.replaceAll('\\', '\\\\') : json;
}

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
  for (const s of t.steps) {
    const row =
      `${newId()}\t${id}\t${s.index}\t${copyText(s.source)}\t${copyText(s.text)}\t${copyText(s.reasoning)}\t${copyJson(s.toolCalls)}\t` +
      `${copyJson(s.observations)}\t${copyText(isoOrNull(s.timestamp))}\t${copyField(s.castTime)}\t${copyJson(s.usage)}\n`;
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

// ------------------------------------------------------------------ connections and COPY

const globalForPool = globalThis as unknown as { witnessBatchPool?: { url: string; pool: pg.Pool } };

function pool(): pg.Pool {
  const url = env().DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: start Witness with `witness start`, or set it to an external PostgreSQL.');
  const cached = globalForPool.witnessBatchPool;
  if (cached && cached.url === url) return cached.pool;
  if (cached) void cached.pool.end().catch(() => {});
  // idle connections close soon and never keep the process alive
  const created = new pg.Pool({ connectionString: url, max: 4, idleTimeoutMillis: 5_000, allowExitOnIdle: true });
  created.on('error', (error) => {
    // an idle connection closed by the server (e.g. the embedded database stopping): the pool replaces it
    if ((error as { code?: string }).code !== '57P01') console.error('[db] import connection error:', error.message);
  });
  globalForPool.witnessBatchPool = { url, pool: created };
  return created;
}

/** Closes the import's connections (tests and benchmarks; processes exit without it). */
export async function closeTrajectoryBatchPool(): Promise<void> {
  const cached = globalForPool.witnessBatchPool;
  globalForPool.witnessBatchPool = undefined;
  await cached?.pool.end();
}

interface CopyConnection extends pg.Connection {
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
}

/**
 * `COPY ... FROM STDIN` with data in memory, through node-postgres's submittable hooks (the
 * protocol: Query, CopyInResponse, CopyData..., CopyDone, CommandComplete, ReadyForQuery).
 */
class CopyIn implements pg.Submittable {
  callback?: (error: Error | null) => void;
  constructor(
    private readonly sql: string,
    private readonly pieces: Iterable<string | Buffer>,
  ) {}
  submit(connection: pg.Connection): void {
    connection.query(this.sql);
  }
  handleCopyInResponse(connection: CopyConnection): void {
    try {
      for (const piece of this.pieces) connection.sendCopyFromChunk(typeof piece === 'string' ? Buffer.from(piece) : piece);
      connection.endCopyFrom();
    } catch (error) {
      connection.sendCopyFail(`client error: ${(error as Error).message}`);
    }
  }
  // node-postgres detaches a query on ErrorResponse (no ReadyForQuery follows for it): answer now
  handleError(error: Error): void {
    this.done(error);
  }
  handleReadyForQuery(): void {
    this.done(null);
  }
  private done(error: Error | null): void {
    const callback = this.callback;
    this.callback = undefined;
    callback?.(error);
  }
  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

/** Runs `COPY <table> (<columns>) FROM STDIN` (text format) with the given pieces of COPY text. */
export function copyFrom(client: pg.ClientBase, sql: string, pieces: Iterable<string | Buffer>): Promise<void> {
  return new Promise((resolve, reject) => {
    const copy = new CopyIn(sql, pieces);
    copy.callback = (error) => (error ? reject(error) : resolve());
    client.query(copy);
  });
}

// ------------------------------------------------------------------ writing

/** Another import wrote the same task or content between our read and our write: retry. */
class RaceError extends Error {}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/**
 * Stores trajectories, each all-or-nothing (see the header): one transaction for the batch, split
 * on failure. Never throws; each item's outcome comes back in order.
 */
export async function storeTrajectoryBatch(projectId: string, items: StorableTrajectory[]): Promise<BatchOutcome[]> {
  const outcomes: (BatchOutcome | undefined)[] = new Array(items.length);
  try {
    const existing = await existingTrajectories(projectId, items);
    const firstOfHash = new Map<string, number>();
    const toStore: number[] = [];
    const repeats: number[] = [];
    items.forEach((item, i) => {
      const id = existing.get(item.contentHash);
      if (id !== undefined) outcomes[i] = { ok: true, id, created: false };
      else if (firstOfHash.has(item.contentHash)) repeats.push(i);
      else {
        firstOfHash.set(item.contentHash, i);
        toStore.push(i);
      }
    });
    await storeOrSplit(projectId, items, toStore, outcomes);
    for (const i of repeats) {
      const first = outcomes[firstOfHash.get(items[i]!.contentHash)!]!;
      if (first.ok) outcomes[i] = { ok: true, id: first.id, created: false };
      else await storeOrSplit(projectId, items, [i], outcomes);
    }
  } catch (error) {
    // the database is unreachable or similar: every item not yet answered fails with it
    for (let i = 0; i < items.length; i++) outcomes[i] ??= { ok: false, error };
  }
  return outcomes.map((o) => o ?? { ok: false, error: new Error('not stored') });
}

async function existingTrajectories(projectId: string, items: StorableTrajectory[], client?: pg.ClientBase): Promise<Map<string, string>> {
  if (items.length === 0) return new Map();
  const { rows } = await (client ?? pool()).query<{ id: string; contentHash: string }>(
    `SELECT id, "contentHash" FROM trajectory WHERE "projectId" = $1 AND "contentHash" IN (SELECT json_array_elements_text($2::json))`,
    [projectId, JSON.stringify(items.map((i) => i.contentHash))],
  );
  return new Map(rows.map((r) => [r.contentHash, r.id]));
}

async function storeOrSplit(
  projectId: string,
  items: StorableTrajectory[],
  indices: number[],
  outcomes: (BatchOutcome | undefined)[],
): Promise<void> {
  if (indices.length === 0) return;
  const batch = indices.map((i) => items[i]!);
  for (let attempt = 1; ; attempt++) {
    try {
      const results = await inTransaction((client) => writeBatch(client, projectId, batch));
      results.forEach((r, k) => (outcomes[indices[k]!] = r));
      return;
    } catch (error) {
      if (indices.length > 1) {
        const mid = Math.ceil(indices.length / 2);
        await storeOrSplit(projectId, items, indices.slice(0, mid), outcomes);
        await storeOrSplit(projectId, items, indices.slice(mid), outcomes);
        return;
      }
      // one trajectory: stored meanwhile by another import (same content) is a skip, not a failure
      const item = batch[0]!;
      const raced = (await existingTrajectories(projectId, [item])).get(item.contentHash);
      if (raced !== undefined) {
        outcomes[indices[0]!] = { ok: true, id: raced, created: false };
        return;
      }
      if ((error instanceof RaceError || isUniqueViolation(error)) && attempt < 3) continue;
      outcomes[indices[0]!] = { ok: false, error };
      return;
    }
  }
}

async function inTransaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool().connect();
  let broken: Error | undefined;
  // a checked-out client reports a dropped connection as an 'error' event: keep it from crashing the process
  const onError = (error: Error) => (broken = error);
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    try {
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      throw error;
    }
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}

interface TaskRow {
  id: string;
  name: string;
  split: string;
  criteriaEmpty: boolean;
  environmentId: string | null;
}

const jsonArray = (parts: string[]) => `[${parts.join(',')}]`;
const jsonString = (s: string | null) => (s === null ? 'null' : JSON.stringify(s));

/** Writes a batch inside one transaction; items refused before writing (split conflicts) come back as failures. */
async function writeBatch(client: pg.ClientBase, projectId: string, batch: StorableTrajectory[]): Promise<BatchOutcome[]> {
  const outcomes: BatchOutcome[] = batch.map((item) => ({ ok: true, id: item.id, created: true }));

  // tasks already there, and the items an explicit split refuses
  const { rows: found } = await client.query<TaskRow>(
    `SELECT id, name, split::text AS split, ("acceptanceCriteria" = '[]'::jsonb) AS "criteriaEmpty", "environmentId"
     FROM task WHERE "projectId" = $1 AND name IN (SELECT json_array_elements_text($2::json))`,
    [projectId, JSON.stringify([...new Set(batch.map((i) => i.taskName))])],
  );
  const tasks = new Map(found.map((t) => [t.name, t]));
  const live: StorableTrajectory[] = [];
  batch.forEach((item, k) => {
    const task = tasks.get(item.taskName);
    if (task && item.splitExplicit && task.split !== item.split) {
      outcomes[k] = {
        ok: false,
        error: new AppError(
          'CONFLICT',
          `task "${item.taskName}" is already in the ${task.split} split; moving a task between train and eval is done on the task page, not by import`,
        ),
      };
    } else live.push(item);
  });
  if (live.length === 0) return outcomes;

  const environments = [...new Set(live.map((i) => i.environmentName).filter((n): n is string => n !== null))];
  if (environments.length > 0) {
    await client.query(
      `INSERT INTO environment (id, "projectId", name)
       SELECT r.id, $1, r.name FROM json_to_recordset($2::json) AS r(id text, name text)
       ON CONFLICT ("projectId", name) DO NOTHING`,
      [projectId, JSON.stringify(environments.map((name) => ({ id: newId(), name })))],
    );
  }

  // a new task takes the first item's values; later items fill what is still unknown
  const perTask = new Map<string, { first: StorableTrajectory; criteria: string | null; env: string | null }>();
  for (const item of live) {
    let t = perTask.get(item.taskName);
    if (!t) perTask.set(item.taskName, (t = { first: item, criteria: null, env: null }));
    t.criteria ??= item.criteriaJson;
    t.env ??= item.environmentName;
  }
  const creates: string[] = [];
  const fills: string[] = [];
  for (const [name, t] of perTask) {
    const existing = tasks.get(name);
    if (!existing) {
      creates.push(`{"id":${jsonString(newId())},"row":${t.first.taskJson},"criteria":${t.criteria ?? '[]'},"env":${jsonString(t.env)}}`);
    } else if ((existing.criteriaEmpty && t.criteria !== null) || (existing.environmentId === null && t.env !== null)) {
      fills.push(`{"name":${jsonString(name)},"criteria":${t.criteria ?? 'null'},"env":${jsonString(t.env)}}`);
    }
  }
  if (creates.length > 0) {
    const { rowCount } = await client.query(
      `INSERT INTO task (id, "projectId", "environmentId", name, instruction, "acceptanceCriteria", split, metadata, "updatedAt")
       SELECT r.id, $1, e.id, r.row->>'name', r.row->>'instruction', r.criteria, (r.row->>'split')::"Split", (r.row->'metadata')::jsonb, now()
       FROM json_to_recordset($2::json) AS r(id text, "row" json, criteria jsonb, env text)
       LEFT JOIN environment e ON e."projectId" = $1 AND e.name = r.env
       ON CONFLICT ("projectId", name) DO NOTHING`,
      [projectId, jsonArray(creates)],
    );
    if (rowCount !== creates.length) throw new RaceError('a task was created concurrently');
  }
  if (fills.length > 0) {
    await client.query(
      `UPDATE task k SET
         "acceptanceCriteria" = CASE WHEN k."acceptanceCriteria" = '[]'::jsonb AND r.criteria IS NOT NULL THEN r.criteria ELSE k."acceptanceCriteria" END,
         "environmentId" = COALESCE(k."environmentId", e.id),
         "updatedAt" = now()
       FROM json_to_recordset($2::json) AS r(name text, criteria jsonb, env text)
       LEFT JOIN environment e ON e."projectId" = $1 AND e.name = r.env
       WHERE k."projectId" = $1 AND k.name = r.name`,
      [projectId, jsonArray(fills)],
    );
  }

  const policies = new Map<string, string>();
  for (const item of live) if (!policies.has(item.policyName)) policies.set(item.policyName, item.policyJson);
  await client.query(
    `INSERT INTO policy (id, "projectId", name, model, checkpoint, agent)
     SELECT r.id, $1, r.p->>'name', r.p->>'model', r.p->>'checkpoint', r.p->>'agent' FROM json_to_recordset($2::json) AS r(id text, p json)
     ON CONFLICT ("projectId", name) DO NOTHING`,
    [projectId, jsonArray([...policies.values()].map((p) => `{"id":${jsonString(newId())},"p":${p}}`))],
  );

  // raw sources not stored yet (a file's trajectories may span batches)
  const sources = new Map<string, RawSource>();
  for (const item of live) if (item.source) sources.set(item.source.sha256, item.source);
  if (sources.size > 0) {
    const { rows: stored } = await client.query<{ sha256: string }>(
      `SELECT sha256 FROM import_source WHERE "projectId" = $1 AND sha256 IN (SELECT json_array_elements_text($2::json))`,
      [projectId, JSON.stringify([...sources.keys()])],
    );
    for (const row of stored) sources.delete(row.sha256);
  }
  if (sources.size > 0) {
    const rows = [...sources.values()].map(
      (s) =>
        `${newId()}\t${copyField(projectId)}\t${s.sha256}\t${copyField(storableText(s.path))}\t${copyField(s.format)}\t${s.sizeBytes}\t\\\\x${Buffer.from(s.gzipped.buffer, s.gzipped.byteOffset, s.gzipped.byteLength).toString('hex')}\n`,
    );
    await copyFrom(client, `COPY import_source (id, "projectId", sha256, path, format, "sizeBytes", content) FROM STDIN`, rows);
  }

  const { rowCount } = await client.query(
    `INSERT INTO trajectory (id, "projectId", "taskId", "policyId", "sourceFormat", "externalId", "contentHash", "stepCount", "verifierReward",
                             "verifierComponents", usage, submission, "exitStatus", "startedAt", "endedAt", metadata, "importedById", "sourceId", "sourceWhere")
     SELECT r.id, $1, k.id, p.id, r.format, r.ext, r.hash, r.n, r.reward, r.comp, r.usage, r.sub, r.exit, r.started, r.ended, r.meta, r.by, s.id, r.wh
     FROM json_to_recordset($2::json) AS r(id text, task text, policy text, sha text, format text, ext text, hash text, n int, reward float8,
                                           comp jsonb, usage jsonb, sub text, exit text, started timestamp(3), ended timestamp(3), meta jsonb, wh text, by text)
     JOIN task k ON k."projectId" = $1 AND k.name = r.task
     JOIN policy p ON p."projectId" = $1 AND p.name = r.policy
     LEFT JOIN import_source s ON s."projectId" = $1 AND s.sha256 = r.sha
     ON CONFLICT ("projectId", "contentHash") DO NOTHING`,
    [projectId, jsonArray(live.map((i) => i.trajectoryJson))],
  );
  if (rowCount !== live.length) throw new RaceError('a trajectory with the same content was stored concurrently');

  await copyFrom(
    client,
    `COPY step (id, "trajectoryId", index, source, text, reasoning, "toolCalls", observations, timestamp, "castTime", usage) FROM STDIN`,
    (function* () {
      for (const item of live) yield* item.stepCopy;
    })(),
  );

  const judges = live.map((i) => i.judgeJson).filter((j): j is string => j !== null);
  if (judges.length > 0) {
    await client.query(
      `INSERT INTO judge_score (id, "trajectoryId", judge, score, label, explanation)
       SELECT r.id, r.tr, r.judge, r.score, r.label, r.expl FROM json_to_recordset($1::json) AS r(id text, tr text, judge text, score float8, label text, expl text)`,
      [jsonArray(judges)],
    );
  }
  for (const item of live) {
    if (!item.terminal) continue;
    await client.query(
      `INSERT INTO trajectory_blob ("trajectoryId", kind, "mediaType", content, size) VALUES ($1, 'terminal', 'application/x-asciicast+json', $2, $3)`,
      [item.id, item.terminal.gzipped, item.terminal.size],
    );
  }
  return outcomes;
}
