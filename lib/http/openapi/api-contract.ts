import { z } from 'zod';
import { campaignAgreementAnswer, campaignAgreementQuery } from '../../agreement/agreement-schemas';
import { dashboardParamsSchema } from '../../agreement/dashboard-params';
import { meAnswer } from '../../auth/me-schemas';
import type { Area } from '../../auth/roles';
import { campaignRequest } from '../../campaigns/campaign-request';
import {
  campaignCreatedAnswer,
  campaignDetailAnswer,
  campaignListAnswer,
  campaignListQuery,
  campaignStatusAnswer,
} from '../../campaigns/campaign-schemas';
import { campaignStatusInput } from '../../campaigns/set-campaign-status';
import { campaignDetailQuery } from '../../campaigns/view-campaign-detail';
import { exportAnswer, exportApiRequest, exportRequestedAnswer } from '../../datasets/export-view';
import {
  campaignEstimatesAnswer,
  compareInsightAnswer,
  environmentInsightAnswer,
  policyInsightAnswer,
} from '../../insight/insight-schemas';
import { insightQuery } from '../../insight/parse-insight-query';
import { listReviewsInput } from '../../review/list-reviews';
import {
  assignmentAnswer,
  claimAnswer,
  comparisonWrittenAnswer,
  reviewListAnswer,
  reviewWrittenAnswer,
  skipBody,
} from '../../review/review-api-schemas';
import { comparisonBody } from '../../review/submit-comparison';
import { reviewBody } from '../../review/submit-review';
import { canaryComparisonSchema } from '../../training/canary-schemas';
import {
  importAnswer,
  importQuery,
  projectsAnswer,
  projectsQuery,
  trajectoryDetailAnswer,
  trajectoryPageAnswer,
  trajectoryPageQuery,
} from '../../trajectories/trajectory-schemas';
import {
  assignmentVideoQuery,
  trajectoryVideoQuery,
  videoPartAnswer,
  videoPreparingAnswer,
  videoStatusAnswer,
} from '../../video/video-schemas';
import {
  checkpointAnswer,
  claimTrainingRunRequest,
  completeTrainingRunRequest,
  heartbeatAnswer,
  heartbeatRequest,
  listTrainingRunsQuery,
  registerCheckpointRequest,
  startTrainingRunRequest,
  trainingEventsAnswer,
  trainingEventsRequest,
  trainingRunClaimAnswer,
  trainingRunListAnswer,
  trainingRunStartedAnswer,
  trainingRunViewSchema,
  viewTrainingRunQuery,
} from '../../training/training-run-schemas';
import { appErrorAnswer } from './error-answer';

/**
 * The public API's contract: every `/api/v1` route with its method, path (OpenAPI's `{param}`
 * form, the folder names of app/api/v1), the zod schemas its route parses (params, query, body)
 * and answers with, per status, and the statuses it refuses with (each the one AppError shape,
 * lib/http/openapi/error-answer.ts). openapi-document.ts makes the OpenAPI 3.1 document of it
 * (GET /api/v1/openapi.json); check-response.ts checks the API tests' answers against that
 * document; openapi-document.test.ts fails when a route of app/_server/route-table.ts is missing
 * here or a path here has no route file. The schemas live in their rooms beside the code that
 * builds what they describe; nothing is written twice here.
 */

export type ContractMethod = 'get' | 'post';

/** One answer of a route: JSON (`json`), or another media type (a CSV, a file), or none (204). */
export interface ContractAnswer {
  description: string;
  json?: z.ZodType;
  /** a non-JSON body: its media type (the schema is a string, or binary for a file) */
  media?: { type: string; binary?: boolean };
  /** a JSON body and, with ?format=…, a non-JSON one (the insight routes' CSV) */
  alsoMedia?: { type: string };
  headers?: Record<string, string>;
}

export interface ContractRoute {
  method: ContractMethod;
  path: string;
  summary: string;
  description?: string;
  /** who may call it: `public` (no token), else the role area the edge checks (lib/auth/roles.ts) */
  area: Area | 'public';
  tag: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: { json?: z.ZodType; media?: string[]; description?: string };
  responses: Record<number, ContractAnswer>;
  /**
   * statuses answered with the AppError shape beyond those every authenticated route has (401, 403, 422, 500);
   * a status `responses` names itself is answered as it says there
   */
  errors?: number[];
}

/** What each refusal status means (lib/errors.ts httpStatusFor). */
export const errorMeanings: Record<number, string> = {
  401: 'UNAUTHENTICATED: no valid API token (send `Authorization: Bearer wit_…`) or session',
  403: 'FORBIDDEN: the role (or the token) may not use this endpoint',
  404: 'NOT_FOUND: absent, or outside the projects the caller reaches',
  409: 'CONFLICT: the state does not allow it (a closed campaign, an older video split, …)',
  413: 'TOO_LARGE: the body is over the size limit',
  422: 'BAD_INPUT: the input was refused; `message` says where and what, `details.field` names it',
  429: 'RATE_LIMITED: too many pending jobs or requests; `Retry-After` says when to try again',
  500: 'INTERNAL: something went wrong on the server (logged)',
  503: 'UNAVAILABLE: a dependency is down; try again',
};

/** The statuses every authenticated route may refuse with (the edge: token, role, a NUL in the URL; any failure). */
export const COMMON_ERRORS = [401, 403, 422, 500] as const;

const id = z.object({ id: z.string().min(1).describe('the id') });
const json = (description: string, schema: z.ZodType, headers?: Record<string, string>): ContractAnswer => ({
  description,
  json: schema,
  headers,
});
const csv: ContractAnswer = { description: 'the table as CSV (a download)', media: { type: 'text/csv' } };

export const apiContract: ContractRoute[] = [
  {
    method: 'get',
    path: '/api/v1/openapi.json',
    summary: 'This contract: the OpenAPI 3.1 document of the public API',
    area: 'public',
    tag: 'meta',
    responses: { 200: { description: 'the OpenAPI 3.1 document', json: z.record(z.string(), z.unknown()) } },
  },
  {
    method: 'get',
    path: '/api/v1/me',
    summary: 'Who the token acts as, and the projects it reaches with its role in each',
    area: 'studio',
    tag: 'account',
    responses: { 200: json('the caller', meAnswer) },
  },
  {
    method: 'get',
    path: '/api/v1/projects',
    summary: 'The projects the caller reaches, with counts and the caller’s role',
    area: 'studio',
    tag: 'projects',
    query: projectsQuery,
    responses: { 200: json('the projects', projectsAnswer) },
  },
  {
    method: 'get',
    path: '/api/v1/trajectories',
    summary: 'List trajectories, newest first, a page at a time (cursor)',
    description:
      'Of the projects the caller leads (admins: all), optionally one project and the list’s filters. Pass `nextCursor` as `cursor` for the next page; null on the last.',
    area: 'lead',
    tag: 'trajectories',
    query: trajectoryPageQuery,
    responses: { 200: json('a page of trajectories', trajectoryPageAnswer) },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/v1/trajectories',
    summary: 'Import trajectories (any supported format, or NDJSON of documents)',
    description:
      'The body is one document as its file’s bytes (JSON, JSONL, a cast, an Inspect .eval zip) or NDJSON, one document per line. 200 when anything was imported or skipped as a duplicate; 422 with the same report when every item failed.',
    area: 'lead',
    tag: 'trajectories',
    query: importQuery,
    body: { media: ['application/json', 'application/x-ndjson', 'application/zip', 'application/octet-stream', 'text/plain'] },
    responses: {
      200: json('the import report', importAnswer),
      422: json(
        'every item failed: the same report (its `errors` say where and what), or the input was refused',
        z.union([importAnswer, appErrorAnswer]),
      ),
    },
    errors: [404, 413],
  },
  {
    method: 'get',
    path: '/api/v1/trajectories/{id}',
    summary: 'One trajectory: task, policy, steps, verifier and judge scores, usage, source',
    area: 'lead',
    tag: 'trajectories',
    params: id,
    responses: { 200: json('the trajectory', trajectoryDetailAnswer) },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/v1/trajectories/{id}/video',
    summary: 'The trajectory’s video props as the Player loads them (part 0 the head, parts 1.. its scenes)',
    area: 'lead',
    tag: 'videos',
    params: id,
    query: trajectoryVideoQuery,
    responses: {
      200: json('a stored part of the props', videoPartAnswer),
      202: json('not derived yet: a worker was asked to; ask again after Retry-After', videoPreparingAnswer, { 'retry-after': 'seconds' }),
    },
    errors: [404, 409, 429],
  },
  {
    method: 'get',
    path: '/api/v1/campaigns',
    summary: 'Campaigns (newest first) with their progress',
    area: 'lead',
    tag: 'campaigns',
    query: campaignListQuery,
    responses: { 200: json('the campaigns', campaignListAnswer) },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/v1/campaigns',
    summary: 'Create a campaign (the lead form’s validation)',
    area: 'lead',
    tag: 'campaigns',
    body: { json: campaignRequest },
    responses: { 201: json('the campaign made', campaignCreatedAnswer) },
    errors: [404, 413],
  },
  {
    method: 'get',
    path: '/api/v1/campaigns/{id}',
    summary: 'A campaign: settings, rubric, progress overall and per reviewer, a page of its items',
    area: 'lead',
    tag: 'campaigns',
    params: id,
    query: campaignDetailQuery,
    responses: { 200: json('the campaign', campaignDetailAnswer) },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/v1/campaigns/{id}/status',
    summary: 'Open or close a campaign',
    area: 'lead',
    tag: 'campaigns',
    params: id,
    body: { json: campaignStatusInput },
    responses: { 200: json('the campaign’s status', campaignStatusAnswer) },
    errors: [404, 413],
  },
  {
    method: 'get',
    path: '/api/v1/campaigns/{id}/agreement',
    summary: 'A campaign’s agreement: Krippendorff’s alpha per criterion with its 95% interval, items and reviewers',
    area: 'lead',
    tag: 'campaigns',
    params: id,
    query: campaignAgreementQuery,
    responses: { 200: json('the agreement summary', campaignAgreementAnswer) },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/v1/campaigns/{id}/agreement/{table}',
    summary: 'One table of the agreement dashboard as CSV',
    description: 'table: questions, reviewers, matrix, drift, audit, audit-items or disagreements (with or without .csv)',
    area: 'lead',
    tag: 'campaigns',
    params: id.extend({ table: z.string().min(1).describe('the table, e.g. questions.csv') }),
    query: dashboardParamsSchema,
    responses: { 200: csv },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/v1/campaigns/{id}/estimates',
    summary: 'A campaign’s figures (pass rate, reward hacking, answer leakage): human-only and prediction-powered, with 95% intervals',
    area: 'lead',
    tag: 'campaigns',
    params: id,
    responses: { 200: json('the estimates', campaignEstimatesAnswer) },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/v1/campaigns/{id}/assignments',
    summary: 'Claim the caller’s next item of the campaign',
    area: 'review',
    tag: 'review',
    params: id,
    responses: {
      201: json('the claimed (or resumed) assignment, blind', claimAnswer),
      204: { description: 'nothing is left for the caller' },
    },
    errors: [404, 409],
  },
  {
    method: 'get',
    path: '/api/v1/reviews',
    summary: 'Current reviews of a campaign, newest first (a reviewer: their own)',
    area: 'review',
    tag: 'review',
    query: listReviewsInput,
    responses: { 200: json('a page of reviews', reviewListAnswer) },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/v1/assignments/{id}',
    summary: 'The caller’s own assignment as a reviewer sees it (blind)',
    area: 'review',
    tag: 'review',
    params: id,
    responses: { 200: json('the assignment', assignmentAnswer) },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/v1/assignments/{id}/video',
    summary: 'A video of the caller’s assignment under the campaign’s blind mask',
    area: 'review',
    tag: 'videos',
    params: id,
    query: assignmentVideoQuery,
    responses: { 200: json('a stored part of the props', videoPartAnswer) },
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/api/v1/assignments/{id}/reviews',
    summary: 'Submit (or revise) the caller’s review of a single-item assignment',
    area: 'review',
    tag: 'review',
    params: id,
    body: { json: reviewBody },
    responses: {
      201: json('written', reviewWrittenAnswer),
      200: json('a retry of the same idempotency key (nothing new written)', reviewWrittenAnswer),
    },
    errors: [404, 409, 413],
  },
  {
    method: 'post',
    path: '/api/v1/assignments/{id}/comparisons',
    summary: 'Submit (or revise) the caller’s comparison of a pairwise assignment (screen terms: left/right)',
    area: 'review',
    tag: 'review',
    params: id,
    body: { json: comparisonBody },
    responses: {
      201: json('written', comparisonWrittenAnswer),
      200: json('a retry of the same idempotency key (nothing new written)', comparisonWrittenAnswer),
    },
    errors: [404, 409, 413],
  },
  {
    method: 'post',
    path: '/api/v1/assignments/{id}/skip',
    summary: 'Give the item back',
    area: 'review',
    tag: 'review',
    params: id,
    body: { json: skipBody },
    responses: { 204: { description: 'skipped' } },
    errors: [404, 409, 413],
  },
  {
    method: 'post',
    path: '/api/v1/exports',
    summary: 'Request a dataset export (the eval guard runs at once; a job builds the file)',
    description: 'Poll GET /api/v1/exports/{id} until `status` is done, then download /file (and /card).',
    area: 'lead',
    tag: 'exports',
    body: { json: exportApiRequest },
    responses: { 202: json('the export, queued (or the identical one still queued, joined)', exportRequestedAnswer) },
    errors: [404, 413, 429],
  },
  {
    method: 'get',
    path: '/api/v1/exports/{id}',
    summary: 'An export’s status and progress',
    area: 'lead',
    tag: 'exports',
    params: id,
    responses: { 200: json('the export', exportAnswer) },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/v1/exports/{id}/file',
    summary: 'The dataset (JSONL), immutable (content-addressed)',
    area: 'lead',
    tag: 'exports',
    params: id,
    responses: { 200: { description: 'the dataset', media: { type: 'application/x-ndjson' } } },
    errors: [404, 503],
  },
  {
    method: 'get',
    path: '/api/v1/exports/{id}/card',
    summary: 'The dataset card (Markdown)',
    area: 'lead',
    tag: 'exports',
    params: id,
    responses: { 200: { description: 'the card', media: { type: 'text/markdown' } } },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/v1/videos/{id}',
    summary: 'A render’s status and progress',
    area: 'lead',
    tag: 'videos',
    params: id,
    responses: { 200: json('the video', videoStatusAnswer) },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/v1/videos/{id}/file',
    summary: 'The rendered MP4 (HTTP range requests: 206)',
    area: 'lead',
    tag: 'videos',
    params: id,
    responses: {
      200: { description: 'the whole file', media: { type: 'video/mp4', binary: true } },
      206: { description: 'the range asked for', media: { type: 'video/mp4', binary: true } },
      416: { description: 'the range is outside the file' },
    },
    errors: [404, 503],
  },
  {
    method: 'get',
    path: '/api/v1/insight/environments',
    summary: 'Environments ranked, with rates, intervals and the prediction-powered figures',
    description: 'format=csv: the table as CSV; format=estimate: a figure’s input rows for `witness estimate`.',
    area: 'lead',
    tag: 'insight',
    query: insightQuery,
    responses: { 200: { ...json('the report', environmentInsightAnswer), alsoMedia: { type: 'text/csv' } } },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/v1/insight/policies',
    summary: 'Policy leaderboard (Bradley-Terry with bootstrap intervals), checkpoint trends, prediction-powered figures',
    description: 'format=csv: the table as CSV; format=estimate: a figure’s input rows for `witness estimate`.',
    area: 'lead',
    tag: 'insight',
    query: insightQuery,
    responses: { 200: { ...json('the report', policyInsightAnswer), alsoMedia: { type: 'text/csv' } } },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/v1/insight/compare',
    summary: 'Canary comparison of two policies: win rate and per-criterion pass rates with intervals',
    description: 'format=csv: the table as CSV.',
    area: 'lead',
    tag: 'insight',
    query: insightQuery,
    responses: { 200: { ...json('the comparison', compareInsightAnswer), alsoMedia: { type: 'text/csv' } } },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/v1/training-runs',
    summary: 'Start a training run on the train-split labels of a project (or campaign), frozen now',
    description:
      'The label set is the train-split export written at once (its sha256 and rows recorded). Refused before anything is queued (422) when the base is not a policy of the project, the scope touches eval tasks (a count and a link), or it gives 0 rows.',
    area: 'lead',
    tag: 'training',
    body: { json: startTrainingRunRequest },
    responses: { 201: json('the run, queued', trainingRunStartedAnswer) },
    errors: [404, 413],
  },
  {
    method: 'get',
    path: '/api/v1/training-runs',
    summary: 'Training runs, newest first, a page at a time (cursor), without their metric points',
    area: 'lead',
    tag: 'training',
    query: listTrainingRunsQuery,
    responses: { 200: json('a page of runs', trainingRunListAnswer) },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/v1/training-runs/{id}',
    summary: 'A training run: status, attempts, agent, log tail, checkpoint, label set and metric points',
    area: 'lead',
    tag: 'training',
    params: id,
    query: viewTrainingRunQuery,
    responses: { 200: json('the run', trainingRunViewSchema) },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/v1/training-runs/{id}/cancel',
    summary: 'Cancel a run: a queued one at once; a running one is asked to stop (its agent’s heartbeat hears it)',
    area: 'lead',
    tag: 'training',
    params: id,
    responses: { 200: json('the run', trainingRunViewSchema) },
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/api/v1/training-runs/claim',
    summary: 'A trainer agent claims the oldest queued run it may serve, with a lease (long-poll)',
    description: 'Waits up to waitSeconds (default 20, at most 30) for a run; 204 when none came. Token scope `training` may call it.',
    area: 'lead',
    tag: 'training',
    body: { json: claimTrainingRunRequest },
    responses: {
      200: json('the claimed run, its lease and where its dataset is', trainingRunClaimAnswer),
      204: { description: 'no run came within waitSeconds' },
    },
    errors: [413],
  },
  {
    method: 'post',
    path: '/api/v1/training-runs/{id}/heartbeat',
    summary: 'Renew the lease; says whether a lead asked to cancel',
    area: 'lead',
    tag: 'training',
    params: id,
    body: { json: heartbeatRequest },
    responses: { 200: json('the lease renewed', heartbeatAnswer) },
    errors: [404, 409, 413],
  },
  {
    method: 'post',
    path: '/api/v1/training-runs/{id}/events',
    summary: 'Upload a batch of log lines and metric points, once per idempotency key',
    description: 'At most 5,000 lines and 50,000 points a batch (16 MiB). A key seen before adds nothing (`duplicate: true`).',
    area: 'lead',
    tag: 'training',
    params: id,
    body: { json: trainingEventsRequest },
    responses: { 200: json('the batch recorded (or a repeat)', trainingEventsAnswer) },
    errors: [404, 409, 413],
  },
  {
    method: 'get',
    path: '/api/v1/training-runs/{id}/dataset',
    summary: 'The run’s frozen dataset (JSONL), streamed; its sha256 in x-witness-sha256',
    area: 'lead',
    tag: 'training',
    params: id,
    responses: {
      200: {
        description: 'the dataset',
        media: { type: 'application/x-ndjson' },
        headers: { 'x-witness-sha256': 'the file’s sha256 (the run’s label set)' },
      },
    },
    errors: [404, 503],
  },
  {
    method: 'get',
    path: '/api/v1/training-runs/{id}/eval-tasks',
    summary: 'The project’s eval-split tasks, one {"task","instruction","criteria"} a line (NDJSON)',
    area: 'lead',
    tag: 'training',
    params: id,
    responses: { 200: { description: 'the eval tasks', media: { type: 'application/x-ndjson' } } },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/v1/training-runs/{id}/checkpoint',
    summary: 'Register the run’s checkpoint as a policy (parent: the base), once per key',
    area: 'lead',
    tag: 'training',
    params: id,
    body: { json: registerCheckpointRequest },
    responses: { 200: json('the checkpoint', checkpointAnswer) },
    errors: [404, 409, 413],
  },
  {
    method: 'post',
    path: '/api/v1/training-runs/{id}/complete',
    summary: 'End the run: succeeded (a checkpoint registered), failed or cancelled; once per key',
    area: 'lead',
    tag: 'training',
    params: id,
    body: { json: completeTrainingRunRequest },
    responses: { 200: json('the run', trainingRunViewSchema) },
    errors: [404, 409, 413],
  },
  {
    method: 'get',
    path: '/api/v1/training-runs/{id}/comparison',
    summary: 'A run’s checkpoint vs its parent: reward difference, judge, PPI and human win rates (95% CI, n), the decision',
    area: 'lead',
    tag: 'training',
    params: id,
    responses: { 200: json('the canary comparison', canaryComparisonSchema) },
    errors: [404],
  },
];
