import { z } from 'zod';
import { ESTIMATE_FIGURES } from './estimates';

/**
 * The public API's insight shapes (app/api/v1/insight/…, GET /api/v1/campaigns/ID/estimates): the
 * JSON answers, published by lib/http/openapi/api-contract.ts. The query is `insightQuery`
 * (parse-insight-query.ts); `format=csv|estimate` answers CSV instead.
 */

const interval = z.object({ estimate: z.number(), low: z.number(), high: z.number() });

/** One prediction-powered figure of a group as the API gives it (estimates.ts `estimateRowsJson`). */
export const estimateRowSchema = z.object({
  group: z.string(),
  figure: z.enum([...ESTIMATE_FIGURES, 'winRate']),
  /** trajectories of the frame in the group */
  population: z.number().int(),
  labeled: z.number().int(),
  unlabeled: z.number().int(),
  randomSample: z.boolean(),
  design: z.enum(['uniform', 'weighted']),
  /** human reviews only, 95% interval; null when nothing is labelled */
  human: interval.nullable(),
  /** prediction-powered, 95% interval; null when the sample is not random or there is no predictor */
  ppi: interval.extend({ lambda: z.number() }).nullable(),
  effective_labels: z.number().nullable(),
  predictor: z.string(),
  predictorDescription: z.string(),
});

/** A row of a ranked table (its cells as the page's CSV has them). */
const tableRow = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

/** GET /api/v1/insight/environments */
export const environmentInsightAnswer = z.object({
  project: z.string(),
  environments: z.array(tableRow),
  estimates: z.array(estimateRowSchema),
  pickedCampaigns: z.array(z.string()),
  flaggedMoments: z.array(
    z.object({
      environment: z.string(),
      trajectoryId: z.string(),
      task: z.string(),
      rewardHacking: z.boolean(),
      answerLeakage: z.boolean(),
      notes: z.array(z.object({ frame: z.number(), stepIndex: z.number().nullable(), note: z.string() })),
    }),
  ),
});

/** GET /api/v1/insight/policies */
export const policyInsightAnswer = z.object({
  project: z.string(),
  estimates: z.array(estimateRowSchema),
  pickedCampaigns: z.array(z.string()),
  environment: z.string().nullable(),
  comparisons: z.number().int(),
  bootstrapRounds: z.number().int(),
  policies: z.array(tableRow),
  trends: z.array(
    z.object({
      family: z.string(),
      checkpoints: z.array(z.object({ checkpoint: z.string().nullable(), step: z.number().nullable(), policy: z.string() })),
    }),
  ),
});

/** GET /api/v1/insight/compare */
export const compareInsightAnswer = z.object({
  project: z.string(),
  environment: z.string().nullable(),
  a: z.string(),
  b: z.string(),
  rows: z.array(tableRow),
  winRateEstimate: estimateRowSchema.nullable(),
});

/** GET /api/v1/campaigns/ID/estimates (summarize-campaign-estimates.ts) */
export const campaignEstimatesAnswer = z.object({
  campaign: z.object({ id: z.string(), name: z.string(), mode: z.enum(['single', 'pairwise']) }),
  /** the figures over the campaign's items (group: the campaign's name), then per policy (group: the policy's name) */
  overall: z.array(estimateRowSchema),
  byPolicy: z.array(estimateRowSchema),
  /** why there are no figures (a pairwise campaign: its figures are the insight pages' win rates), else null */
  note: z.string().nullable(),
});
export type CampaignEstimatesAnswer = z.infer<typeof campaignEstimatesAnswer>;
