import type pg from 'pg';
import { copyFrom } from '../../db/copy-from';
import { batchPool, inPgTransaction } from '../../db/pg-pool';
import { binaryCopyData } from './binary-copy';
import { newId, storableText, type BatchOutcome, type RawSource, type StorableTrajectory } from './storable-trajectory';

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
 * Plans: the trajectory rows get their task, policy and raw source ids from name -> id maps made
 * here (the ids this batch wrote, or read back), passed as jsonb parameters, not by joining those
 * tables by name. Joined, the plan rests on the table statistics: where ANALYZE had seen the
 * project empty (a new project, in a database with others in it), PostgreSQL estimated one row
 * for `"projectId" = $1` and read the project's every raw source for each trajectory (an index
 * scan on the project alone, sha256 as a join filter): quadratic, 160 ms a batch of 250 at 10,000
 * files against 29 ms (the ingest bench, auto_explain). The lookups by name left (the tasks and
 * sources already there, once a batch) read the project at most once a batch whatever the plan.
 *
 * Rows: items come shaped by `toStorable` (storable-trajectory.ts: ids, storable text, COPY text).
 *
 * Connections: the writes use node-postgres directly (a small pool of their own, not Prisma's),
 * because Prisma has no COPY and its raw-query path costs more than the SQL for large
 * parameters. COPY is driven through node-postgres's submittable interface (infra/copy-from.ts, the
 * same hooks pg-copy-streams uses), with the data already in memory.
 */

/** The raw sources' COPY (binary format: lib/ingest/queries/binary-copy.ts); the ingest bench's comparator runs the same statement. */
export const IMPORT_SOURCE_COPY = `COPY import_source (id, "projectId", sha256, path, format, "sizeBytes", content, "contentEncoding", "itemCount") FROM STDIN (FORMAT binary)`;

/**
 * The trajectory rows of a batch: $2 the rows as JSON (`StorableTrajectory.trajectoryJson`), their
 * task, policy and raw source ids looked up in $3, $4 and $5 (name or sha256 -> id; see "Plans" above).
 */
export const TRAJECTORY_INSERT = `
  INSERT INTO trajectory (id, "projectId", "taskId", "policyId", "sourceFormat", "externalId", "contentHash", "stepCount", "verifierReward",
                          "verifierComponents", usage, submission, "exitStatus", "startedAt", "endedAt", metadata, "importedById", "sourceId", "sourceWhere")
  SELECT r.id, $1, $3::jsonb->>r.task, $4::jsonb->>r.policy, r.format, r.ext, r.hash, r.n, r.reward, r.comp, r.usage, r.sub, r.exit,
         r.started, r.ended, r.meta, r.by, $5::jsonb->>r.sha, r.wh
  FROM json_to_recordset($2::json) AS r(id text, task text, policy text, sha text, format text, ext text, hash text, n int, reward float8,
                                        comp jsonb, usage jsonb, sub text, exit text, started timestamp(3), ended timestamp(3), meta jsonb, wh text, by text)
  ON CONFLICT ("projectId", "contentHash") DO NOTHING`;

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
  const { rows } = await (client ?? batchPool()).query<{ id: string; contentHash: string }>(
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
      const results = await inPgTransaction((client) => writeBatch(client, projectId, batch));
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
  // name -> id of each task, policy and raw source the rows below point to
  const taskIds = new Map(found.map((t) => [t.name, t.id]));
  const live: StorableTrajectory[] = [];
  batch.forEach((item, k) => {
    const task = tasks.get(item.taskName);
    if (task && item.splitExplicit && task.split !== item.split) {
      outcomes[k] = { ok: false, splitConflict: { taskName: item.taskName, split: task.split } };
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
      const id = newId();
      taskIds.set(name, id);
      creates.push(`{"id":${jsonString(id)},"row":${t.first.taskJson},"criteria":${t.criteria ?? '[]'},"env":${jsonString(t.env)}}`);
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
  // the policies created (RETURNING) and those already there (the statement's snapshot does not see its own inserts)
  const { rows: policyRows } = await client.query<{ id: string; name: string }>(
    `WITH r AS (SELECT r.id, r.p FROM json_to_recordset($2::json) AS r(id text, p json)),
          created AS (
            INSERT INTO policy (id, "projectId", name, model, checkpoint, agent)
            SELECT r.id, $1, r.p->>'name', r.p->>'model', r.p->>'checkpoint', r.p->>'agent' FROM r
            ON CONFLICT ("projectId", name) DO NOTHING
            RETURNING id, name)
     SELECT id, name FROM created
     UNION ALL
     SELECT id, name FROM policy WHERE "projectId" = $1 AND name IN (SELECT r.p->>'name' FROM r)`,
    [projectId, jsonArray([...policies.values()].map((p) => `{"id":${jsonString(newId())},"p":${p}}`))],
  );
  // one created by another import after this statement's snapshot, before this insert: neither part sees it
  if (policyRows.length !== policies.size) throw new RaceError('a policy was created concurrently');
  const policyIds = new Map(policyRows.map((row) => [row.name, row.id]));

  // raw sources not stored yet (a file's trajectories may span batches)
  const sources = new Map<string, RawSource>();
  for (const item of live) if (item.source) sources.set(item.source.sha256, item.source);
  const sourceIds = new Map<string, string>();
  if (sources.size > 0) {
    const { rows: stored } = await client.query<{ id: string; sha256: string }>(
      `SELECT id, sha256 FROM import_source WHERE "projectId" = $1 AND sha256 IN (SELECT json_array_elements_text($2::json))`,
      [projectId, JSON.stringify([...sources.keys()])],
    );
    for (const row of stored) {
      sourceIds.set(row.sha256, row.id);
      sources.delete(row.sha256);
    }
  }
  if (sources.size > 0) {
    // binary COPY: the compressed content goes as its bytes, not hex-escaped (half the bytes, no encoding here nor decoding there)
    for (const s of sources.values()) sourceIds.set(s.sha256, newId());
    const rows = [...sources.values()].map((s) => [
      sourceIds.get(s.sha256)!,
      projectId,
      s.sha256,
      storableText(s.path),
      storableText(s.format),
      { int4: s.sizeBytes },
      s.content,
      s.encoding,
      s.itemCount == null ? null : { int4: s.itemCount },
    ]);
    await copyFrom(client, IMPORT_SOURCE_COPY, [binaryCopyData(rows)]);
  }

  const { rowCount } = await client.query(TRAJECTORY_INSERT, [
    projectId,
    jsonArray(live.map((i) => i.trajectoryJson)),
    // as JSON objects (Object.fromEntries: a name such as "__proto__" stays a key)
    JSON.stringify(Object.fromEntries(taskIds)),
    JSON.stringify(Object.fromEntries(policyIds)),
    JSON.stringify(Object.fromEntries(sourceIds)),
  ]);
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
