import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../auth/create-user';
import { projectAccess } from '../auth/project-access';
import { db } from '../db/client';
import { codeOf } from '../db/test/error-code';
import { resetDatabase } from '../db/test/reset';
import { seedLabelledProject, type SeededLabels } from '../db/test/seed-labels';
import { env, setEnv } from '../env';
import { installQueue, stopQueueClient } from '../queue/boss';
import { trainingCanaryJob } from '../queue/jobs/training-canary';
import { cancelTrainingRun } from './cancel-training-run';
import { claimTrainingRun } from './claim-training-run';
import { completeTrainingRun } from './complete-training-run';
import { heartbeatTrainingRun } from './heartbeat-training-run';
import { listTrainingRuns } from './list-training-runs';
import { recordTrainingEvents } from './record-training-events';
import { registerCheckpoint } from './register-checkpoint';
import { startTrainingRun } from './start-training-run';
import { sweepTrainingLeases } from './sweep-training-leases';
import type { TrainingCaller } from './training-run-view';
import { viewTrainingRun } from './view-training-run';

/**
 * Training runs on a real database: a run freezes its label set (the train-split export, its
 * sha256, the reviews behind its rows), refusals leave nothing behind, agents claim with leases
 * (long-poll, routing labels, SKIP LOCKED), expired leases re-queue then fail, uploads are exactly
 * once per key, checkpoints register a child policy (the routes and the `training` token scope:
 * app/_server/training-run-routes.db.test.ts).
 */
let seeded: SeededLabels;
let lead: TrainingCaller;
let leadId: string;
let base: { id: string; name: string; model: string | null };

const pastLease = (id: string) =>
  db().trainingRun.updateMany({ where: { id, status: 'running' }, data: { leaseExpiresAt: new Date(Date.now() - 1000) } });
const start = (extra: Record<string, unknown> = {}) =>
  startTrainingRun(
    { projectId: seeded.projectId, recipe: 'trl-dpo', base: base.name, campaignId: seeded.pairwiseCampaignId, ...extra },
    leadId,
  );
/** Leaves only the given run queued (others are moved aside as succeeded, so claims are deterministic). */
async function onlyQueued(runId: string | null) {
  await db().trainingRun.updateMany({
    where: { status: 'queued', ...(runId ? { id: { not: runId } } : {}) },
    data: { status: 'succeeded' },
  });
}
async function claim(labels?: Record<string, string>, waitSeconds = 0) {
  return claimTrainingRun(lead, { agent: 'gpu-box-1', labels, waitSeconds });
}

beforeAll(async () => {
  await resetDatabase();
  setEnv('WITNESS_DATA_DIR', mkdtempSync(path.join(tmpdir(), 'witness-train-')));
  await installQueue(env().DATABASE_URL!, [trainingCanaryJob]);
  seeded = await seedLabelledProject({ tasks: 3, evalTasks: 1 });
  const user = await createUser({ email: 'lead@train.test', name: 'Lead', role: 'lead', password: 'long enough password' });
  await db().projectMember.create({ data: { projectId: seeded.projectId, userId: user.id, role: 'lead' } });
  leadId = user.id;
  lead = { id: user.id, access: projectAccess('lead', [{ projectId: seeded.projectId, role: 'lead' }]) };
  base = await db().policy.findFirstOrThrow({
    where: { projectId: seeded.projectId, name: { contains: 'good' } },
    select: { id: true, name: true, model: true },
  });
}, 120_000);
afterAll(stopQueueClient);

describe('starting a run freezes its label set', () => {
  it('records the train-split export (rows, sha256 of the stored bytes) and the pairwise comparisons behind its rows', async () => {
    const { id } = await start({ labels: { gpu: 'a100' }, baseUri: 'hf://tiny/base' });
    const run = await db().trainingRun.findUniqueOrThrow({ where: { id } });
    const exp = await db().export.findUniqueOrThrow({ where: { id: run.exportId } });
    expect(exp).toMatchObject({ status: 'done', format: 'trl-dpo', sha256: run.datasetSha256, rows: run.datasetRows });
    expect(exp.params).toMatchObject({ split: 'train', campaignId: seeded.pairwiseCampaignId });
    expect(run.datasetRows).toBe(3);
    const bytes = readFileSync(path.join(env().WITNESS_DATA_DIR, 'storage', exp.storageKey!));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(run.datasetSha256);
    expect(run).toMatchObject({
      status: 'queued',
      attempts: 0,
      basePolicyId: base.id,
      baseUri: 'hf://tiny/base',
      agentLabels: { gpu: 'a100' },
    });
    expect(run.labelEventSeq).not.toBeNull();

    // every review id of the file's rows, as pairwise comparisons of the two reviewers
    const fileIds = new Set(
      bytes
        .toString('utf8')
        .trim()
        .split('\n')
        .flatMap((l) => (JSON.parse(l) as { witness: { review_ids: string[] } }).witness.review_ids),
    );
    const labels = await db().trainingRunLabel.findMany({ where: { runId: id } });
    expect(new Set(labels.map((l) => l.reviewId))).toEqual(fileIds);
    expect(labels.length).toBe(6);
    expect(new Set(labels.map((l) => l.kind))).toEqual(new Set(['pairwise']));
    const comparisons = await db().pairwiseComparison.findMany({ where: { id: { in: [...fileIds] } }, select: { reviewerId: true } });
    expect(comparisons).toHaveLength(6);
    expect(new Set(labels.map((l) => l.reviewerId))).toEqual(new Set(comparisons.map((c) => c.reviewerId)));

    const view = await viewTrainingRun(lead, id);
    // a comparison's time is its claim-to-submit time (comparisons record no duration of their own)
    const timed = await db().pairwiseComparison.findMany({
      where: { id: { in: [...fileIds] } },
      select: { submittedAt: true, assignment: { select: { claimedAt: true } } },
    });
    const hours = timed.reduce((s, c) => s + (c.submittedAt.getTime() - c.assignment.claimedAt.getTime()) / 1000, 0) / 3600;
    expect(view.labelSet).toEqual({
      rows: 3,
      sha256: run.datasetSha256,
      reviews: 6,
      reviewers: 2,
      campaigns: [seeded.pairwiseCampaignId],
      reviewerHours: expect.closeTo(hours, 6),
      staleReviews: 0,
    });
    expect(view).toMatchObject({
      base: { name: base.name, uri: 'hf://tiny/base' },
      labels: { gpu: 'a100' },
      checkpoint: null,
      metrics: [],
    });
    const audit = await db().auditLog.findFirstOrThrow({ where: { action: 'training.run.start', targetId: id } });
    expect(audit).toMatchObject({ actorId: leadId, projectId: seeded.projectId });
  });

  it('a single-item campaign trains on its reviews: kind review, with their time as reviewer-hours', async () => {
    const { id } = await start({ recipe: 'trl-kto', campaignId: seeded.singleCampaignId });
    const labels = await db().trainingRunLabel.findMany({ where: { runId: id } });
    expect(labels.length).toBeGreaterThan(0);
    expect(new Set(labels.map((l) => l.kind))).toEqual(new Set(['review']));
    const reviews = await db().review.findMany({ where: { id: { in: labels.map((l) => l.reviewId) } }, select: { durationSec: true } });
    expect(reviews).toHaveLength(labels.length);
    const view = await viewTrainingRun(lead, id);
    expect(view.labelSet.reviewerHours).toBeCloseTo(reviews.reduce((s, r) => s + (r.durationSec ?? 0), 0) / 3600, 5);
    // a review revised after the run shows as stale on it
    await db().review.update({ where: { id: labels[0]!.reviewId }, data: { isCurrent: false } });
    expect((await viewTrainingRun(lead, id)).labelSet.staleReviews).toBe(1);
    await db().review.update({ where: { id: labels[0]!.reviewId }, data: { isCurrent: true } });
  });

  it('refuses a base that is no policy, 0 rows, and a scope touching an eval item, leaving nothing behind', async () => {
    const counts = async () => ({
      runs: await db().trainingRun.count(),
      exports: await db().export.count(),
      labels: await db().trainingRunLabel.count(),
    });
    const before = await counts();

    await expect(start({ base: 'nope' })).rejects.toMatchObject({ code: 'BAD_INPUT', message: expect.stringContaining(base.name) });
    const zero = start({ minReviews: 3 });
    await expect(zero).rejects.toMatchObject({ code: 'BAD_INPUT', message: expect.stringMatching(/^0 rows: /) });
    expect(await counts()).toEqual(before);

    // a pair across splits: one side of a pairwise item becomes an eval task's trajectory
    const evalTrajectory = await db().trajectory.findFirstOrThrow({ where: { projectId: seeded.projectId, task: { split: 'eval' } } });
    const item = await db().campaignItem.findFirstOrThrow({
      where: { campaignId: seeded.pairwiseCampaignId, trajectory: { task: { split: 'train' } } },
    });
    await db().campaignItem.update({ where: { id: item.id }, data: { trajectoryBId: evalTrajectory.id } });
    try {
      type Refusal = { code: string; message: string; details: { offending: { itemId: string }[] } };
      const refusal = (await start().then(
        () => null,
        (e: unknown) => e,
      )) as Refusal;
      expect(refusal.code).toBe('BAD_INPUT');
      expect(refusal.message).toContain('Refused: 1 item(s) of this scope touch evaluation tasks');
      expect(refusal.message).toContain(`/lead/campaigns/${seeded.pairwiseCampaignId}`);
      expect(refusal.message).not.toContain(item.id);
      expect(refusal.details.offending.map((o) => o.itemId)).toEqual([item.id]);
      expect(await counts()).toEqual(before);
    } finally {
      await db().campaignItem.update({ where: { id: item.id }, data: { trajectoryBId: item.trajectoryBId } });
    }
  });
});

describe('agents claim runs with leases', () => {
  it('claims the oldest queued run it may serve (routing labels), answers none at once, and long-polls', async () => {
    const { id } = await start({ labels: { gpu: 'a100' } });
    await onlyQueued(id);
    expect(await claim()).toBeNull();
    expect(await claim({ gpu: 'h100' })).toBeNull();
    const claimed = (await claim({ gpu: 'a100', zone: 'eu' }))!;
    expect(claimed.run).toMatchObject({ id, status: 'running', attempts: 1, agent: 'gpu-box-1' });
    expect(claimed.run.metrics).toBeUndefined();
    expect(claimed.lease.token).toMatch(/^[0-9a-f]{32}$/);
    expect(claimed.lease.seconds).toBe(60);
    expect(claimed.dataset).toEqual({ url: `/api/v1/training-runs/${id}/dataset`, sha256: claimed.run.sha256, rows: 3, format: 'trl-dpo' });
    expect(claimed.evalTasksUrl).toBe(`/api/v1/training-runs/${id}/eval-tasks`);
    expect((await db().trainingRun.findUniqueOrThrow({ where: { id } })).startedAt).not.toBeNull();
    expect(await db().auditLog.count({ where: { action: 'training.run.claim', targetId: id } })).toBe(1);

    // long-poll: a run queued while the agent waits is claimed within ~0.5 s
    const { id: later } = await start();
    await db().trainingRun.update({ where: { id: later }, data: { status: 'succeeded' } });
    const t0 = Date.now();
    const waiting = claim(undefined, 5);
    await new Promise((r) => setTimeout(r, 400));
    const queuedAt = Date.now();
    await db().trainingRun.update({ where: { id: later }, data: { status: 'queued' } });
    const got = await waiting;
    expect(got?.run.id).toBe(later);
    expect(Date.now() - queuedAt).toBeLessThan(1000);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(400);
    // and an idle agent gets null after its wait
    const t1 = Date.now();
    expect(await claim(undefined, 0.6)).toBeNull();
    expect(Date.now() - t1).toBeGreaterThanOrEqual(550);
  });

  it('re-queues a run whose lease expired (attempt + 1), then fails it after maxAttempts; an old lease is lost', async () => {
    const { id } = await start({ maxAttempts: 2 });
    await onlyQueued(id);
    const first = (await claim())!;
    await pastLease(id);
    expect(await sweepTrainingLeases()).toEqual([{ id, status: 'queued' }]);
    expect(await db().trainingRun.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'queued', attempts: 1, leaseToken: null });
    expect(await codeOf(heartbeatTrainingRun(lead, id, { leaseToken: first.lease.token }))).toBe('CONFLICT');
    // an admin's agent (every project: no project filter) takes it up again
    const admin: TrainingCaller = { id: null, access: projectAccess('admin', []) };
    const second = (await claimTrainingRun(admin, { agent: 'gpu-box-2', waitSeconds: 0 }))!;
    expect(second.run).toMatchObject({ id, attempts: 2, agent: 'gpu-box-2' });
    expect(await codeOf(recordTrainingEvents(lead, id, { leaseToken: first.lease.token, key: 'old', logs: ['x'] }))).toBe('CONFLICT');
    await pastLease(id);
    const view = await viewTrainingRun(lead, id); // show sweeps too
    expect(view).toMatchObject({
      status: 'failed',
      attempts: 2,
      failureReason: 'the agent stopped heartbeating (lease expired) on attempt 2 of 2',
    });
    expect(view.finishedAt).not.toBeNull();
  });

  it('heartbeats renew the lease and carry a cancel; cancel of queued and running runs', async () => {
    const { id: queued } = await start();
    await onlyQueued(queued);
    const { id } = await start();
    const cancelledAtOnce = await cancelTrainingRun(lead, queued);
    expect(cancelledAtOnce).toMatchObject({ status: 'cancelled', cancelRequested: true });
    const claimed = (await claim())!;
    expect(claimed.run.id).toBe(id);
    const beat = await heartbeatTrainingRun(lead, id, { leaseToken: claimed.lease.token, leaseSeconds: 120 });
    expect(beat.cancelRequested).toBe(false);
    expect(new Date(beat.leaseExpiresAt!).getTime() - Date.now()).toBeGreaterThan(110_000);
    const asked = await cancelTrainingRun(lead, id);
    expect(asked).toMatchObject({ status: 'running', cancelRequested: true });
    expect((await heartbeatTrainingRun(lead, id, { leaseToken: claimed.lease.token })).cancelRequested).toBe(true);
    const done = await completeTrainingRun(lead, id, { leaseToken: claimed.lease.token, key: 'end', outcome: 'cancelled' });
    expect(done.status).toBe('cancelled');
    expect(await codeOf(cancelTrainingRun(lead, id))).toBeNull();
    expect(await db().auditLog.count({ where: { action: 'training.run.cancel', targetId: { in: [queued, id] } } })).toBe(2);
  });
});

describe('uploads, checkpoint and completion are exactly once', () => {
  it('events: a key twice adds nothing; the log tail is bounded; a later attempt replaces a (step, name) point', async () => {
    const { id } = await start({ maxAttempts: 3 });
    await onlyQueued(id);
    const a1 = (await claim())!;
    const batch = {
      leaseToken: a1.lease.token,
      key: 'b1',
      logs: ['step 1', 'step 2'],
      metrics: [
        { step: 1, name: 'loss', value: 0.9 },
        { step: 2, name: 'loss', value: 0.7 },
        { step: 2, name: 'rewards/accuracies', value: 0.5 },
      ],
    };
    expect(await recordTrainingEvents(lead, id, batch)).toEqual({ duplicate: false, points: 3 });
    expect(await recordTrainingEvents(lead, id, batch)).toEqual({ duplicate: true, points: 0 });
    expect(await db().trainingRunMetric.count({ where: { runId: id } })).toBe(3);
    const lines = Array.from({ length: 250 }, (_, i) => `line ${i}`);
    lines[249] = 'x'.repeat(5000);
    await recordTrainingEvents(lead, id, { leaseToken: a1.lease.token, key: 'b2', logs: lines });
    const tail = (await viewTrainingRun(lead, id)).logTail;
    expect(tail).toHaveLength(200);
    expect(tail[0]).toBe('line 50');
    expect(tail[199]).toBe('x'.repeat(2000));

    await pastLease(id);
    const a2 = (await claim())!;
    expect(a2.run.attempts).toBe(2);
    await recordTrainingEvents(lead, id, { leaseToken: a2.lease.token, key: 'a2-b1', metrics: [{ step: 2, name: 'loss', value: 0.6 }] });
    const view = await viewTrainingRun(lead, id);
    expect(view.metrics).toEqual([
      { step: 1, name: 'loss', value: 0.9 },
      { step: 2, name: 'loss', value: 0.6 },
      { step: 2, name: 'rewards/accuracies', value: 0.5 },
    ]);
    expect(
      (await db().trainingRunMetric.findUniqueOrThrow({ where: { runId_name_step: { runId: id, name: 'loss', step: 2 } } })).attempt,
    ).toBe(2);
    expect((await viewTrainingRun(lead, id, { metrics: false })).metrics).toBeUndefined();

    // 10,000 points in one batch (the bench's figure: points ingested per second)
    const points = Array.from({ length: 10_000 }, (_, i) => ({ step: i, name: i % 2 ? 'loss' : 'kl', value: 1 / (i + 1) }));
    const t0 = performance.now();
    const big = await recordTrainingEvents(lead, id, { leaseToken: a2.lease.token, key: 'big', metrics: points });
    const seconds = (performance.now() - t0) / 1000;
    expect(big.points).toBe(10_000);
    console.log(`training events: ${Math.round(10_000 / seconds)} points/s (10,000 in ${seconds.toFixed(3)} s)`);
    expect(10_000 / seconds).toBeGreaterThan(2_000);
  });

  it('checkpoint: a child policy of the base, once per key; succeeded needs one; completion is idempotent', async () => {
    const { id } = await start();
    await onlyQueued(id);
    const c = (await claim())!;
    const lease = c.lease.token;
    expect(await codeOf(completeTrainingRun(lead, id, { leaseToken: lease, key: 'done-early', outcome: 'succeeded' }))).toBe('BAD_INPUT');
    const reg = await registerCheckpoint(lead, id, { leaseToken: lease, key: 'ck', uri: '/work/out/run' });
    const name = `${base.name}+${id.slice(0, 8)}`;
    expect(reg.checkpoint).toMatchObject({ name, uri: '/work/out/run' });
    const policy = await db().policy.findUniqueOrThrow({ where: { id: reg.checkpoint.policyId } });
    expect(policy).toMatchObject({
      name,
      parentId: base.id,
      trainingRunId: id,
      checkpoint: '/work/out/run',
      model: base.model,
      projectId: seeded.projectId,
    });
    expect(await registerCheckpoint(lead, id, { leaseToken: lease, key: 'ck', uri: '/work/out/run' })).toEqual(reg);
    expect(await db().policy.count({ where: { trainingRunId: id } })).toBe(1);
    const jobs = await db().$queryRaw<{ data: { policyIds: string[] } }[]>`SELECT data FROM pgboss.job WHERE name = 'training.canary'`;
    expect(jobs.some((j) => j.data.policyIds.includes(policy.id))).toBe(true);

    // another run may not take the name
    const { id: other } = await start();
    await onlyQueued(other);
    const o = (await claim())!;
    expect(await codeOf(registerCheckpoint(lead, other, { leaseToken: o.lease.token, key: 'ck', name, uri: '/x' }))).toBe('CONFLICT');

    const done = await completeTrainingRun(lead, id, { leaseToken: lease, key: 'fin', outcome: 'succeeded' });
    expect(done).toMatchObject({ status: 'succeeded', checkpoint: { name, uri: '/work/out/run', policyId: policy.id } });
    expect(await completeTrainingRun(lead, id, { leaseToken: lease, key: 'fin', outcome: 'succeeded' })).toMatchObject({
      status: 'succeeded',
    });
    expect(await completeTrainingRun(lead, id, { leaseToken: lease, key: 'fin-again', outcome: 'succeeded' })).toMatchObject({
      status: 'succeeded',
    });
    expect(await codeOf(completeTrainingRun(lead, id, { leaseToken: lease, key: 'x', outcome: 'failed' }))).toBe('CONFLICT');
    expect(await codeOf(heartbeatTrainingRun(lead, id, { leaseToken: lease }))).toBe('CONFLICT');
    expect(await db().auditLog.count({ where: { action: 'training.run.complete', targetId: id } })).toBe(1);

    const failed = await completeTrainingRun(lead, other, { leaseToken: o.lease.token, key: 'f', outcome: 'failed', exitCode: 2 });
    expect(failed).toMatchObject({ status: 'failed', failureReason: 'the command exited with code 2' });
    const list = await listTrainingRuns(lead, { project: seeded.slug, status: 'failed' });
    expect(list.runs.map((r) => r.id)).toContain(other);
    expect(list.runs.every((r) => r.status === 'failed')).toBe(true);
  });
});
