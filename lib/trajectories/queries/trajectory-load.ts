import { gunzipSync } from 'node:zlib';
import { parseCriteria } from '../../formats/criteria';
import type { Criterion, FormatName, Trajectory } from '../../formats/trajectory';
import { sql } from '../../db/sql';
import { storedComponents, storedObservations, storedTerminal, storedToolCalls, storedUsage } from '../stored-columns';

export interface LoadedTrajectory {
  trajectory: Trajectory;
  projectId: string;
  /** the studio's names (environment and policy rows), and the task's current criteria (edited in the UI) */
  labels: { task: string; environment: string | null; policy: string };
  criteria: Criterion[];
  split: 'train' | 'eval';
}

interface LoadRow {
  projectId: string;
  sourceFormat: string;
  externalId: string | null;
  verifierReward: number | null;
  verifierComponents: unknown;
  usage: unknown;
  submission: string | null;
  exitStatus: string | null;
  startedMs: number | null;
  endedMs: number | null;
  metadata: unknown;
  taskName: string;
  instruction: string;
  acceptanceCriteria: unknown;
  split: 'train' | 'eval';
  taskMetadata: unknown;
  environment: string | null;
  policyName: string;
  model: string | null;
  checkpoint: string | null;
  agent: string | null;
  /** JSON text: the steps in index order */
  steps: string;
  /** JSON text: the judge scores by judge */
  judgeScores: string;
  /** the gzip-compressed terminal recording, if any */
  terminal: Buffer | null;
}

interface StepRow {
  index: number;
  source: string;
  text: string;
  reasoning: string | null;
  toolCalls: unknown;
  observations: unknown;
  timestampMs: number | null;
  castTime: number | null;
  usage: unknown;
}

/** epoch ms (timestamp columns hold UTC) as the ISO text the trajectory carries */
const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/**
 * Rebuilds the normalised trajectory from its rows (steps, judge scores, terminal recording):
 * the input of the video props, review pages and exports. Null when the id is unknown.
 *
 * One plain SQL statement on the hot-path pool (lib/db/sql.ts), the steps and judge
 * scores aggregated as JSON text: a claim that sees a trajectory first derives its video props
 * from this, and through Prisma it was 7 statements and the query compiler's CPU on every such
 * claim (issue 17).
 */
export async function loadTrajectory(id: string): Promise<LoadedTrajectory | null> {
  const [row] = await sql<LoadRow>(
    `SELECT t."projectId", t."sourceFormat", t."externalId", t."verifierReward", t."verifierComponents", t.usage, t.submission, t."exitStatus",
            (extract(epoch FROM t."startedAt") * 1000)::float8 AS "startedMs", (extract(epoch FROM t."endedAt") * 1000)::float8 AS "endedMs", t.metadata,
            tk.name AS "taskName", tk.instruction, tk."acceptanceCriteria", tk.split::text AS split, tk.metadata AS "taskMetadata", e.name AS environment,
            p.name AS "policyName", p.model, p.checkpoint, p.agent,
            (SELECT coalesce(json_agg(json_build_object('index', s.index, 'source', s.source, 'text', s.text, 'reasoning', s.reasoning,
                      'toolCalls', s."toolCalls", 'observations', s.observations, 'timestampMs', (extract(epoch FROM s.timestamp) * 1000)::float8,
                      'castTime', s."castTime", 'usage', s.usage) ORDER BY s.index), '[]')::text
             FROM step s WHERE s."trajectoryId" = t.id) AS steps,
            (SELECT coalesce(json_agg(json_build_object('judge', j.judge, 'score', j.score, 'label', j.label, 'explanation', j.explanation)
                      ORDER BY j.judge, j.id), '[]')::text
             FROM judge_score j WHERE j."trajectoryId" = t.id) AS "judgeScores",
            (SELECT b.content FROM trajectory_blob b WHERE b."trajectoryId" = t.id AND b.kind = 'terminal') AS terminal
     FROM trajectory t
     JOIN task tk ON tk.id = t."taskId"
     JOIN policy p ON p.id = t."policyId"
     LEFT JOIN environment e ON e.id = tk."environmentId"
     WHERE t.id = $1`,
    [id],
  );
  if (!row) return null;
  const terminal = row.terminal ? storedTerminal(JSON.parse(gunzipSync(row.terminal).toString('utf8'))) : null;
  const criteria = parseCriteria(row.acceptanceCriteria);
  const components = storedComponents(row.verifierComponents);
  const trajectory: Trajectory = {
    format: row.sourceFormat as FormatName,
    externalId: row.externalId,
    task: {
      name: row.taskName,
      instruction: row.instruction,
      acceptanceCriteria: criteria,
      environment: row.environment,
      split: row.split,
      metadata: (row.taskMetadata ?? {}) as Record<string, unknown>,
    },
    policy: { model: row.model, checkpoint: row.checkpoint, agent: row.agent },
    steps: (JSON.parse(row.steps) as StepRow[]).map((s) => ({
      index: s.index,
      source: s.source as Trajectory['steps'][number]['source'],
      text: s.text,
      reasoning: s.reasoning,
      toolCalls: storedToolCalls(s.toolCalls),
      observations: storedObservations(s.observations),
      timestamp: iso(s.timestampMs),
      castTime: s.castTime,
      usage: storedUsage(s.usage),
    })),
    verifier: row.verifierReward === null && Object.keys(components).length === 0 ? null : { reward: row.verifierReward, components },
    judgeScores: JSON.parse(row.judgeScores) as Trajectory['judgeScores'],
    usage: storedUsage(row.usage),
    terminal,
    submission: row.submission,
    exitStatus: row.exitStatus,
    startedAt: iso(row.startedMs),
    endedAt: iso(row.endedMs),
    metadata: (row.metadata ?? {}) as Record<string, unknown>,
  };
  return {
    trajectory,
    projectId: row.projectId,
    labels: { task: row.taskName, environment: row.environment, policy: row.policyName },
    criteria,
    split: row.split,
  };
}
