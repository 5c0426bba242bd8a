import { z } from 'zod';
import { datasetFormatSchema } from '../datasets/formats';

/**
 * Training runs over the API (app/api/v1/training-runs/…), the CLI (`witness train`) and the
 * trainer agent (`witness-trainer`): every request body and answer, published by
 * lib/http/openapi/api-contract.ts. A run trains on a frozen label set (the train-split export
 * written when it started); an agent claims it with a lease, heartbeats, uploads logs and metrics
 * under idempotency keys, registers the checkpoint and completes it.
 */

export const trainingRunStatuses = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export const trainingRunStatusSchema = z.enum(trainingRunStatuses);
export type TrainingRunStatusName = z.infer<typeof trainingRunStatusSchema>;

/** Routing labels `{k: v}`: a run goes only to an agent that carries every one of its labels. */
export const agentLabelsSchema = z
  .record(
    z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_.:/-]+$/, 'a label key is letters, digits and _ . : / -'),
    z.string().min(1).max(200),
  )
  .refine((labels) => Object.keys(labels).length <= 20, 'at most 20 labels');
export type AgentLabels = z.infer<typeof agentLabelsSchema>;

const leaseSecondsSchema = z.number().int().min(10).max(600);
const idempotencyKeySchema = z.string().min(1).max(200);
const leaseTokenSchema = z.string().min(1).max(200);

/** POST /api/v1/training-runs */
export const startTrainingRunRequest = z.object({
  /** the project's slug */
  project: z.string().trim().min(1).max(200),
  /** the dataset format the run trains on */
  recipe: datasetFormatSchema,
  /** the base checkpoint: a policy name of the project, as trajectories carry it */
  base: z.string().trim().min(1).max(500),
  /** the model URI the command receives as {base_uri} */
  baseUri: z.string().trim().min(1).max(2000).optional(),
  /** one campaign's labels (default: every campaign of the project) */
  campaign: z.string().trim().min(1).max(64).optional(),
  minAgreement: z.number().min(0).max(1).optional(),
  minReviews: z.number().int().min(0).max(100).optional(),
  labels: agentLabelsSchema.optional(),
  maxAttempts: z.number().int().min(1).max(10).optional(),
});
export type StartTrainingRunRequest = z.infer<typeof startTrainingRunRequest>;

export const trainingMetricSchema = z.object({
  step: z.number().int().min(0).max(2_147_483_647),
  name: z.string().min(1).max(200),
  value: z.number(),
});
export type TrainingMetric = z.infer<typeof trainingMetricSchema>;

export const checkpointViewSchema = z.object({ name: z.string(), uri: z.string(), policyId: z.string() });

export const labelSetViewSchema = z.object({
  rows: z.number().int(),
  sha256: z.string(),
  /** the reviews (or pairwise comparisons) behind the rows */
  reviews: z.number().int(),
  reviewers: z.number().int(),
  campaigns: z.array(z.string()),
  /** the reviews' time, in hours (pairwise comparisons carry none) */
  reviewerHours: z.number(),
  /** reviews revised since the run started (no longer current) */
  staleReviews: z.number().int(),
});

/** A run as GET /api/v1/training-runs/:id answers it (and `witness train show ID --json` prints it). */
export const trainingRunViewSchema = z.object({
  id: z.string(),
  /** the project's slug */
  project: z.string(),
  recipe: z.string(),
  base: z.object({ name: z.string(), uri: z.string().nullable() }),
  status: trainingRunStatusSchema,
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  rows: z.number().int(),
  sha256: z.string(),
  exportId: z.string(),
  campaignId: z.string().nullable(),
  labels: z.record(z.string(), z.string()),
  /** the agent of the latest claim */
  agent: z.string().nullable(),
  cancelRequested: z.boolean(),
  failureReason: z.string().nullable(),
  evalError: z.string().nullable(),
  logTail: z.array(z.string()),
  checkpoint: checkpointViewSchema.nullable(),
  /** every point, by name then step (absent with ?metrics=0, and in a claim) */
  metrics: z.array(trainingMetricSchema).optional(),
  canaryCampaign: z.object({ id: z.string() }).nullable(),
  labelSet: labelSetViewSchema,
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type TrainingRunView = z.infer<typeof trainingRunViewSchema>;

/** POST /api/v1/training-runs: 201 */
export const trainingRunStartedAnswer = z.object({ run: trainingRunViewSchema });

/** GET /api/v1/training-runs */
export const listTrainingRunsQuery = z.object({
  /** a project's slug; absent: every project the caller leads */
  project: z.string().trim().min(1).max(200).optional(),
  status: trainingRunStatusSchema.optional(),
  /** `nextCursor` of the previous page */
  cursor: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ListTrainingRunsQuery = z.input<typeof listTrainingRunsQuery>;
export const trainingRunListAnswer = z.object({
  runs: z.array(trainingRunViewSchema),
  /** pass as `cursor` for the next page; null on the last */
  nextCursor: z.string().nullable(),
});

/** GET /api/v1/training-runs/:id */
export const viewTrainingRunQuery = z.object({
  /** 0: leave the metric points out */
  metrics: z.enum(['0', '1']).optional(),
});

/** POST /api/v1/training-runs/claim */
export const claimTrainingRunRequest = z.object({
  /** the agent's name (shown on the run) */
  agent: z.string().trim().min(1).max(200),
  /** the agent's labels: it gets only runs whose labels are all among these */
  labels: agentLabelsSchema.optional(),
  /** long-poll: how long to wait for a run (default 20 s) */
  waitSeconds: z.number().min(0).max(30).optional(),
  /** the lease (default 60 s); renewed by each heartbeat */
  leaseSeconds: leaseSecondsSchema.optional(),
});
export type ClaimTrainingRunRequest = z.infer<typeof claimTrainingRunRequest>;
export const trainingRunClaimAnswer = z.object({
  run: trainingRunViewSchema,
  lease: z.object({ token: z.string(), expiresAt: z.string(), seconds: z.number().int() }),
  dataset: z.object({ url: z.string(), sha256: z.string(), rows: z.number().int(), format: z.string() }),
  evalTasksUrl: z.string(),
});
export type TrainingRunClaimAnswer = z.infer<typeof trainingRunClaimAnswer>;

/** POST /api/v1/training-runs/:id/heartbeat */
export const heartbeatRequest = z.object({ leaseToken: leaseTokenSchema, leaseSeconds: leaseSecondsSchema.optional() });
export const heartbeatAnswer = z.object({
  status: trainingRunStatusSchema,
  cancelRequested: z.boolean(),
  leaseExpiresAt: z.string().nullable(),
});

export const MAX_METRICS_PER_BATCH = 50_000;
export const MAX_LOG_LINES_PER_BATCH = 5_000;
/** the body limit of an events batch (50,000 points at ~60 bytes, plus lines) */
export const EVENTS_BODY_MAX_BYTES = 16 * 1024 * 1024;

/** POST /api/v1/training-runs/:id/events */
export const trainingEventsRequest = z.object({
  leaseToken: leaseTokenSchema,
  key: idempotencyKeySchema,
  logs: z.array(z.string().max(100_000)).max(MAX_LOG_LINES_PER_BATCH).optional(),
  metrics: z.array(trainingMetricSchema).max(MAX_METRICS_PER_BATCH).optional(),
});
export type TrainingEventsRequest = z.infer<typeof trainingEventsRequest>;
export const trainingEventsAnswer = z.object({
  /** the key was seen before: nothing was added */
  duplicate: z.boolean(),
  /** the metric points written */
  points: z.number().int(),
});

/** POST /api/v1/training-runs/:id/checkpoint */
export const registerCheckpointRequest = z.object({
  leaseToken: leaseTokenSchema,
  key: idempotencyKeySchema,
  /** the new policy's name (default `<base>+<first 8 chars of the run id>`) */
  name: z.string().trim().min(1).max(500).optional(),
  uri: z.string().trim().min(1).max(2000),
});
export type RegisterCheckpointRequest = z.infer<typeof registerCheckpointRequest>;
export const checkpointAnswer = z.object({ checkpoint: checkpointViewSchema });

/** POST /api/v1/training-runs/:id/complete */
export const completeTrainingRunRequest = z.object({
  leaseToken: leaseTokenSchema,
  key: idempotencyKeySchema,
  outcome: z.enum(['succeeded', 'failed', 'cancelled']),
  reason: z.string().max(20_000).optional(),
  exitCode: z.number().int().optional(),
  evalError: z.string().max(20_000).optional(),
});
export type CompleteTrainingRunRequest = z.infer<typeof completeTrainingRunRequest>;

/** One line of GET /api/v1/training-runs/:id/eval-tasks (NDJSON). */
export const evalTaskLineSchema = z.object({ task: z.string(), instruction: z.string(), criteria: z.array(z.string()) });
export type EvalTaskLine = z.infer<typeof evalTaskLineSchema>;
