import { randomBytes } from 'node:crypto';
import type { Prisma, TrainingRunStatus } from '@prisma/client';
import type { AuditStep } from '../../auth/queries/audit';
import { db } from '../../db/client';

/**
 * Training runs (training_run and its metrics, upload keys and labels): plain reads and writes.
 * Every agent write checks the lease in the same transaction as the change (the run row locked
 * FOR UPDATE), so an agent whose lease was swept and re-claimed cannot write over the new one.
 */
type Tx = Prisma.TransactionClient;

export const runSelect = {
  id: true,
  projectId: true,
  recipe: true,
  basePolicy: true,
  basePolicyId: true,
  baseUri: true,
  campaignId: true,
  params: true,
  agentLabels: true,
  exportId: true,
  datasetSha256: true,
  datasetRows: true,
  labelEventSeq: true,
  status: true,
  attempts: true,
  maxAttempts: true,
  leaseToken: true,
  leaseExpiresAt: true,
  agentName: true,
  cancelRequested: true,
  logTail: true,
  failureReason: true,
  evalError: true,
  checkpointName: true,
  checkpointUri: true,
  canaryCampaignId: true,
  createdById: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
  project: { select: { slug: true } },
  checkpoint: { select: { id: true, name: true, checkpoint: true } },
} as const satisfies Prisma.TrainingRunSelect;
export type TrainingRunRecord = Prisma.TrainingRunGetPayload<{ select: typeof runSelect }>;

export interface LabelSetSummary {
  reviews: number;
  reviewers: number;
  campaigns: string[];
  reviewerHours: number;
  staleReviews: number;
}

export async function findTrainingRun(id: string): Promise<TrainingRunRecord | null> {
  return db().trainingRun.findUnique({ where: { id }, select: runSelect });
}

export async function trainingRunProjectId(id: string): Promise<string | null> {
  return (await db().trainingRun.findUnique({ where: { id }, select: { projectId: true } }))?.projectId ?? null;
}

/** Runs newest first, of these projects (null: every project), a page after `cursor` (a run id). */
export async function listTrainingRuns(input: {
  projectIds: string[] | null;
  status?: TrainingRunStatus;
  cursor?: string;
  limit: number;
}): Promise<TrainingRunRecord[]> {
  const where: Prisma.TrainingRunWhereInput = {
    ...(input.projectIds ? { projectId: { in: input.projectIds } } : {}),
    ...(input.status ? { status: input.status } : {}),
  };
  if (input.cursor) {
    const after = await db().trainingRun.findUnique({ where: { id: input.cursor }, select: { createdAt: true, id: true } });
    if (!after) return [];
    where.OR = [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }];
  }
  return db().trainingRun.findMany({ where, select: runSelect, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: input.limit });
}

/** The label-set figures of these runs: reviews, reviewers, campaigns, reviewer-hours, reviews revised since. */
export async function labelSetSummaries(runIds: string[]): Promise<Map<string, LabelSetSummary>> {
  const out = new Map<string, LabelSetSummary>();
  if (runIds.length === 0) return out;
  const rows = await db().$queryRaw<
    { runId: string; reviews: number; reviewers: number; campaigns: string[] | null; seconds: number; stale: number }[]
  >`
    SELECT l."runId",
           count(*)::int AS reviews,
           count(DISTINCT l."reviewerId")::int AS reviewers,
           array_agg(DISTINCT l."campaignId" ORDER BY l."campaignId") AS campaigns,
           coalesce(sum(l."durationSec"), 0)::float8 AS seconds,
           count(*) FILTER (WHERE r."isCurrent" = false OR p."isCurrent" = false)::int AS stale
      FROM training_run_label l
      LEFT JOIN review r ON l.kind = 'review' AND r.id = l."reviewId"
      LEFT JOIN pairwise_comparison p ON l.kind = 'pairwise' AND p.id = l."reviewId"
     WHERE l."runId" = ANY(${runIds}::text[])
     GROUP BY l."runId"`;
  for (const r of rows)
    out.set(r.runId, {
      reviews: r.reviews,
      reviewers: r.reviewers,
      campaigns: r.campaigns ?? [],
      reviewerHours: r.seconds / 3600,
      staleReviews: r.stale,
    });
  return out;
}

/** Every metric point of a run, by name then step. */
export async function runMetrics(runId: string): Promise<{ step: number; name: string; value: number }[]> {
  return db().trainingRunMetric.findMany({
    where: { runId },
    select: { step: true, name: true, value: true },
    orderBy: [{ name: 'asc' }, { step: 'asc' }],
  });
}

/** A project's policy by name (the base of a run), or null; with some names of the project for the refusal. */
export async function findPolicyByName(projectId: string, name: string) {
  return db().policy.findUnique({
    where: { projectId_name: { projectId, name } },
    select: { id: true, name: true, model: true, agent: true },
  });
}
export async function somePolicyNames(projectId: string, take = 20): Promise<string[]> {
  const rows = await db().policy.findMany({ where: { projectId }, select: { name: true }, orderBy: { name: 'asc' }, take });
  return rows.map((r) => r.name);
}

/** The last label event of the project (null: none yet). */
export async function lastLabelEventSeq(projectId: string): Promise<bigint | null> {
  const row = await db().labelEvent.aggregate({ where: { projectId }, _max: { seq: true } });
  return row._max.seq ?? null;
}

/** The campaigns of these campaign items (for the eval guard's link). */
export async function campaignsOfItems(itemIds: string[]): Promise<string[]> {
  const rows = await db().campaignItem.findMany({ where: { id: { in: itemIds } }, select: { campaignId: true }, distinct: ['campaignId'] });
  return rows.map((r) => r.campaignId).sort();
}

/** Deletes an export row a refused start made (its file, if any, stays: content-addressed, it may be shared). */
export async function deleteExportRow(exportId: string): Promise<void> {
  await db().export.deleteMany({ where: { id: exportId } });
}

export interface LabelRef {
  reviewId: string;
  kind: 'review' | 'pairwise';
  campaignId: string;
  reviewerId: string;
  durationSec: number | null;
}

/** Looks up reviews and pairwise comparisons by id (the rows' provenance): who, which campaign, how long. */
export async function lookUpLabels(reviewIds: string[], comparisonIds: string[]): Promise<LabelRef[]> {
  const out: LabelRef[] = [];
  for (let i = 0; i < reviewIds.length; i += 5000) {
    const rows = await db().review.findMany({
      where: { id: { in: reviewIds.slice(i, i + 5000) } },
      select: { id: true, reviewerId: true, durationSec: true, item: { select: { campaignId: true } } },
    });
    for (const r of rows)
      out.push({ reviewId: r.id, kind: 'review', campaignId: r.item.campaignId, reviewerId: r.reviewerId, durationSec: r.durationSec });
  }
  for (let i = 0; i < comparisonIds.length; i += 5000) {
    const rows = await db().pairwiseComparison.findMany({
      where: { id: { in: comparisonIds.slice(i, i + 5000) } },
      select: {
        id: true,
        reviewerId: true,
        submittedAt: true,
        assignment: { select: { claimedAt: true } },
        item: { select: { campaignId: true } },
      },
    });
    // a comparison records no duration of its own: the time from its claim to its submit
    for (const r of rows)
      out.push({
        reviewId: r.id,
        kind: 'pairwise',
        campaignId: r.item.campaignId,
        reviewerId: r.reviewerId,
        durationSec: Math.max(0, (r.submittedAt.getTime() - r.assignment.claimedAt.getTime()) / 1000),
      });
  }
  return out;
}

export interface NewTrainingRun {
  projectId: string;
  recipe: string;
  basePolicy: string;
  basePolicyId: string;
  baseUri: string | null;
  campaignId: string | null;
  params: Record<string, unknown>;
  agentLabels: Record<string, string>;
  exportId: string;
  datasetSha256: string;
  datasetRows: number;
  labelEventSeq: bigint | null;
  maxAttempts: number;
  createdById: string | null;
}

/** Writes the run (queued) and its label rows, with the caller's audit entry, in one transaction. */
export async function createTrainingRun(run: NewTrainingRun, labels: LabelRef[], audit: AuditStep<{ id: string }>): Promise<string> {
  return db().$transaction(
    async (tx) => {
      const row = await tx.trainingRun.create({
        data: {
          ...run,
          params: run.params as Prisma.InputJsonValue,
          agentLabels: run.agentLabels as Prisma.InputJsonValue,
        },
        select: { id: true },
      });
      for (let i = 0; i < labels.length; i += 5000)
        await tx.trainingRunLabel.createMany({
          data: labels.slice(i, i + 5000).map((l) => ({ runId: row.id, ...l })),
          skipDuplicates: true,
        });
      await audit(tx, row);
      return row.id;
    },
    { maxWait: 15_000, timeout: 60_000 },
  );
}

/**
 * Expired leases: running runs whose lease ended before `now` go back to the queue (attempts left),
 * fail (none left) or end cancelled (a cancel was asked for). Returns the runs it moved.
 */
export async function sweepExpiredLeases(now: Date): Promise<{ id: string; status: TrainingRunStatus }[]> {
  return db().$queryRaw<{ id: string; status: TrainingRunStatus }[]>`
    UPDATE training_run SET
      status = (CASE WHEN "cancelRequested" THEN 'cancelled' WHEN attempts < "maxAttempts" THEN 'queued' ELSE 'failed' END)::"TrainingRunStatus",
      "failureReason" = CASE WHEN NOT "cancelRequested" AND attempts >= "maxAttempts"
        THEN 'the agent stopped heartbeating (lease expired) on attempt ' || attempts || ' of ' || "maxAttempts"
        ELSE "failureReason" END,
      "finishedAt" = CASE WHEN "cancelRequested" OR attempts >= "maxAttempts" THEN ${now}::timestamp ELSE NULL END,
      "leaseToken" = CASE WHEN "cancelRequested" OR attempts >= "maxAttempts" THEN "leaseToken" ELSE NULL END,
      "leaseExpiresAt" = NULL,
      "updatedAt" = ${now}::timestamp
    WHERE status = 'running' AND "leaseExpiresAt" < ${now}::timestamp
    RETURNING id, status`;
}

/**
 * Claims the oldest queued run of these projects (null: every project) whose labels are all among
 * `agentLabels`: running, attempt + 1, a new lease. FOR UPDATE SKIP LOCKED: two agents never get
 * the same run, and neither waits on the other. Null when none is queued for this agent.
 */
export async function claimQueuedRun(
  input: { projectIds: string[] | null; agentLabels: Record<string, string>; agent: string; leaseSeconds: number; now: Date },
  audit: AuditStep<{ id: string; projectId: string; attempts: number }>,
): Promise<{ id: string; leaseToken: string; leaseExpiresAt: Date } | null> {
  return db().$transaction(async (tx) => {
    const found = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM training_run
       WHERE status = 'queued'
         AND (${input.projectIds}::text[] IS NULL OR "projectId" = ANY(${input.projectIds}::text[]))
         AND "agentLabels" <@ ${JSON.stringify(input.agentLabels)}::jsonb
       ORDER BY "createdAt", id
       LIMIT 1
       FOR UPDATE SKIP LOCKED`;
    if (found.length === 0) return null;
    const leaseToken = randomBytes(16).toString('hex');
    const leaseExpiresAt = new Date(input.now.getTime() + input.leaseSeconds * 1000);
    const row = await tx.trainingRun.update({
      where: { id: found[0]!.id },
      data: { status: 'running', attempts: { increment: 1 }, leaseToken, leaseExpiresAt, agentName: input.agent },
      select: { id: true, projectId: true, attempts: true, startedAt: true },
    });
    if (!row.startedAt) await tx.trainingRun.update({ where: { id: row.id }, data: { startedAt: input.now }, select: { id: true } });
    await audit(tx, row);
    return { id: row.id, leaseToken, leaseExpiresAt };
  });
}

/** The run locked for an agent's write: null when absent. */
async function lockRun(tx: Tx, runId: string) {
  const rows = await tx.$queryRaw<
    {
      id: string;
      projectId: string;
      status: TrainingRunStatus;
      leaseToken: string | null;
      attempts: number;
      logTail: string;
      basePolicy: string;
      basePolicyId: string | null;
      checkpointName: string | null;
    }[]
  >`SELECT id, "projectId", status, "leaseToken", attempts, "logTail", "basePolicy", "basePolicyId", "checkpointName"
      FROM training_run WHERE id = ${runId} FOR UPDATE`;
  return rows[0] ?? null;
}
export type LockedRun = NonNullable<Awaited<ReturnType<typeof lockRun>>>;

/** Records an idempotency key; false when the run has seen it before. */
async function firstUse(tx: Tx, runId: string, key: string): Promise<boolean> {
  const n = await tx.$executeRaw`INSERT INTO training_run_upload ("runId", key) VALUES (${runId}, ${key}) ON CONFLICT DO NOTHING`;
  return n === 1;
}

/** A heartbeat: extends the lease when `leaseToken` holds it on a running run; else null (the lease is lost). */
export async function extendLease(runId: string, leaseToken: string, leaseSeconds: number, now: Date) {
  const expires = new Date(now.getTime() + leaseSeconds * 1000);
  const { count } = await db().trainingRun.updateMany({
    where: { id: runId, leaseToken, status: 'running' },
    data: { leaseExpiresAt: expires },
  });
  if (count === 0) return null;
  return db().trainingRun.findUnique({ where: { id: runId }, select: { status: true, cancelRequested: true, leaseExpiresAt: true } });
}

export type LeaseCheck = (run: LockedRun | null) => void;

/**
 * An events batch, once per key: the key recorded, the metric points upserted on (run, name, step)
 * with this attempt (one multi-row statement over a JSON array), the log lines appended to the
 * bounded tail. `check` refuses (throws) when the lease does not hold. `duplicate`: the key was
 * seen before and nothing was written.
 */
export async function recordEvents(
  runId: string,
  key: string,
  check: LeaseCheck,
  batch: { lines: string[]; metrics: { step: number; name: string; value: number }[]; tailLines: number },
): Promise<{ duplicate: boolean; points: number }> {
  return db().$transaction(
    async (tx) => {
      const run = await lockRun(tx, runId);
      if (run && !(await keyUnseen(tx, runId, key))) return { duplicate: true, points: 0 };
      check(run);
      await firstUse(tx, runId, key);
      let points = 0;
      if (batch.metrics.length > 0) {
        // one point per (name, step) in a statement (ON CONFLICT cannot touch a row twice): the batch's last wins
        const latest = new Map<string, { step: number; name: string; value: number }>();
        for (const m of batch.metrics) latest.set(`${m.step}\u0000${m.name}`, m);
        // one statement, one parameter: the points as a JSON array (far cheaper to bind than three arrays)
        points = await tx.$executeRaw`
          INSERT INTO training_run_metric ("runId", name, step, value, attempt)
          SELECT ${runId}, t.name, t.step, t.value, ${run!.attempts}::int
            FROM jsonb_to_recordset(${JSON.stringify([...latest.values()])}::jsonb) AS t(name text, step int, value float8)
          ON CONFLICT ("runId", name, step) DO UPDATE SET value = EXCLUDED.value, attempt = EXCLUDED.attempt`;
      }
      if (batch.lines.length > 0) {
        const old = run!.logTail === '' ? [] : run!.logTail.split('\n');
        const tail = [...old, ...batch.lines].slice(-batch.tailLines);
        await tx.trainingRun.update({ where: { id: runId }, data: { logTail: tail.join('\n') }, select: { id: true } });
      }
      return { duplicate: false, points };
    },
    { maxWait: 15_000, timeout: 60_000 },
  );
}

async function keyUnseen(tx: Tx, runId: string, key: string): Promise<boolean> {
  const seen = await tx.trainingRunUpload.findUnique({ where: { runId_key: { runId, key } }, select: { key: true } });
  return seen === null;
}

export type CheckpointOutcome =
  { duplicate: true } | { duplicate: false; policyId: string; name: string; uri: string; projectId: string } | { conflict: string };

/**
 * Registers the run's checkpoint once per key: the policy `name` (parent: the base, model: the
 * base's) made, or the run's own checkpoint policy renamed / re-pointed, and the run's checkpoint
 * recorded; audited. A name held by another run's checkpoint, or by the base itself: `conflict`.
 */
export async function registerCheckpointRow(
  runId: string,
  key: string,
  check: LeaseCheck,
  input: { name: (run: LockedRun) => string; uri: string },
  audit: AuditStep<{ projectId: string; policyId: string; name: string }>,
): Promise<CheckpointOutcome & { duplicate?: boolean }> {
  return db().$transaction(async (tx) => {
    const run = await lockRun(tx, runId);
    if (run && !(await keyUnseen(tx, runId, key))) return { duplicate: true as const };
    check(run);
    const r = run!;
    const name = input.name(r);
    const base = r.basePolicyId
      ? await tx.policy.findUnique({ where: { id: r.basePolicyId }, select: { id: true, model: true, name: true } })
      : null;
    const holder = await tx.policy.findUnique({
      where: { projectId_name: { projectId: r.projectId, name } },
      select: { id: true, trainingRunId: true },
    });
    if (holder && holder.trainingRunId && holder.trainingRunId !== runId)
      return { conflict: `the policy name ${name} is the checkpoint of another training run (${holder.trainingRunId})` };
    if (holder && base && holder.id === base.id) return { conflict: `the policy name ${name} is the run's base policy` };
    const own = await tx.policy.findUnique({ where: { trainingRunId: runId }, select: { id: true } });
    let policyId: string;
    if (own && holder && own.id !== holder.id)
      return { conflict: `the policy name ${name} is taken in this project; the run's checkpoint is registered under another name` };
    if (own) {
      await tx.policy.update({ where: { id: own.id }, data: { name, checkpoint: input.uri }, select: { id: true } });
      policyId = own.id;
    } else if (holder) {
      // a policy of this name already there (its eval trajectories imported first): it becomes the checkpoint
      await tx.policy.update({
        where: { id: holder.id },
        data: { checkpoint: input.uri, trainingRunId: runId, parentId: base?.id ?? null, ...(base?.model ? { model: base.model } : {}) },
        select: { id: true },
      });
      policyId = holder.id;
    } else {
      const made = await tx.policy.create({
        data: {
          projectId: r.projectId,
          name,
          checkpoint: input.uri,
          parentId: base?.id ?? null,
          trainingRunId: runId,
          model: base?.model ?? null,
        },
        select: { id: true },
      });
      policyId = made.id;
    }
    await firstUse(tx, runId, key);
    await tx.trainingRun.update({ where: { id: runId }, data: { checkpointName: name, checkpointUri: input.uri }, select: { id: true } });
    await audit(tx, { projectId: r.projectId, policyId, name });
    return { duplicate: false as const, policyId, name, uri: input.uri, projectId: r.projectId };
  });
}

/**
 * Completes the run once per key. `decide` sees the locked run: it answers `'repeat'` (already
 * completed this way: nothing to write), or throws (lease lost, no checkpoint), or the fields to
 * write. Audited when something changed.
 */
export async function completeRunRow(
  runId: string,
  key: string,
  decide: (run: LockedRun | null) => 'repeat' | { status: TrainingRunStatus; failureReason?: string | null; evalError?: string | null },
  now: Date,
  audit: AuditStep<{ projectId: string; status: TrainingRunStatus }>,
): Promise<void> {
  await db().$transaction(async (tx) => {
    const run = await lockRun(tx, runId);
    if (run && !(await keyUnseen(tx, runId, key))) return;
    const outcome = decide(run);
    if (outcome === 'repeat') return;
    await firstUse(tx, runId, key);
    await tx.trainingRun.update({
      where: { id: runId },
      data: {
        status: outcome.status,
        finishedAt: now,
        leaseExpiresAt: null,
        ...(outcome.failureReason !== undefined ? { failureReason: outcome.failureReason } : {}),
        ...(outcome.evalError !== undefined ? { evalError: outcome.evalError } : {}),
      },
      select: { id: true },
    });
    await audit(tx, { projectId: run!.projectId, status: outcome.status });
  });
}

/**
 * A lead's cancel: queued -> cancelled at once; running -> cancelRequested (the agent stops it).
 * `decide` sees the status and refuses (throws) or answers what to do; `none`: nothing to write.
 */
export async function cancelRunRow(
  runId: string,
  decide: (status: TrainingRunStatus, cancelRequested: boolean) => 'cancel' | 'request' | 'none',
  now: Date,
  audit: AuditStep<{ projectId: string; action: 'cancel' | 'request' }>,
): Promise<void> {
  await db().$transaction(async (tx) => {
    const run = await lockRun(tx, runId);
    if (!run) return;
    const current = await tx.trainingRun.findUniqueOrThrow({ where: { id: runId }, select: { cancelRequested: true } });
    const action = decide(run.status, current.cancelRequested);
    if (action === 'none') return;
    await tx.trainingRun.update({
      where: { id: runId },
      data: action === 'cancel' ? { status: 'cancelled', finishedAt: now, cancelRequested: true } : { cancelRequested: true },
      select: { id: true },
    });
    await audit(tx, { projectId: run.projectId, action });
  });
}

/** The project's eval-split tasks, by name: name, instruction, acceptance criteria (as stored). */
export async function evalTasksOf(projectId: string) {
  return db().task.findMany({
    where: { projectId, split: 'eval' },
    select: { name: true, instruction: true, acceptanceCriteria: true },
    orderBy: { name: 'asc' },
  });
}

/** The export a run's dataset is stored as. */
export async function exportFileOf(exportId: string) {
  return db().export.findUnique({ where: { id: exportId }, select: { id: true, storageKey: true, sha256: true, status: true } });
}
