import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { parseCriteria } from '../../formats/criteria';
import {
  observationSchema,
  terminalRecordingSchema,
  toolCallSchema,
  usageSchema,
  type Criterion,
  type FormatName,
  type Trajectory,
} from '../../formats/trajectory';
import { db } from '../infra/client';

export interface LoadedTrajectory {
  trajectory: Trajectory;
  projectId: string;
  /** the studio's names (environment and policy rows), and the task's current criteria (edited in the UI) */
  labels: { task: string; environment: string | null; policy: string };
  criteria: Criterion[];
  split: 'train' | 'eval';
}

const toolCalls = z.array(toolCallSchema).catch([]);
const observations = z.array(observationSchema).catch([]);
const usage = usageSchema.nullable().catch(null);

/**
 * Rebuilds the normalised trajectory from its rows (steps, judge scores, terminal recording):
 * the input of the video props, review pages and exports. Null when the id is unknown.
 */
export async function loadTrajectory(id: string): Promise<LoadedTrajectory | null> {
  const row = await db().trajectory.findUnique({
    where: { id },
    select: {
      projectId: true,
      sourceFormat: true,
      externalId: true,
      verifierReward: true,
      verifierComponents: true,
      usage: true,
      submission: true,
      exitStatus: true,
      startedAt: true,
      endedAt: true,
      metadata: true,
      task: {
        select: {
          name: true,
          instruction: true,
          acceptanceCriteria: true,
          split: true,
          metadata: true,
          environment: { select: { name: true } },
        },
      },
      policy: { select: { name: true, model: true, checkpoint: true, agent: true } },
      steps: {
        select: {
          index: true,
          source: true,
          text: true,
          reasoning: true,
          toolCalls: true,
          observations: true,
          timestamp: true,
          castTime: true,
          usage: true,
        },
        orderBy: { index: 'asc' },
      },
      judgeScores: { select: { judge: true, score: true, label: true, explanation: true }, orderBy: { judge: 'asc' } },
      blobs: { where: { kind: 'terminal' }, select: { content: true } },
    },
  });
  if (!row) return null;
  const terminalBlob = row.blobs[0];
  const terminal = terminalBlob ? terminalRecordingSchema.safeParse(JSON.parse(gunzipSync(terminalBlob.content).toString('utf8'))) : null;
  const criteria = parseCriteria(row.task.acceptanceCriteria);
  const components = z.record(z.string(), z.number()).catch({}).parse(row.verifierComponents);
  const trajectory: Trajectory = {
    format: row.sourceFormat as FormatName,
    externalId: row.externalId,
    task: {
      name: row.task.name,
      instruction: row.task.instruction,
      acceptanceCriteria: criteria,
      environment: row.task.environment?.name ?? null,
      split: row.task.split,
      metadata: (row.task.metadata ?? {}) as Record<string, unknown>,
    },
    policy: { model: row.policy.model, checkpoint: row.policy.checkpoint, agent: row.policy.agent },
    steps: row.steps.map((s) => ({
      index: s.index,
      source: s.source as Trajectory['steps'][number]['source'],
      text: s.text,
      reasoning: s.reasoning,
      toolCalls: toolCalls.parse(s.toolCalls),
      observations: observations.parse(s.observations),
      timestamp: s.timestamp?.toISOString() ?? null,
      castTime: s.castTime,
      usage: usage.parse(s.usage ?? null),
    })),
    verifier: row.verifierReward === null && Object.keys(components).length === 0 ? null : { reward: row.verifierReward, components },
    judgeScores: row.judgeScores,
    usage: usage.parse(row.usage ?? null),
    terminal: terminal?.success ? terminal.data : null,
    submission: row.submission,
    exitStatus: row.exitStatus,
    startedAt: row.startedAt?.toISOString() ?? null,
    endedAt: row.endedAt?.toISOString() ?? null,
    metadata: (row.metadata ?? {}) as Record<string, unknown>,
  };
  return {
    trajectory,
    projectId: row.projectId,
    labels: { task: row.task.name, environment: row.task.environment?.name ?? null, policy: row.policy.name },
    criteria,
    split: row.task.split,
  };
}
