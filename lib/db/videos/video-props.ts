import type { VideoPacing } from '@prisma/client';
import { db } from '../infra/client';

/**
 * The stored video props of a trajectory (table video_props, one row per trajectory, props
 * version, pacing and blind mask). A row is used only while its `inputsHash` equals the hash of
 * what the props depend on besides the trajectory's immutable rows, computed here from the live
 * rows in the same statement that reads the cache: the trajectory's content hash (a re-import of
 * changed content is a new trajectory, and a changed row would change it), the task's name,
 * instruction, split, metadata, criteria and last edit, the environment's and the policy's names.
 */
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
  const rows = await db().$queryRaw<
    Array<{ inputsHash: string; props: string | null; transcript: string | null; durationInFrames: number | null; measure: unknown }>
  >`
    SELECT k."inputsHash", CASE WHEN ${bodies} THEN vp.props ELSE '' END AS props,
           CASE WHEN ${bodies} THEN vp.transcript ELSE '' END AS transcript, vp."durationInFrames", vp.measure
    FROM (
      SELECT t.id, md5(json_build_array(
               t."contentHash", tk.name, tk.instruction, tk.split, tk.metadata, tk."acceptanceCriteria", tk."updatedAt",
               e.name, p.name, p.model, p.checkpoint, p.agent)::text) AS "inputsHash"
      FROM trajectory t
      JOIN task tk ON tk.id = t."taskId"
      JOIN policy p ON p.id = t."policyId"
      LEFT JOIN environment e ON e.id = tk."environmentId"
      WHERE t.id = ${key.trajectoryId}
    ) k
    LEFT JOIN video_props vp
      ON vp."trajectoryId" = k.id AND vp."propsVersion" = ${key.propsVersion} AND vp.pacing = ${key.pacing}::"VideoPacing"
     AND vp."blindMask" = ${key.blindMask} AND vp."inputsHash" = k."inputsHash"`;
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
 * from. Hash first, then load and derive: an edit landing in between leaves a row whose hash no
 * longer matches, so it is derived again on the next read, never served stale.
 */
export async function storeVideoProps(key: VideoPropsKey, inputsHash: string, value: StoredVideoProps): Promise<void> {
  await db().$executeRaw`
    INSERT INTO video_props ("trajectoryId", "propsVersion", pacing, "blindMask", "inputsHash", props, transcript, "durationInFrames", measure)
    VALUES (${key.trajectoryId}, ${key.propsVersion}, ${key.pacing}::"VideoPacing", ${key.blindMask}, ${inputsHash}, ${value.props},
            ${value.transcript}, ${value.durationInFrames}, ${JSON.stringify(value.measure)}::jsonb)
    ON CONFLICT ("trajectoryId", "propsVersion", pacing, "blindMask") DO UPDATE SET
      "inputsHash" = EXCLUDED."inputsHash", props = EXCLUDED.props, transcript = EXCLUDED.transcript,
      "durationInFrames" = EXCLUDED."durationInFrames", measure = EXCLUDED.measure, "createdAt" = now()`;
}
