import { gzipSync } from 'node:zlib';
import type { Prisma } from '@prisma/client';
import type { PreparedTrajectory } from '../ingest/prepare-trajectory';
import { AppError } from '../errors';
import { db } from './client';

type Tx = Prisma.TransactionClient;

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

const STEP_CHUNK = 2000;

function toDate(iso: string | null): Date | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * Stores one trajectory in one transaction: its environment, task and policy (found or created
 * by name), the trajectory, steps, judge scores, terminal recording and raw source. The same
 * content (hash) in the same project creates nothing. A failure rolls everything back.
 */
export async function storeTrajectory(
  projectId: string,
  prepared: PreparedTrajectory,
  options: { source: RawSource | null; sourceWhere: string | null; importedById: string | null },
): Promise<StoreResult> {
  const existing = await db().trajectory.findUnique({
    where: { projectId_contentHash: { projectId, contentHash: prepared.contentHash } },
    select: { id: true },
  });
  if (existing) return { id: existing.id, created: false };
  try {
    return await db().$transaction(async (tx) => storeInTx(tx, projectId, prepared, options), { timeout: 120_000, maxWait: 30_000 });
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') {
      const raced = await db().trajectory.findUnique({
        where: { projectId_contentHash: { projectId, contentHash: prepared.contentHash } },
        select: { id: true },
      });
      if (raced) return { id: raced.id, created: false };
    }
    throw error;
  }
}

async function storeInTx(
  tx: Tx,
  projectId: string,
  prepared: PreparedTrajectory,
  options: { source: RawSource | null; sourceWhere: string | null; importedById: string | null },
): Promise<StoreResult> {
  const t = prepared.trajectory;
  const environmentId = prepared.environmentName
    ? (
        await tx.environment.upsert({
          where: { projectId_name: { projectId, name: prepared.environmentName } },
          create: { projectId, name: prepared.environmentName },
          update: {},
          select: { id: true },
        })
      ).id
    : null;

  let task = await tx.task.findUnique({
    where: { projectId_name: { projectId, name: t.task.name } },
    select: { id: true, split: true, acceptanceCriteria: true, environmentId: true },
  });
  if (!task) {
    task = await tx.task.create({
      data: {
        projectId,
        environmentId,
        name: t.task.name,
        instruction: t.task.instruction,
        acceptanceCriteria: t.task.acceptanceCriteria as Prisma.InputJsonValue,
        split: prepared.split,
        metadata: t.task.metadata as Prisma.InputJsonValue,
      },
      select: { id: true, split: true, acceptanceCriteria: true, environmentId: true },
    });
  } else {
    if (prepared.splitExplicit && task.split !== prepared.split) {
      throw new AppError(
        'CONFLICT',
        `task "${t.task.name}" is already in the ${task.split} split; moving a task between train and eval is done on the task page, not by import`,
      );
    }
    // fill what an earlier import could not know (criteria, environment); never overwrite edits
    const criteriaEmpty = Array.isArray(task.acceptanceCriteria) && task.acceptanceCriteria.length === 0;
    if ((criteriaEmpty && t.task.acceptanceCriteria.length > 0) || (!task.environmentId && environmentId)) {
      await tx.task.update({
        where: { id: task.id },
        data: {
          ...(criteriaEmpty && t.task.acceptanceCriteria.length > 0 ? { acceptanceCriteria: t.task.acceptanceCriteria as Prisma.InputJsonValue } : {}),
          ...(!task.environmentId && environmentId ? { environmentId } : {}),
        },
        select: { id: true },
      });
    }
  }

  const policy = await tx.policy.upsert({
    where: { projectId_name: { projectId, name: prepared.policyName } },
    create: { projectId, name: prepared.policyName, model: t.policy.model, checkpoint: t.policy.checkpoint, agent: t.policy.agent },
    update: {},
    select: { id: true },
  });

  let sourceId: string | null = null;
  if (options.source) {
    const s = options.source;
    const row = await tx.importSource.upsert({
      where: { projectId_sha256: { projectId, sha256: s.sha256 } },
      create: { projectId, sha256: s.sha256, path: s.path, format: s.format, sizeBytes: s.sizeBytes, content: Buffer.from(s.gzipped) },
      update: {},
      select: { id: true },
    });
    sourceId = row.id;
  }

  const trajectory = await tx.trajectory.create({
    data: {
      projectId,
      taskId: task.id,
      policyId: policy.id,
      sourceFormat: t.format,
      externalId: t.externalId,
      contentHash: prepared.contentHash,
      stepCount: t.steps.length,
      verifierReward: t.verifier?.reward ?? null,
      verifierComponents: (t.verifier?.components ?? {}) as Prisma.InputJsonValue,
      usage: (t.usage ?? undefined) as Prisma.InputJsonValue | undefined,
      submission: t.submission,
      exitStatus: t.exitStatus,
      startedAt: toDate(t.startedAt),
      endedAt: toDate(t.endedAt),
      metadata: t.metadata as Prisma.InputJsonValue,
      importedById: options.importedById,
      sourceId,
      sourceWhere: options.sourceWhere,
    },
    select: { id: true },
  });

  for (let i = 0; i < t.steps.length; i += STEP_CHUNK) {
    await tx.step.createMany({
      data: t.steps.slice(i, i + STEP_CHUNK).map((s) => ({
        trajectoryId: trajectory.id,
        index: s.index,
        source: s.source,
        text: s.text,
        reasoning: s.reasoning,
        toolCalls: s.toolCalls as Prisma.InputJsonValue,
        observations: s.observations as Prisma.InputJsonValue,
        timestamp: toDate(s.timestamp),
        castTime: s.castTime,
        usage: (s.usage ?? undefined) as Prisma.InputJsonValue | undefined,
      })),
    });
  }
  if (t.judgeScores.length > 0) {
    await tx.judgeScore.createMany({
      data: t.judgeScores.map((j) => ({ trajectoryId: trajectory.id, judge: j.judge, score: j.score, label: j.label, explanation: j.explanation })),
    });
  }
  if (t.terminal) {
    const json = Buffer.from(JSON.stringify(t.terminal));
    await tx.trajectoryBlob.create({
      data: { trajectoryId: trajectory.id, kind: 'terminal', mediaType: 'application/x-asciicast+json', content: gzipSync(json), size: json.byteLength },
      select: { trajectoryId: true },
    });
  }
  return { id: trajectory.id, created: true };
}
