import type { VideoPacing } from '@prisma/client';
import { inSqlTransaction, sql } from '../../db/sql';

/**
 * The stored video props of a trajectory (table video_props, one row per trajectory, props
 * version, pacing and blind mask). A row is used only while its `inputsHash` equals the hash of
 * what the props depend on besides the trajectory's immutable rows, computed here from the live
 * rows in the same statement that reads the cache: the trajectory's content hash (a re-import of
 * changed content is a new trajectory, and a changed row would change it), the task's name,
 * instruction, split, metadata, criteria and last edit, the environment's and the policy's names.
 */
/**
 * The trajectory ($1) with the hash of what its props are derived from ("inputsHash", k), and its
 * stored row (vp) for the key ($2 version, $3 pacing, $4 blind mask) when that row was derived from
 * exactly those inputs: the one definition of "stored props are fresh", shared by every read.
 * `currentInputsAndRow` writes it for other expressions than $1-$4 (the blind view joins it
 * laterally on its item's trajectories: lib/review/queries/assignment-view.ts).
 */
export function currentInputsAndRow(trajectory: string, version: string, pacing: string, mask: string): string {
  return `
    FROM (
      SELECT t.id, md5(json_build_array(
               t."contentHash", tk.name, tk.instruction, tk.split, tk.metadata, tk."acceptanceCriteria", tk."updatedAt",
               e.name, p.name, p.model, p.checkpoint, p.agent)::text) AS "inputsHash"
      FROM trajectory t
      JOIN task tk ON tk.id = t."taskId"
      JOIN policy p ON p.id = t."policyId"
      LEFT JOIN environment e ON e.id = tk."environmentId"
      WHERE t.id = ${trajectory}
    ) k
    LEFT JOIN video_props vp
      ON vp."trajectoryId" = k.id AND vp."propsVersion" = ${version} AND vp.pacing = ${pacing}::"VideoPacing"
     AND vp."blindMask" = ${mask} AND vp."inputsHash" = k."inputsHash"`;
}
const CURRENT_INPUTS_AND_ROW = currentInputsAndRow('$1', '$2', '$3', '$4');

export interface VideoPropsKey {
  trajectoryId: string;
  propsVersion: string;
  pacing: VideoPacing;
  /** open | policy | reward | both */
  blindMask: string;
}

export interface StoredVideoProps {
  /** JSON text of TrajectoryVideoProps */
  props: string;
  /** JSON text of the blind transcript */
  transcript: string;
  durationInFrames: number;
  measure: unknown;
}

/**
 * The hash of the trajectory's current inputs and the row stored under it (null: derive them);
 * null when there is no such trajectory. `measureOnly` leaves the props and transcript text in
 * the database (a submit's coverage check needs the measure alone); they come back as ''.
 */
export async function findVideoProps(
  key: VideoPropsKey,
  measureOnly = false,
): Promise<{ inputsHash: string; stored: StoredVideoProps | null } | null> {
  const bodies = !measureOnly;
  const rows = await sql<{
    inputsHash: string;
    props: string | null;
    transcript: string | null;
    durationInFrames: number | null;
    measure: unknown;
  }>(
    `
    SELECT k."inputsHash", CASE WHEN $5::boolean THEN vp.props ELSE '' END AS props,
           CASE WHEN $5::boolean THEN vp.transcript ELSE '' END AS transcript, vp."durationInFrames", vp.measure
    ${CURRENT_INPUTS_AND_ROW}`,
    [key.trajectoryId, key.propsVersion, key.pacing, key.blindMask, bodies],
  );
  const row = rows[0];
  if (!row) return null;
  const stored =
    row.durationInFrames !== null && row.props !== null && row.transcript !== null
      ? { props: row.props, transcript: row.transcript, durationInFrames: row.durationInFrames, measure: row.measure }
      : null;
  return { inputsHash: row.inputsHash, stored };
}

/**
 * Stores (or replaces) the row for `key`, derived from the inputs `inputsHash` was computed
 * from, with its split for the browser (`parts`: [head, part 1, ...] as JSON texts, see
 * lib/video/video-pieces.ts) in the same transaction: an older split never outlives it.
 * Hash first, then load and derive: an edit landing in between leaves a row whose hash no
 * longer matches, so it is derived again on the next read, never served stale.
 */
export async function storeVideoProps(key: VideoPropsKey, inputsHash: string, value: StoredVideoProps, parts: string[]): Promise<void> {
  await inSqlTransaction(async (run) => {
    await run(
      `INSERT INTO video_props ("trajectoryId", "propsVersion", pacing, "blindMask", "inputsHash", props, transcript, "durationInFrames", measure)
      VALUES ($1, $2, $3::"VideoPacing", $4, $5, $6, $7, $8, $9::jsonb)
      ON CONFLICT ("trajectoryId", "propsVersion", pacing, "blindMask") DO UPDATE SET
        "inputsHash" = EXCLUDED."inputsHash", props = EXCLUDED.props, transcript = EXCLUDED.transcript,
        "durationInFrames" = EXCLUDED."durationInFrames", measure = EXCLUDED.measure, "createdAt" = now()`,
      [
        key.trajectoryId,
        key.propsVersion,
        key.pacing,
        key.blindMask,
        inputsHash,
        value.props,
        value.transcript,
        value.durationInFrames,
        JSON.stringify(value.measure),
      ],
    );
    await writeParts(run, key, inputsHash, parts);
  });
}

type Run = Parameters<Parameters<typeof inSqlTransaction>[0]>[0];

async function writeParts(run: Run, key: VideoPropsKey, inputsHash: string, parts: string[]): Promise<void> {
  await run(
    `DELETE FROM video_props_part WHERE "trajectoryId" = $1 AND "propsVersion" = $2 AND pacing = $3::"VideoPacing" AND "blindMask" = $4`,
    [key.trajectoryId, key.propsVersion, key.pacing, key.blindMask],
  );
  if (parts.length === 0) return;
  await run(
    `INSERT INTO video_props_part ("trajectoryId", "propsVersion", pacing, "blindMask", part, "inputsHash", body)
    SELECT $1, $2, $3::"VideoPacing", $4, p.ord - 1, $5, p.body FROM unnest($6::text[]) WITH ORDINALITY AS p(body, ord)`,
    [key.trajectoryId, key.propsVersion, key.pacing, key.blindMask, inputsHash, parts],
  );
}

/**
 * Stores the split of an existing row whose props were stored before splits were (a row of an
 * older Witness): only while the row still holds `inputsHash`, so a split never lands beside
 * props it was not made from. False when the row changed meanwhile.
 */
export async function storeVideoPropsParts(key: VideoPropsKey, inputsHash: string, parts: string[]): Promise<boolean> {
  return inSqlTransaction(async (run) => {
    const rows = await run<{ ok: number }>(
      `SELECT 1 AS ok FROM video_props WHERE "trajectoryId" = $1 AND "propsVersion" = $2 AND pacing = $3::"VideoPacing" AND "blindMask" = $4
        AND "inputsHash" = $5 FOR UPDATE`,
      [key.trajectoryId, key.propsVersion, key.pacing, key.blindMask, inputsHash],
    );
    if (rows.length === 0) return false;
    await writeParts(run, key, inputsHash, parts);
    return true;
  });
}

/**
 * One part of a stored row's split (0: the head) while the row is current (its inputs hash is
 * the trajectory's live one, as findVideoProps computes it) and the part is of that row.
 * `{ trajectory: false }`: no such trajectory; `body: null`: no current row or no such part
 * (`stored` says whether the row itself is current, so a caller can split its stored props).
 * `withTranscript`: the row's blind transcript too (JSON text, null without a current row).
 */
export async function findVideoPropsPart(
  key: VideoPropsKey,
  part: number,
  withTranscript = false,
): Promise<
  { trajectory: false } | { trajectory: true; inputsHash: string; stored: boolean; body: string | null; transcript: string | null }
> {
  const rows = await sql<{ inputsHash: string; stored: boolean; body: string | null; transcript: string | null }>(
    `
    SELECT k."inputsHash", vp."trajectoryId" IS NOT NULL AS stored, pp.body, CASE WHEN $6::boolean THEN vp.transcript END AS transcript
    ${CURRENT_INPUTS_AND_ROW}
    LEFT JOIN video_props_part pp
      ON pp."trajectoryId" = k.id AND pp."propsVersion" = $2 AND pp.pacing = $3::"VideoPacing"
     AND pp."blindMask" = $4 AND pp.part = $5 AND pp."inputsHash" = k."inputsHash" AND vp."trajectoryId" IS NOT NULL`,
    [key.trajectoryId, key.propsVersion, key.pacing, key.blindMask, part, withTranscript],
  );
  const row = rows[0];
  if (!row) return { trajectory: false };
  return { trajectory: true, inputsHash: row.inputsHash, stored: row.stored, body: row.body, transcript: row.transcript };
}
