import { batchPool } from '../../db/pg-pool';

/** A file imported completely before: the format it was read as and its trajectories, in the order they were parsed. */
export interface UnchangedSource {
  sha256: string;
  format: string;
  trajectories: { id: string; steps: number; task: string; policy: string }[];
}

/**
 * The raw sources among `sha256s` (hashes of files' bytes) that a re-import may skip unparsed:
 * stored in the project with an item count (set only once an import stored every trajectory of
 * the file, `markSourcesComplete`), and still holding exactly that many trajectories (none
 * deleted since, none filed under another file's source because it was there first). One
 * statement; ids increase in the order they were made (storable-trajectory.ts `newId`), so
 * ordering by id gives the file's order.
 */
export async function unchangedSources(projectId: string, sha256s: string[]): Promise<Map<string, UnchangedSource>> {
  const found = new Map<string, UnchangedSource>();
  if (sha256s.length === 0) return found;
  const { rows } = await batchPool().query<{
    sha256: string;
    format: string;
    itemCount: number;
    id: string;
    steps: number;
    task: string;
    policy: string;
  }>(
    // driven by the hashes: each one looked up through the (projectId, sha256) key and each source's trajectories
    // through the sourceId index (LATERAL + OFFSET 0: never flattened into a join). Right after a bulk import the
    // planner's estimates are stale, and a flattened query scanned every source of the project for each chunk
    // (32 ms a chunk of 128 at 2,000 files, growing with the project)
    `SELECT s.sha256, s.format, s."itemCount", t.id, t."stepCount" AS steps, k.name AS task, p.name AS policy
     FROM (SELECT DISTINCT h AS sha FROM json_array_elements_text($2::json) AS h) AS wanted
     CROSS JOIN LATERAL (SELECT id, sha256, format, "itemCount" FROM import_source
                         WHERE "projectId" = $1 AND sha256 = wanted.sha AND "itemCount" IS NOT NULL OFFSET 0) s
     CROSS JOIN LATERAL (SELECT id, "stepCount", "taskId", "policyId" FROM trajectory WHERE "sourceId" = s.id OFFSET 0) t
     JOIN task k ON k.id = t."taskId"
     JOIN policy p ON p.id = t."policyId"
     ORDER BY s.sha256, t.id COLLATE "C"`,
    [projectId, JSON.stringify(sha256s)],
  );
  const counts = new Map<string, number>();
  for (const row of rows) {
    let source = found.get(row.sha256);
    if (!source) found.set(row.sha256, (source = { sha256: row.sha256, format: row.format, trajectories: [] }));
    source.trajectories.push({ id: row.id, steps: row.steps, task: row.task, policy: row.policy });
    counts.set(row.sha256, row.itemCount);
  }
  for (const [sha, source] of found) if (source.trajectories.length !== counts.get(sha)) found.delete(sha);
  return found;
}

/**
 * Records that every trajectory of these files is stored (each file's count of trajectories), so
 * that re-importing the same bytes can skip them. Only sources whose count differs are touched.
 */
export async function markSourcesComplete(projectId: string, files: { sha256: string; items: number }[]): Promise<void> {
  if (files.length === 0) return;
  // each source found by its (projectId, sha256) key (LATERAL + OFFSET 0, as above): joined by sha256, a plan on stale
  // estimates may read the project's every source for each file
  await batchPool().query(
    `UPDATE import_source s SET "itemCount" = f.items
     FROM (SELECT k.id, r.items FROM json_to_recordset($2::json) AS r(sha text, items int)
           CROSS JOIN LATERAL (SELECT id, "itemCount" FROM import_source WHERE "projectId" = $1 AND sha256 = r.sha OFFSET 0) k
           WHERE k."itemCount" IS DISTINCT FROM r.items) f
     WHERE s.id = f.id`,
    [projectId, JSON.stringify(files.map((f) => ({ sha: f.sha256, items: f.items })))],
  );
}
